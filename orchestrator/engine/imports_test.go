package engine_test

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// Only the driver's folder (orchestrator/engine and below) imports Docker,
// moby or BuildKit, tests included; cmd/halebench may, to wire a driver
// in. Everything else sees the driver through interfaces of its own, so a
// second driver is written in one folder.
func TestOnlyTheDriverImportsDocker(t *testing.T) {
	goBin := filepath.Join(runtime.GOROOT(), "bin", "go") // the go that runs this test, PATH or not
	cmd := exec.Command(goBin, "list", "-f", `{{.ImportPath}} {{join .Imports " "}} {{join .TestImports " "}} {{join .XTestImports " "}}`, "./...")
	cmd.Dir = "../.."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	const mod = "github.com/hale-lang/halebench/"
	sawDriver := false
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		pkg := f[0]
		allowed := pkg == mod+"orchestrator/engine" || strings.HasPrefix(pkg, mod+"orchestrator/engine/") || pkg == mod+"cmd/halebench"
		for _, imp := range f[1:] {
			if !strings.HasPrefix(imp, "github.com/docker/") && !strings.HasPrefix(imp, "github.com/moby/moby/") && !strings.HasPrefix(imp, "github.com/moby/buildkit/") {
				continue
			}
			if pkg == mod+"orchestrator/engine" {
				sawDriver = true
			}
			if !allowed {
				t.Errorf("%s imports %s: only the driver (orchestrator/engine/...) may; use the engine's types and declare the interface you need", strings.TrimPrefix(pkg, mod), imp)
			}
		}
	}
	if !sawDriver {
		t.Errorf("orchestrator/engine imports no Docker package: is go list reading this module?\n%s", out)
	}
}
