package image

import (
	"io"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/engine"
)

// An image found under a tag is used only when its recorded inputs, its
// epoch and its layers say it is what this build makes.
func TestCheckFound(t *testing.T) {
	key := inputsDigest("base-id", "dockerfile", "1735689600")
	parent := []string{"sha256:base"}
	good := engine.Image{Labels: map[string]string{LabelInputs: key, LabelEpoch: "1735689600"}, Layers: []string{"sha256:base", "sha256:tc"}}
	with := func(f func(*engine.Image)) engine.Image {
		img := good
		img.Labels = map[string]string{}
		for k, v := range good.Labels {
			img.Labels[k] = v
		}
		img.Layers = append([]string(nil), good.Layers...)
		f(&img)
		return img
	}
	if why := checkFound(good, key, "1735689600", parent); why != "" {
		t.Fatalf("the image these inputs make was refused: %s", why)
	}
	for _, c := range []struct {
		name string
		img  engine.Image
		want string
	}{
		{"another image retagged (other inputs)", with(func(i *engine.Image) { i.Labels[LabelInputs] = inputsDigest("other") }), "recorded inputs"},
		{"an image with no inputs recorded", with(func(i *engine.Image) { delete(i.Labels, LabelInputs) }), "missing"},
		{"another epoch", with(func(i *engine.Image) { i.Labels[LabelEpoch] = "1" }), "epoch"},
		{"not on this base", with(func(i *engine.Image) { i.Layers[0] = "sha256:elsewhere" }), "do not start with its parent's"},
		{"the base itself under the tag", with(func(i *engine.Image) { i.Layers = i.Layers[:1] }), "1 layers, its parent 1"},
	} {
		if why := checkFound(c.img, key, "1735689600", parent); !strings.Contains(why, c.want) {
			t.Errorf("%s: why = %q, want %q", c.name, why, c.want)
		}
	}
}

func TestCheckBase(t *testing.T) {
	b := New(nil, nil, io.Discard, Options{SourceDateEpoch: 1735689600})
	sum := strings.Repeat("a", 64)
	good := engine.Image{Labels: map[string]string{LabelEpoch: "1735689600", labelMirror: DefaultMirror, labelRootfs: sum}, Layers: []string{"sha256:l"}}
	if why := b.checkBase(good); why != "" {
		t.Fatalf("a base made here was refused: %s", why)
	}
	cases := map[string]engine.Image{
		"mirror": {Labels: map[string]string{LabelEpoch: "1735689600", labelMirror: "http://evil.example/debian", labelRootfs: sum}, Layers: []string{"sha256:l"}},
		"epoch":  {Labels: map[string]string{LabelEpoch: "2", labelMirror: DefaultMirror, labelRootfs: sum}, Layers: []string{"sha256:l"}},
		"rootfs": {Labels: map[string]string{LabelEpoch: "1735689600", labelMirror: DefaultMirror}, Layers: []string{"sha256:l"}},
		"layers": {Labels: good.Labels, Layers: []string{"sha256:l", "sha256:m"}},
	}
	for want, img := range cases {
		if why := b.checkBase(img); !strings.Contains(why, want) {
			t.Errorf("why = %q, want it to name the %s", why, want)
		}
	}
}
