package imagestore

import (
	"archive/tar"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/hale-lang/halebench/orchestrator/termtext"
	"io"
	"os"
	"path"
	"regexp"
	"strings"
)

const (
	// MaxEntries caps an archive's entries: an image of some tens of
	// layers has a few per layer.
	MaxEntries = 10000
	// tableCap caps the archive's manifest.json and index.json.
	tableCap = 1 << 20
)

// imageID is an image's config digest as the engine names it.
var imageID = regexp.MustCompile(`^sha256:[0-9a-f]{64}$`)

// layerLink is the one link docker save writes: a layer whose content an
// earlier layer of the archive already holds links to that one.
var layerLink = regexp.MustCompile(`^[0-9a-f]{64}/layer\.tar$`)

// tables are an archive's manifest.json and index.json (nil where absent).
type tables map[string][]byte

// readTables reads an archive's manifest.json and index.json, refusing a
// sparse entry, a device, a link other than docker's own layer links, or
// more than MaxEntries entries.
func readTables(f *os.File) (tables, error) {
	r, err := from0(f)
	if err != nil {
		return nil, err
	}
	t := tables{}
	files, links := map[string]bool{}, map[string]string{}
	tr := tar.NewReader(r)
	for n := 1; ; n++ {
		h, err := tr.Next()
		if err == io.EOF {
			return t, checkLinks(files, links)
		}
		if err != nil {
			return nil, fmt.Errorf("reading it: %w", err)
		}
		if n > MaxEntries {
			return nil, fmt.Errorf("it has more than %d entries", MaxEntries)
		}
		name := archiveName(h.Name)
		if err := checkEntry(h, name); err != nil {
			return nil, err
		}
		if h.Typeflag == tar.TypeSymlink {
			links[name] = path.Join(path.Dir(name), h.Linkname)
		} else {
			files[name] = h.Typeflag == tar.TypeReg
		}
		if name != "manifest.json" && name != "index.json" {
			continue
		}
		if t[name] != nil || h.Size > tableCap {
			return nil, fmt.Errorf("it holds %s twice or over %d bytes", name, tableCap)
		}
		if t[name], err = io.ReadAll(io.LimitReader(tr, tableCap)); err != nil {
			return nil, err
		}
	}
}

// checkLinks wants each layer link to name a regular file of the archive
// (docker save writes them in name order, so the target may come later).
func checkLinks(files map[string]bool, links map[string]string) error {
	for name, target := range links {
		if !files[target] {
			return fmt.Errorf("it holds a link %s → %s, which is not a layer the archive holds", name, target)
		}
	}
	return nil
}

// checkEntry refuses what docker save never writes: sparse files, devices,
// hard links, names that leave the archive, and symbolic links other than
// <layer>/layer.tar → ../<other layer>/layer.tar.
func checkEntry(h *tar.Header, name string) error {
	switch {
	case name == ".." || strings.HasPrefix(name, "../") || path.IsAbs(name):
		return fmt.Errorf("it holds an entry %q outside itself", h.Name)
	case h.Typeflag == tar.TypeGNUSparse || sparsePAX(h):
		return fmt.Errorf("it holds a sparse entry %s", h.Name)
	case h.Typeflag == tar.TypeReg || h.Typeflag == tar.TypeDir:
		return nil
	case h.Typeflag == tar.TypeSymlink:
		target := path.Join(path.Dir(name), h.Linkname)
		if layerLink.MatchString(name) && layerLink.MatchString(target) && strings.HasPrefix(h.Linkname, "../") && target != name {
			return nil
		}
		return fmt.Errorf("it holds a link %s → %s that is not one layer's link to an earlier one", h.Name, h.Linkname)
	}
	return fmt.Errorf("it holds %s of type %q (only files, folders and layer links are taken)", h.Name, h.Typeflag)
}

// sparsePAX says whether h is a PAX-format sparse file (GNU.sparse.*).
func sparsePAX(h *tar.Header) bool {
	for k := range h.PAXRecords {
		if strings.HasPrefix(k, "GNU.sparse.") {
			return true
		}
	}
	return false
}

func archiveName(name string) string { return path.Clean(strings.TrimPrefix(name, "./")) }

// retag checks an archive's manifest.json against images (reference →
// digest: each image it holds must be listed, each tag it gives an image
// must be listed for that image, each listed image must be held) and
// returns it with every tag moved to renamed[tag].
func retag(data []byte, images, renamed map[string]string) ([]byte, error) {
	if data == nil {
		return nil, errors.New("it has no manifest.json")
	}
	var entries []map[string]json.RawMessage
	if err := json.Unmarshal(data, &entries); err != nil {
		return nil, fmt.Errorf("its manifest.json: %w", err)
	}
	held := map[string]bool{}
	for _, e := range entries {
		id, moved, err := retagEntry(e, images, renamed)
		if err != nil {
			return nil, err
		}
		e["RepoTags"], _ = json.Marshal(moved)
		held[id] = true
	}
	for _, ref := range sortedKeys(images) {
		if !held[images[ref]] {
			return nil, fmt.Errorf("it does not hold image %s (%s) that is expected", ref, images[ref])
		}
	}
	return json.Marshal(entries)
}

func retagEntry(e map[string]json.RawMessage, images, renamed map[string]string) (string, []string, error) {
	var cfg string
	var tags []string
	if err := json.Unmarshal(e["Config"], &cfg); err != nil {
		return "", nil, fmt.Errorf("its manifest.json names no image config: %w", err)
	}
	if e["RepoTags"] != nil {
		if err := json.Unmarshal(e["RepoTags"], &tags); err != nil {
			return "", nil, fmt.Errorf("its manifest.json: RepoTags: %w", err)
		}
	}
	id := "sha256:" + strings.TrimSuffix(path.Base(cfg), ".json")
	if !imageID.MatchString(id) || !hasValue(images, id) {
		return "", nil, fmt.Errorf("it holds image %s, which is not expected", cfg)
	}
	moved := make([]string, 0, len(tags))
	for _, tag := range tags {
		if images[tag] != id {
			return "", nil, fmt.Errorf("it tags image %s as %s, which is not expected for it (loading it would move that tag on this engine)", termtext.Clip(id, 19), tag)
		}
		moved = append(moved, renamed[tag])
	}
	return id, moved, nil
}

// checkIndex refuses an OCI index.json that names an image not expected
// (it is not loaded, but it must not disagree).
func checkIndex(data []byte, images map[string]string) error {
	if data == nil {
		return nil
	}
	var idx struct {
		Manifests []struct {
			Annotations map[string]string `json:"annotations"`
		} `json:"manifests"`
	}
	if err := json.Unmarshal(data, &idx); err != nil {
		return fmt.Errorf("its index.json: %w", err)
	}
	for _, d := range idx.Manifests {
		for _, k := range []string{"io.containerd.image.name", "org.opencontainers.image.ref.name"} {
			v := strings.TrimPrefix(d.Annotations[k], "docker.io/")
			if strings.ContainsAny(v, "/:") {
				if _, ok := images[v]; !ok {
					return fmt.Errorf("its index.json names %s, which is not expected", v)
				}
			}
		}
	}
	return nil
}

func hasValue(m map[string]string, v string) bool {
	for _, x := range m {
		if x == v {
			return true
		}
	}
	return false
}
