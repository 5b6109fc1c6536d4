package image

import (
	"archive/tar"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"path"
	"sort"
	"strings"
)

// Files lists what an image's filesystem holds: path → a digest of the
// entry's type, mode, owner, mtime, link and content, later layers over
// earlier ones (whiteouts remove). For telling two builds apart.
func Files(ctx context.Context, eng ReproEngine, ref string) (map[string]string, error) {
	rc, err := eng.Save(ctx, ref)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	perLayer := map[string]map[string]string{}
	var manifestData []byte
	tr := tar.NewReader(rc)
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("reading the saved image %s: %w", ref, err)
		}
		switch {
		case hdr.Name == "manifest.json":
			if manifestData, err = io.ReadAll(tr); err != nil {
				return nil, err
			}
		case strings.HasSuffix(hdr.Name, ".tar") && hdr.Typeflag == tar.TypeReg:
			m, err := layerFiles(tr)
			if err != nil {
				return nil, fmt.Errorf("image %s, layer %s: %w", ref, hdr.Name, err)
			}
			perLayer[hdr.Name] = m
		}
	}
	var manifest []struct{ Layers []string }
	if err := json.Unmarshal(manifestData, &manifest); err != nil || len(manifest) != 1 {
		return nil, fmt.Errorf("the saved image %s has no single manifest (%v)", ref, err)
	}
	files := map[string]string{}
	for _, l := range manifest[0].Layers {
		for p, d := range perLayer[l] {
			dir, base := path.Split(p)
			switch {
			case base == ".wh..wh..opq":
				for q := range files {
					if strings.HasPrefix(q, dir) {
						delete(files, q)
					}
				}
			case strings.HasPrefix(base, ".wh."):
				gone := dir + strings.TrimPrefix(base, ".wh.")
				for q := range files {
					if q == gone || strings.HasPrefix(q, gone+"/") {
						delete(files, q)
					}
				}
			default:
				files[p] = d
			}
		}
	}
	return files, nil
}

func layerFiles(r io.Reader) (map[string]string, error) {
	m := map[string]string{}
	tr := tar.NewReader(r)
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			return m, nil
		}
		if err != nil {
			return nil, err
		}
		h := sha256.New()
		fmt.Fprintf(h, "%c %o %d:%d %d %s\n", hdr.Typeflag, hdr.Mode, hdr.Uid, hdr.Gid, hdr.ModTime.Unix(), hdr.Linkname)
		if _, err := io.Copy(h, tr); err != nil {
			return nil, err
		}
		m[strings.TrimSuffix(path.Clean("/"+hdr.Name), "/")] = hex.EncodeToString(h.Sum(nil))[:16]
	}
}

// DiffFiles names the paths that differ between two listings, sorted, at
// most max of them, and how many differ in all.
func DiffFiles(a, b map[string]string, max int) ([]string, int) {
	var diff []string
	for p, d := range a {
		if e, ok := b[p]; !ok {
			diff = append(diff, p+" (only in the recorded image)")
		} else if e != d {
			diff = append(diff, p)
		}
	}
	for p := range b {
		if _, ok := a[p]; !ok {
			diff = append(diff, p+" (only in the rebuilt image)")
		}
	}
	sort.Strings(diff)
	n := len(diff)
	if len(diff) > max {
		diff = diff[:max]
	}
	return diff, n
}
