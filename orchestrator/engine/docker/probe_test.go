package docker_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hale-lang/halebench/orchestrator/engine/docker"
	"github.com/hale-lang/halebench/orchestrator/enginetest"
)

// A probe that never returns (a toolchain's --version that hangs) is
// stopped at ProbeTimeout, said as such, and its container removed.
func TestProbeThatHangsIsStopped(t *testing.T) {
	eng := enginetest.Connect(t)
	img, _ := enginetest.BenchImage(t, eng, "c", "../../runner/testdata/small.c")
	old := docker.ProbeTimeout
	docker.ProbeTimeout = 3 * time.Second
	defer func() { docker.ProbeTimeout = old }()
	_, err := eng.Command(context.Background(), img, "test-probe-timeout", []string{"sleep", "3600"})
	if err == nil || !strings.Contains(err.Error(), "did not finish within 3s") {
		t.Fatalf("a hanging probe: %v", err)
	}
	enginetest.NoLeftovers(t, eng, "test-probe-timeout")
}
