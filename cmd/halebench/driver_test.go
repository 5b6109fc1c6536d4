package main

import (
	"strings"
	"testing"
)

// --driver picks the engine driver by the name it registered: an unknown
// name is bad input (exit 2) said before any engine is dialled, listing
// the drivers there are; "docker" dials the engine DOCKER_HOST names.
func TestDriverFlag(t *testing.T) {
	noEngine := []string{"DOCKER_HOST=unix:///tmp/halebench-no-such.sock"}
	suite := "--suite=../../orchestrator/harness/testdata/suite"
	for _, args := range [][]string{
		{"run", suite, "--driver=nope"},
		{"xproc", "--driver", "nope", suite},
		{"prune", "--driver=nope"},
		{"verify", "--driver=nope", "report.json"},
	} {
		code, _, errOut := run(t, noEngine, args...)
		if code != 2 || !strings.Contains(errOut, `no engine driver "nope": choose one of docker`) || strings.Contains(errOut, "unreachable") {
			t.Errorf("%v: exit %d, stderr %s", args, code, errOut)
		}
	}
	code, _, errOut := run(t, noEngine, "run", suite, "--driver=docker")
	if code != 2 || !strings.Contains(errOut, "engine unreachable at unix:///tmp/halebench-no-such.sock") {
		t.Errorf("--driver=docker: exit %d, stderr %s", code, errOut)
	}
}
