package session

import (
	"bytes"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/image"
	"github.com/hale-lang/halebench/orchestrator/termtext"
)

// The images table prints versions, reasons and notes that toolchains,
// builds and git wrote: none carries a CI command to stdout.
func TestPrintImagesCleans(t *testing.T) {
	hb := &image.HaleBuild{Git: "https://x/##vso[task.complete]", Ref: "v1", Way: "  ::error::way", Rustc: "rustc ##[error]1"}
	built := &Images{Order: []string{"hale", "c"}, Toolchains: map[string]image.Toolchain{
		"hale": {Lang: "hale", Status: image.BuildFailed, Reason: "building hale-cli failed:\n    ::error::from a build log"},
		"c":    {Lang: "c", Status: image.Available, Version: "clang ##vso[task.prependpath]/x", Hale: hb, Warnings: []string{"x\n::warning::w"}},
	}}
	var b bytes.Buffer
	if err := built.WriteTable(&b); err != nil {
		t.Fatal(err)
	}
	if cmd := termtext.CommandLine(b.String()); cmd != "" || !strings.Contains(b.String(), "from a build log") {
		t.Errorf("%q in\n%s", cmd, b.String())
	}
}
