package engine_test

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

const module = "github.com/hale-lang/halebench/"

// linksDocker says whether an import path is Docker's, moby's or BuildKit's.
func linksDocker(path string) bool {
	return strings.HasPrefix(path, "github.com/docker/") || strings.HasPrefix(path, "github.com/moby/")
}

// mayLinkDocker: the Docker driver alone. (enginetest dials whichever
// driver is registered; the engine tests that want Docker link it.)
func mayLinkDocker(pkg string) bool {
	return pkg == module+"orchestrator/engine/docker"
}

// goList runs `go list` (the go that runs this test, PATH or not) over
// every orchestrator package and returns one line per package.
func goList(t *testing.T, format string) []string {
	t.Helper()
	goBin := filepath.Join(runtime.GOROOT(), "bin", "go")
	cmd := exec.Command(goBin, "list", "-f", format, "./orchestrator/...")
	cmd.Dir = "../.."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	return strings.Split(strings.TrimSpace(string(out)), "\n")
}

// Of every package under orchestrator/, only the Docker driver links a
// Docker, moby or BuildKit package, directly or through another: the rest
// reach an engine through package engine's interfaces, so a second driver
// is one more package beside engine/docker, and a verb that only reads
// JSON links none of Docker.
func TestOnlyTheDockerDriverLinksDocker(t *testing.T) {
	sawDriver := false
	for _, line := range goList(t, `{{.ImportPath}} {{join .Deps " "}}`) {
		f := strings.Fields(line)
		pkg := f[0]
		var docker []string
		for _, dep := range f[1:] {
			if linksDocker(dep) {
				docker = append(docker, dep)
			}
		}
		if pkg == module+"orchestrator/engine/docker" && len(docker) > 0 {
			sawDriver = true
		}
		if len(docker) > 0 && !mayLinkDocker(pkg) {
			t.Errorf("%s links %d Docker/moby packages (%s, …): only orchestrator/engine/docker may; use package engine's types and interfaces, and find what pulls it in with `go list -deps`", strings.TrimPrefix(pkg, module), len(docker), docker[0])
		}
	}
	if !sawDriver {
		t.Errorf("orchestrator/engine/docker links no Docker package: is go list reading this module?")
	}
}

// Tests too: no test outside the Docker driver imports Docker itself (a
// test reaches the engine through enginetest's driver).
func TestOnlyTheDockerDriverTestsImportDocker(t *testing.T) {
	for _, line := range goList(t, `{{.ImportPath}} {{join .TestImports " "}} {{join .XTestImports " "}}`) {
		f := strings.Fields(line)
		for _, imp := range f[1:] {
			if linksDocker(imp) && f[0] != module+"orchestrator/engine/docker" {
				t.Errorf("a test of %s imports %s: only the Docker driver's may", strings.TrimPrefix(f[0], module), imp)
			}
		}
	}
}
