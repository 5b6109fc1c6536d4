package subject_test

import (
	"bytes"
	"context"
	"regexp"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/enginetest"
	"github.com/hale-lang/halebench/orchestrator/image"
	"github.com/hale-lang/halebench/orchestrator/subject"
	"github.com/hale-lang/halebench/orchestrator/suite"
)

// hale-cli from a pinned tag and a vendor dir: available as hale 0.17.0,
// the way it was built, its Cargo.lock digest, rustc and the commit
// recorded, the release rule met; a second builder runs no step.
func TestSlowHaleFromGitAndVendor(t *testing.T) {
	eng := enginetest.Connect(t)
	git, vendor := enginetest.HaleInputs(t)
	bk := enginetest.BuildKit(t, eng)
	hale, _ := suite.ByName("hale")
	opts := image.Options{Subject: subject.Build{Git: git, Vendor: vendor}, RunID: "test-hale-build"}
	var tc image.Toolchain
	var err error
	for round := 0; round < 2; round++ {
		var log bytes.Buffer
		tc, err = image.New(eng, bk, &log, opts).Toolchain(context.Background(), hale)
		if err != nil {
			t.Fatalf("round %d: %v\n%s", round, err, log.String())
		}
		if tc.Status != image.Available {
			t.Fatalf("round %d: hale %s: %s\n%s", round, tc.Status, tc.Reason, log.String())
		}
		if round == 1 && tc.Executed != 0 {
			t.Fatalf("the rebuild ran %d steps, want 0 (all cached)\n%s", tc.Executed, log.String())
		}
	}
	hb := tc.Hale
	if tc.Version != "hale 0.17.0" || hb == nil {
		t.Fatalf("version %q, build %+v", tc.Version, hb)
	}
	if hb.Ref != "v0.17.0" || !regexp.MustCompile(`^[0-9a-f]{40}$`).MatchString(hb.Commit) || hb.WorkspaceVersion != "0.17.0" || hb.ReleaseCheck != "agrees" || len(tc.Warnings) != 0 {
		t.Fatalf("release: %+v, warnings %v", hb, tc.Warnings)
	}
	if hb.Way != "debian" && hb.Way != "crates-io" {
		t.Fatalf("way %q", hb.Way)
	}
	if !regexp.MustCompile(`^[0-9a-f]{64}$`).MatchString(hb.CargoLockSHA256) || !regexp.MustCompile(`^rustc \d+\.\d+`).MatchString(hb.Rustc) {
		t.Fatalf("record: lock %q rustc %q", hb.CargoLockSHA256, hb.Rustc)
	}
	have := map[string]bool{}
	for _, c := range hb.VendorCrates {
		have[c] = true
	}
	for _, c := range []string{"inkwell@0.5.0", "inkwell_internals@0.10.0", "llvm-sys@180.0.0", "tree-sitter-go@0.21.2"} {
		if !have[c] {
			t.Errorf("vendor crates %v lack %s", hb.VendorCrates, c)
		}
	}
}
