package evidence

import (
	"context"
	"fmt"
	"regexp"

	"github.com/hale-lang/halebench/orchestrator/image"
	"github.com/hale-lang/halebench/orchestrator/imagestore"
)

// ReplayPrefix is the repository namespace a replay loads a bundle's images
// under: halebench/<name>:<tag> becomes halebench-replay/<run>/<name>:<tag>,
// so nothing a bundle carries can move a tag this engine already has.
const ReplayPrefix = "halebench-replay"

var (
	// recordedRef is a reference halebench gives an image it builds.
	recordedRef = regexp.MustCompile(`^halebench/([a-z0-9]+(?:[._-][a-z0-9]+)*(?:/[a-z0-9]+(?:[._-][a-z0-9]+)*)*:[A-Za-z0-9_][A-Za-z0-9_.-]{0,127})$`)
	imageID     = regexp.MustCompile(`^sha256:[0-9a-f]{64}$`)
	namespace   = regexp.MustCompile(`^` + ReplayPrefix + `/[a-z0-9]+(?:[._-][a-z0-9]+)*$`)
)

// LoadImages loads the image archive of an unpacked bundle into the engine
// under the namespace ns (ReplayPrefix/<run>) and returns, for each image
// reference the bundle's manifest lists, the reference it was loaded as.
//
// The archive is checked and loaded by orchestrator/imagestore: refused when
// it holds an image the manifest does not list, tags any image with a
// reference the manifest does not list for it, or is sparse; its tags are
// rewritten into ns. A reference in ns that already exists is never
// overwritten. After loading, each image's digest is checked.
func LoadImages(ctx context.Context, eng image.Engine, m *Manifest, archive, ns string) (map[string]string, error) {
	renamed, err := replayRefs(m.Images, ns)
	if err != nil {
		return nil, err
	}
	if err := imagestore.Check(archive, m.Images); err != nil {
		return nil, fmt.Errorf("the bundle's images.tar: %w: refusing to load it", err)
	}
	for _, ref := range sortedKeys(renamed) {
		if _, ok, err := eng.Image(ctx, renamed[ref]); err != nil || ok {
			return nil, fmt.Errorf("image %s already exists on this engine (%v): a replay never overwrites a tag; remove it or replay again", renamed[ref], err)
		}
	}
	if err := imagestore.Load(ctx, eng, archive, m.Images, renamed); err != nil {
		return nil, fmt.Errorf("the bundle's images.tar: %w", err)
	}
	return renamed, nil
}

// replayRefs maps each reference of a bundle's manifest into ns, refusing a
// reference halebench would not have made or a digest that is not one.
func replayRefs(images map[string]string, ns string) (map[string]string, error) {
	if !namespace.MatchString(ns) {
		return nil, fmt.Errorf("replay namespace %q is not %s/<lowercase run id>", ns, ReplayPrefix)
	}
	out := map[string]string{}
	for ref, id := range images {
		sub := recordedRef.FindStringSubmatch(ref)
		if sub == nil || !imageID.MatchString(id) {
			return nil, fmt.Errorf("the bundle's manifest lists image %q with digest %q: halebench bundles only halebench/<name>:<tag> images by sha256 digest", ref, id)
		}
		out[ref] = ns + "/" + sub[1]
	}
	return out, nil
}
