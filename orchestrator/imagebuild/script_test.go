package imagebuild

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/toolchain"
)

// The generated build script is valid sh for every language and carries
// both caps.
func TestBuildScriptCaps(t *testing.T) {
	for _, l := range toolchain.All {
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
