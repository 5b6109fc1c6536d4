package docker_test

import (
	"testing"

	"github.com/hale-lang/halebench/orchestrator/engine"
	"github.com/hale-lang/halebench/orchestrator/enginetest"
)

// The Docker driver keeps the driver contract on the real engine: every
// feature it claims (all but privileged where the host refuses it) is
// checked in a container (enginetest.Conformance).
func TestDockerConformance(t *testing.T) {
	enginetest.Conformance(t, func(t *testing.T) engine.Driver { return enginetest.Connect(t) })
}
