package xproc

import (
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/suite"
)

// A row without an image says why: its toolchain's reason, or, where the
// toolchain is there, that the suite has no xproc program in the language
// (an unavailable row with no reason before).
func TestNoImageSaysWhy(t *testing.T) {
	c, _ := suite.ByName("c")
	hale, _ := suite.ByName("hale")
	rep := &Report{Images: map[string]report.Toolchain{"c": {Status: "available"}, "hale": {Status: "unavailable", Reason: "no hale source"}}}
	if got := noImageWhy(rep, c); !strings.Contains(got, "xproc/xproc.c") {
		t.Errorf("c: %q", got)
	}
	if got := noImageWhy(rep, hale); got != "no hale source" {
		t.Errorf("hale: %q", got)
	}
	delete(rep.Images, "hale")
	if got := noImageWhy(rep, hale); !strings.Contains(got, "xproc/hale/*.hl") {
		t.Errorf("hale without a toolchain record: %q", got)
	}
}
