package lifecycle_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hale-lang/halebench/orchestrator/enginetest"
	"github.com/hale-lang/halebench/orchestrator/lifecycle"
)

// A session names its run, reads the host, probes privilege on the
// sampler's toolchain image every time (not on whichever image a map
// yields first), and gives the CPU lock back on Close.
func TestSession(t *testing.T) {
	eng := enginetest.Connect(t)
	ctx := context.Background()
	var log strings.Builder
	open := func() *lifecycle.Session {
		s, err := lifecycle.Open(ctx, eng, lifecycle.Options{Kind: "xproc", Log: &log})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	s := open()
	if !strings.HasPrefix(s.RunID, "xproc-") || s.Host.LogicalCPUs < 1 || s.Host.EngineVersion == "" {
		t.Fatalf("run %q host %+v", s.RunID, s.Host)
	}
	if _, ok := s.Privilege(); ok {
		t.Fatal("a privilege before the probe")
	}
	p1, _, err := s.ProbePrivilege(ctx)
	if err != nil {
		t.Fatal(err)
	}
	p2, _, err := s.ProbePrivilege(ctx)
	if err != nil || p1.String() != p2.String() {
		t.Fatalf("two probes disagree: %s, %s (%v)", p1, p2, err)
	}
	if got, ok := s.Privilege(); !ok || got.Mode != p1.Mode || p1.Mode == "" {
		t.Fatalf("privilege %+v", got)
	}
	if err := s.LockCPUs(ctx); err != nil {
		t.Fatal(err)
	}
	s.Close()
	enginetest.NoLeftovers(t, eng, s.RunID)

	// The lock was released: the next session takes it at once.
	s2 := open()
	defer s2.Close()
	lctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := s2.LockCPUs(lctx); err != nil {
		t.Fatalf("the lock was not released: %v", err)
	}
}
