package image

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/suite"
)

// The generated build script is valid sh for every language and carries
// both caps.
func TestBuildScriptCaps(t *testing.T) {
	for _, l := range suite.All {
		s := buildScript(l)
		if !strings.Contains(s, "ulimit -d 2097152") || !strings.Contains(s, "timeout -k 10 300 ") {
			t.Errorf("%s: script lacks a cap:\n%s", l.Name, s)
		}
		p := filepath.Join(t.TempDir(), "build.sh")
		os.WriteFile(p, []byte(s), 0o644)
		if out, err := exec.Command("sh", "-n", p).CombinedOutput(); err != nil {
			t.Errorf("%s: sh -n: %v\n%s\n%s", l.Name, err, out, s)
		}
	}
}

// The counted build and the clock gate are in the script of each language
// counted that way, and in no other.
func TestBuildScriptCountedBuild(t *testing.T) {
	for _, l := range suite.All {
		s := buildScript(l)
		counted := strings.Contains(s, "/bench/bin/$unit.counted") && strings.Contains(s, l.CountCompile+"\n")
		if counted != (l.CountCompile != "") {
			t.Errorf("%s: counted build in the script %v, CountCompile %q", l.Name, counted, l.CountCompile)
		}
		gate := strings.Contains(apartDockerfile(countsRegion(l), false), "AS gate")
		if gate != (l.CountScope == "region") {
			t.Errorf("%s: clock gate built %v, scope %q", l.Name, gate, l.CountScope)
		}
	}
}
