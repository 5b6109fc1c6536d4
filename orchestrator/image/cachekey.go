package image

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/hale-lang/halebench/images"
	"github.com/hale-lang/halebench/orchestrator/suite"
)

// maxKeyedFile caps a bench source read into the cache key.
const maxKeyedFile = 4 << 20

// CacheKey is the key a CI cache step stores a cache folder under: a digest,
// computed without the engine, of what every image of a run with o on the
// suite in dir is made from — halebench's image definitions (images/), the
// benches' sources, the epoch, the mirror and the hale inputs. When it is unchanged,
// a folder restored under it holds every image the run needs; when it
// changes, a folder restored from an older key still serves the images whose
// own inputs did not change (each image's entry is named and checked by its
// own inputs digest, never by this key). v2 is the layered folder: a CI
// cache saved under a v1 key (one archive per image) is not hit exactly, so
// the folder the run rewrites is saved anew.
func CacheKey(o Options, dir string) (string, error) {
	parts := []string{"halebench-cache-v2", builderName(), fmt.Sprint(o.SourceDateEpoch), o.Mirror, o.BaseImage}
	if o.Arch != "" && o.Arch != ArchAMD64 {
		parts = append(parts, "arch", o.Arch) // amd64's key is the one it always was
	}
	if o.Subject != nil {
		parts = append(parts, o.Subject.CacheKey()...)
	} else {
		parts = append(parts, noSubjectKey...)
	}
	err := fs.WalkDir(images.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := images.FS.ReadFile(p)
		parts = append(parts, p, sha256Hex(data))
		return err
	})
	if err != nil {
		return "", err
	}
	layout, err := suite.FindLayout(dir)
	if err != nil {
		return "", fmt.Errorf("cache key: %w", err)
	}
	for _, in := range layout.Inputs(dir) {
		d, err := treeDigest(in)
		if err != nil {
			return "", fmt.Errorf("cache key: reading %s: %w", in, err)
		}
		if layout == suite.LayoutSeed { // several inputs: each named (benches/'s key stays as it was)
			parts = append(parts, filepath.Base(in))
		}
		parts = append(parts, d)
	}
	return inputsDigest(parts...), nil
}

// treeDigest digests the names and contents of the regular files under
// root (links and other files are named, not followed).
func treeDigest(root string) (string, error) {
	h := sha256.New()
	var paths []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			paths = append(paths, p)
		}
		return err
	})
	if err != nil {
		return "", err
	}
	sort.Strings(paths)
	for _, p := range paths {
		rel, _ := filepath.Rel(root, p)
		st, err := os.Lstat(p)
		if err != nil {
			return "", err
		}
		if !st.Mode().IsRegular() || st.Size() > maxKeyedFile {
			fmt.Fprintf(h, "%s %s %d\n", rel, st.Mode().Type(), st.Size())
			continue
		}
		f, err := OpenSource(p)
		if err != nil {
			return "", err
		}
		c := sha256.New()
		_, err = io.Copy(c, io.LimitReader(f, maxKeyedFile))
		f.Close()
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s %x\n", rel, c.Sum(nil))
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
