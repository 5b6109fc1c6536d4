package image

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hale-lang/halebench/orchestrator/hostfile"
)

// Own builds halebench's own image from a checkout (its root Dockerfile and
// the checkout as the context, less what .dockerignore leaves out), FROM the
// base, pinned and normalised like every other image, and tags it tag.
func (b *Builder) Own(ctx context.Context, dir, tag string) (Toolchain, error) {
	tc := Toolchain{Lang: "halebench"}
	base, err := b.Base(ctx)
	if err != nil {
		return tc, err
	}
	df, err := hostfile.Read(dir, "Dockerfile", ownCap)
	if err != nil {
		return tc, fmt.Errorf("halebench's own image: %w (run it from a halebench checkout)", err)
	}
	sum, err := contextDigest(dir)
	if err != nil {
		return tc, fmt.Errorf("halebench's own image: reading %s: %w", dir, err)
	}
	tc.Base = base.Ref + "@" + base.ID
	img := image{repo: b.opts.Prefix + "/self", key: inputsDigest(base.ID, string(df), sum, b.epochString()),
		contextDir: dir, dfDir: dir, args: map[string]string{"BASE": base.Ref},
		in:   &Inputs{DockerfileSHA256: sha256Hex(df), BaseDigest: base.ID, Files: map[string]string{"build context": sum}},
		what: "halebench image", parent: base.layers, parentWhy: parentWhy(base.Ref, base.Provenance)}
	img.prepare = b.pinPackages(ctx, base, df, "halebench", img.what, img.args)
	if err := b.buildOrFind(ctx, &tc, img); err != nil {
		return tc, err
	}
	ref := img.ref()
	if tag != "" {
		if err := b.eng.Tag(ctx, ref, tag); err != nil {
			return tc, err
		}
	}
	return tc, nil
}

// ownCap bounds each file of a checkout read for halebench's own image.
const ownCap = 1 << 30

// contextDigest hashes the content of every file a build of dir sees: all
// but the top-level entries .dockerignore names (one name a line, the form
// this repository's file uses).
func contextDigest(dir string) (string, error) {
	skip := map[string]bool{".git": true}
	if data, err := hostfile.Read(dir, ".dockerignore", ownCap); err == nil {
		for _, l := range strings.Split(string(data), "\n") {
			if l = strings.Trim(strings.TrimSpace(l), "/"); l != "" && !strings.HasPrefix(l, "#") {
				skip[l] = true
			}
		}
	}
	var paths []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if skip[filepath.ToSlash(rel)] {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() {
			paths = append(paths, rel)
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	sort.Strings(paths)
	h := sha256.New()
	for _, rel := range paths {
		f, err := hostfile.Open(dir, rel, ownCap)
		if err != nil {
			return "", err
		}
		fh := sha256.New()
		_, err = io.Copy(fh, hostfile.LimitReader(f, ownCap))
		f.Close()
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s %x\n", filepath.ToSlash(rel), fh.Sum(nil))
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
