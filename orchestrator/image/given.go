// The image inputs as a verb's flags give them, made into Options.

package image

import (
	"os"

	"github.com/hale-lang/halebench/orchestrator/imagestore"
)

// Given are the image inputs of a verb that builds images, as its flags
// give them: --base-image, --mirror, --no-build, --no-cache, --cache-dir
// and --print-cache-key.
type Given struct {
	BaseImage string
	Mirror    string // "": DefaultMirror
	NoBuild   bool
	NoCache   bool
	CacheDir  string
	PrintKey  bool
	// Platform is --platform: linux/amd64 or linux/arm64 ("": the engine's own).
	Platform string
}

// Options are g as a builder takes them, s the subject build, the epoch
// SourceDateEpoch's. With PrintKey, key is the key a CI cache step stores
// the cache folder of a run on the suite in dir under (CacheKey), and no
// folder is looked at; else a cache folder is checked (before any engine
// is asked) and set, signed with $HALEBENCH_CACHE_KEY (or the file
// $HALEBENCH_CACHE_KEY_FILE names) when that is set.
// Its errors are all the user's to fix.
func (g Given) Options(s SubjectBuild, dir string) (o Options, key string, err error) {
	epoch, _, err := SourceDateEpoch()
	if err != nil {
		return Options{}, "", err
	}
	// A tag's presence is the engine's to say; its form is checked here.
	if g.BaseImage != "" {
		if err := CheckRef("--base-image", g.BaseImage); err != nil {
			return Options{}, "", err
		}
	}
	arch, err := ParsePlatform(g.Platform)
	if err != nil {
		return Options{}, "", err
	}
	o = Options{BaseImage: g.BaseImage, Mirror: g.Mirror, Subject: s, NoBuild: g.NoBuild, NoCache: g.NoCache, SourceDateEpoch: epoch, Arch: arch}
	if o.Mirror == "" {
		o.Mirror = DefaultMirror
	}
	if g.PrintKey {
		key, err = CacheKey(o, dir)
		return o, key, err
	}
	if g.CacheDir == "" {
		return o, "", nil
	}
	if err := imagestore.Prepare(g.CacheDir); err != nil {
		return o, "", err
	}
	o.CacheDir = g.CacheDir
	o.CacheKey, err = imagestore.KeyFromEnv(os.Getenv)
	return o, "", err
}
