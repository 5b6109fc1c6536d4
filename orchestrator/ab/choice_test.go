package ab

import (
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/image"
	"github.com/hale-lang/halebench/orchestrator/subject"
)

// A side takes the common suite and hale unless it names its own; two
// ways to get one side's hale, a tree that is not a folder and a ref with
// no repository are refused naming the flag.
func TestChoiceSpec(t *testing.T) {
	common := subject.Build{Src: "../hale", SrcDefault: true}
	images := image.Options{Mirror: "http://mirror", Subject: common}
	spec, err := Choice{}.Spec("A", "suite", "", images, common)
	if err != nil || spec.Suite != "suite" || spec.What != "suite suite" || spec.Images.Subject != common || spec.Images.Mirror != "http://mirror" {
		t.Errorf("no choice: %+v %v", spec, err)
	}
	spec, err = Choice{Suite: "b-suite", Image: "hale:b"}.Spec("B", "suite", "", images, common)
	if hb, _ := spec.Images.Subject.(subject.Build); err != nil || spec.Suite != "b-suite" || spec.What != "suite b-suite, hale image hale:b" || hb.Image != "hale:b" || hb.Src != "" {
		t.Errorf("an image: %+v %v", spec, err)
	}
	spec, err = Choice{Src: t.TempDir()}.Spec("A", "suite", "", images, common)
	if hb, _ := spec.Images.Subject.(subject.Build); err != nil || !strings.HasPrefix(spec.What, "suite suite, hale tree ") || hb.Src == common.Src {
		t.Errorf("a tree: %+v %v", spec, err)
	}
	for _, c := range []struct {
		choice Choice
		want   string
	}{
		{Choice{Ref: "v1", Image: "x"}, "side B: give one of --b-ref, --b-src, --b-image"},
		{Choice{Src: "/no/such/tree"}, "--b-src=/no/such/tree: not a folder"},
		{Choice{Ref: "v1"}, "--b-ref=v1: a ref needs --hale-git"},
	} {
		if _, err := c.choice.Spec("B", "suite", "", images, common); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.choice, err, c.want)
		}
	}
}
