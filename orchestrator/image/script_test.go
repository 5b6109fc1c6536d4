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
// every cap: memory (per process and the tree's), processes, time, one
// file's size, the stage's disk, and the kill
// of what a compile left after it.
func TestBuildScriptCaps(t *testing.T) {
	for _, l := range suite.All {
		s := buildScript(l)
		for _, want := range []string{"ulimit -d 2097152", "ulimit -f 524288", "timeout -k 10 300 ", "kill -s KILL -- -1", `-gt 1048576 ]`, "ulimit -u 256 || ulimit -p 256", "/tmp/halebench/watch.sh $cpid", "setpriv --reuid=\"$U\" --regid=\"$U\" --clear-groups --inh-caps=-all --bounding-set=-all --no-new-privs sh /tmp/halebench/compile.sh", `-gt 4194304 ]`} {
			if !strings.Contains(s, want) {
				t.Errorf("%s: script lacks %q:\n%s", l.Name, want, s)
			}
		}
		if df := benchDockerfile(false, CompileUID(l.Name)); !strings.Contains(df, "USER 0:0\nRUN sh /bench/build.sh") {
			t.Errorf("%s: the compile stage's script does not run as root:\n%s", l.Name, df)
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
