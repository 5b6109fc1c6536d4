package engine_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/engine"
)

// A caller that needs a feature the engine lacks is refused with an error
// that names the feature, what needed it, what the engine said and what
// to do; one it has passes; a platform it does not run is named with
// those it does.
func TestFeaturesNeed(t *testing.T) {
	var f engine.Features
	f.Driver, f.Platforms = "test", []string{"linux/amd64", "linux/arm64"}
	f.With(engine.FeatBuildKit, true, "")
	f.With(engine.FeatSharedIPC, false, "no IPC namespaces here")
	if err := f.Need("building", engine.FeatBuildKit); err != nil {
		t.Fatalf("a feature the engine has: %v", err)
	}
	err := f.Need("xproc's pairs", engine.FeatBuildKit, engine.FeatSharedIPC)
	var m *engine.MissingFeatureError
	if !errors.As(err, &m) || m.Feature != engine.FeatSharedIPC {
		t.Fatalf("Need: %v, want a MissingFeatureError for shared-ipc", err)
	}
	for _, want := range []string{"xproc's pairs needs shared-ipc", "test driver", "no IPC namespaces here", "docker driver"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q does not say %q", err, want)
		}
	}
	if err := f.Need("a pin", engine.FeatPinning); err == nil || !strings.Contains(err.Error(), "cpu-pinning") {
		t.Errorf("a feature never answered counts as missing: %v", err)
	}
	if err := f.NeedPlatform("--platform=linux/arm64", "linux/arm64"); err != nil {
		t.Errorf("an emulated platform: %v", err)
	}
	if err := f.NeedPlatform("--platform=linux/riscv64", "linux/riscv64"); err == nil || !strings.Contains(err.Error(), "linux/amd64, linux/arm64") || !strings.Contains(err.Error(), "binfmt_misc") {
		t.Errorf("a platform not run: %v", err)
	}
	f.With(engine.FeatSharedIPC, true, "")
	if _, still := f.Missing[engine.FeatSharedIPC]; still || !strings.HasPrefix(f.String(), "shared-ipc, buildkit (no ") {
		t.Errorf("after With(shared-ipc, true): missing %v, %q", f.Missing, f.String())
	}
}
