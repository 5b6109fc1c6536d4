package image

import (
	"context"
	"fmt"
	"time"

	"github.com/hale-lang/halebench/orchestrator/imagestore"
)

// fromCache loads s from the cache folder, when it holds s's key, and uses
// it only when the loaded image is what s's inputs make (checkFound, as for
// an image found under its tag); otherwise the entry is dropped from the
// folder, the loaded image removed, and s is built. An entry no key
// vouches for is loaded under a reference of its own, and not trusted.
func (b *Builder) fromCache(ctx context.Context, tc *Toolchain, s image) (bool, error) {
	if b.cache == nil {
		return false, nil
	}
	start := time.Now()
	b.cacheMu.Lock()
	defer b.cacheMu.Unlock()
	r, err := b.cache.Restore(ctx, s.key, s.ref(), b.unsignedRef(s.ref()), s.parent)
	if r.Ref == "" || err != nil {
		return false, err
	}
	img, found, err := b.eng.Image(ctx, r.Ref)
	if err != nil {
		return false, err
	}
	why := "it is not there after loading"
	if found {
		why = checkFound(img, s.key, b.epochString(), s.parent)
	}
	if why != "" {
		b.cache.Drop(s.key, "the image it holds is not what these inputs make: "+why)
		if err := b.eng.RemoveImage(context.WithoutCancel(ctx), r.Ref); err != nil {
			return false, err
		}
		return false, nil
	}
	restoreArgs(s.args, img.Labels[labelArgs])
	tc.Ref, tc.ID, tc.Digest, tc.layers = r.Ref, img.ID, img.ID, img.Layers
	b.had(tc, OriginRestored, restoredCheck(r), s)
	fmt.Fprintf(b.log, "%s: restored %s from the cache folder in %.1fs (%s)\n", s.what, r.Ref, time.Since(start).Seconds(), signedSay(r))
	return true, b.stamp(ctx, r.Ref)
}

func restoredCheck(r imagestore.Restored) string {
	if r.Signed {
		return CheckedHMAC
	}
	return CheckedNone
}

func signedSay(r imagestore.Restored) string {
	if r.Signed {
		return "its entry's signature checked"
	}
	return "unsigned: no HALEBENCH_CACHE_KEY to check it with"
}

// keep stores an image this builder made or found into the cache folder
// (when there is one and the image was had: err is how having it went). A
// failure to keep it is said, not fatal: the run has its image.
func (b *Builder) keep(ctx context.Context, key, ref, id string, err error) {
	if b.cache == nil || err != nil || ref == "" || id == "" {
		return
	}
	if _, bad := b.Distrusts(ref); bad {
		return // an entry vouches for what it holds: keep only what is trusted
	}
	b.cacheMu.Lock()
	defer b.cacheMu.Unlock()
	if serr := b.cache.Store(ctx, key, ref, id); serr != nil && ctx.Err() == nil {
		fmt.Fprintf(b.log, "cache: could not keep %s in the cache folder (%v); the next run builds it\n", ref, serr)
	}
}

// baseKey is the cache key of the base made here: what mmdebstrap is given
// (its Builder line names the suite, mirror and normaliser) and the epoch.
func baseKey(in *Inputs) string {
	return inputsDigest("base", in.Builder, fmt.Sprint(in.SourceDateEpoch))
}

// baseFromCache restores the base made here from the cache folder and uses
// it when checkBase accepts it, as for a base found under its tag.
func (b *Builder) baseFromCache(ctx context.Context, ref string, in *Inputs) (Base, bool, error) {
	if b.cache == nil {
		return Base{}, false, nil
	}
	key := baseKey(in)
	b.cacheMu.Lock()
	defer b.cacheMu.Unlock()
	r, err := b.cache.Restore(ctx, key, ref, b.unsignedRef(ref), nil)
	if r.Ref == "" || err != nil {
		return Base{}, false, err
	}
	img, found, err := b.eng.Image(ctx, r.Ref)
	if err != nil {
		return Base{}, false, err
	}
	why := "it is not there after loading"
	if found {
		why = b.checkBase(img)
	}
	if why != "" {
		b.cache.Drop(key, "the image it holds is not the base these inputs make: "+why)
		return Base{}, false, b.eng.RemoveImage(context.WithoutCancel(ctx), r.Ref)
	}
	if in.Packages, err = b.packages(ctx, r.Ref); err != nil {
		return Base{}, false, err
	}
	fmt.Fprintf(b.log, "base: restored %s from the cache folder (%s)\n", r.Ref, signedSay(r))
	base := Base{Ref: r.Ref, ID: img.ID, Origin: "mmdebstrap " + BaseSuite, RootfsSHA256: img.Labels[labelRootfs], Inputs: in, layers: img.Layers,
		Provenance: provenance(OriginRestored, restoredCheck(r), "")}
	b.note(base.Ref, base.Provenance)
	return base, true, b.stamp(ctx, r.Ref)
}
