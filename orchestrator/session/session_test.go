package session_test

import (
	"context"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/enginetest"
	"github.com/hale-lang/halebench/orchestrator/session"
)

// A session names its run, reads the host, probes privilege on the
// sampler's toolchain image once (a second Ready is the same Sampling), and
// leaves nothing of its run on Close.
func TestSession(t *testing.T) {
	eng := enginetest.Connect(t)
	ctx := context.Background()
	var log strings.Builder
	s, err := session.Open(ctx, session.Options{Kind: "xproc", Engine: eng, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(s.RunID, "xproc-") || s.Host.LogicalCPUs < 1 || s.Host.EngineVersion == "" || s.Host.Driver != "docker" {
		t.Fatalf("run %q host %+v", s.RunID, s.Host)
	}
	sp1, err := s.Ready(ctx)
	if err != nil {
		t.Fatal(err)
	}
	sp2, err := s.Ready(ctx)
	if err != nil || sp1 != sp2 {
		t.Fatalf("a second Ready made another Sampling (%v)", err)
	}
	if p, _ := sp1.Privilege(); p.Mode == "" {
		t.Fatalf("privilege %+v", p)
	}
	s.Close()
	enginetest.NoLeftovers(t, eng, s.RunID)
}

// A session never dials: with no engine given, Open refuses before asking
// anything.
func TestOpenWithoutEngine(t *testing.T) {
	if _, err := session.Open(context.Background(), session.Options{Kind: "test"}); err == nil || !strings.Contains(err.Error(), "no engine") {
		t.Fatalf("Open without an engine: %v", err)
	}
}
