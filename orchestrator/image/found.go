package image

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/hale-lang/halebench/orchestrator/engine"
	"github.com/hale-lang/halebench/orchestrator/termtext"
)

// LabelInputs is the digest of everything an image was made from (see
// inputsDigest), set on every image halebench builds. An image found under
// one of halebench's tags is used only when this label, its epoch and its
// layers agree with what this build would make: a tag alone proves nothing,
// since anything that can load an image (a bundle's archive, `docker tag`)
// can move it.
const LabelInputs = "org.halebench.inputs-sha256"

// inputsDigest is the sha256 of the parts an image is made from, each
// length-prefixed. Its first 16 hex digits name the image's tag.
func inputsDigest(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		fmt.Fprintf(h, "%d:%s;", len(p), p)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// checkFound says why an image found under a tag is not the one these
// inputs make, or "" when it is: the inputs label and epoch must be this
// build's, and its layers must start with its parent's (the base under a
// toolchain, the toolchain under a bench image), so that it sits on the
// very image this run holds. parent is nil for an image made from scratch.
func checkFound(img engine.Image, key, epoch string, parent []string) string {
	var why []string
	if got := img.Labels[LabelInputs]; got != key {
		why = append(why, fmt.Sprintf("its recorded inputs are %s, this build's %s", keyShown(got), keyShown(key)))
	}
	if got := img.Labels[LabelEpoch]; got != epoch {
		why = append(why, fmt.Sprintf("its epoch is %q, this build's %s", got, epoch))
	}
	if len(img.Layers) == 0 || parent != nil && len(img.Layers) <= len(parent) {
		why = append(why, fmt.Sprintf("it has %d layers, its parent %d", len(img.Layers), len(parent)))
	} else if !layersStartWith(img.Layers, parent) {
		why = append(why, "its layers do not start with its parent's")
	}
	return strings.Join(why, "; ")
}

func layersStartWith(layers, prefix []string) bool {
	if len(prefix) > len(layers) {
		return false
	}
	for i, l := range prefix {
		if layers[i] != l {
			return false
		}
	}
	return true
}

// keyShown is an inputs key as a reason says it: clipped, or "missing".
func keyShown(digest string) string {
	if digest == "" {
		return "missing"
	}
	return termtext.Clip(digest, 16)
}
