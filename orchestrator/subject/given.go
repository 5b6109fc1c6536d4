// A Build as a verb's --hale-* flags give it: checked before any engine is
// asked, defaulted beside the suite, made into the verb's image options.

package subject

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hale-lang/halebench/orchestrator/image"
)

// Check refuses, before the engine is asked, a hale input given by flag
// that is not there: Src (--hale-src) and Vendor (--hale-vendor) must be
// folders, and Git (--hale-git) a folder unless it is a URL.
func (b Build) Check() error {
	dirs := []struct{ flag, path string }{{"--hale-src", b.Src}, {"--hale-vendor", b.Vendor}}
	if b.Git != "" && !strings.Contains(b.Git, "://") && !strings.Contains(b.Git, "@") {
		dirs = append(dirs, struct{ flag, path string }{"--hale-git", b.Git})
	}
	for _, d := range dirs {
		if d.path == "" {
			continue
		}
		fi, err := os.Stat(d.path)
		switch {
		case err != nil:
			return fmt.Errorf("%s=%s: %w (give an existing folder)", d.flag, d.path, err)
		case !fi.IsDir():
			return fmt.Errorf("%s=%s is not a folder", d.flag, d.path)
		}
	}
	if b.Image != "" {
		return image.CheckRef("--hale-image", b.Image)
	}
	return nil
}

// Defaulted is b with ../hale beside the suite in dir as its source tree
// (SrcDefault) when it names no tree, no image and no repository.
func (b Build) Defaulted(dir string) Build {
	if b.Src == "" && b.Image == "" && b.Git == "" {
		b.Src, b.SrcDefault = filepath.Join(dir, "..", "hale"), true
	}
	return b
}

// ImageOptions are a verb's image options: g's (image.Given.Options, key
// included) with b, checked first, then defaulted beside the suite in dir,
// as the subject build. Its errors are all the user's to fix.
func (b Build) ImageOptions(g image.Given, dir string) (image.Options, string, error) {
	if err := b.Check(); err != nil {
		return image.Options{}, "", err
	}
	return g.Options(b.Defaulted(dir), dir)
}
