package imagestore

import (
	"archive/tar"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path"
	"slices"
	"strings"

	"github.com/hale-lang/halebench/orchestrator/engine"
)

// smallFile is the size under which a file of a saved archive is held in
// memory until its manifest says whether it is the config or a layer
// (docker save also writes a json and VERSION per layer, kept by no one).
const (
	smallFile = 1 << 20
	maxSmall  = 64 << 20 // past this much, small files are stored as blobs at once
)

// saved is what split read of one docker save stream, by name inside it.
type saved struct {
	blobs    map[string]Blob   // large files, already stored
	small    map[string][]byte // small ones, stored when named
	links    map[string]string // docker's layer links, name → target
	manifest []byte
}

// split saves the image ref (img) from the engine and stores its config and
// layer tars as blobs, each under its sha256; it returns them as the
// archive's manifest.json names them. The config must have the image's
// digest and name its layers.
func (c *Cache) split(ctx context.Context, b *blobs, ref string, img engine.Image) (Blob, []Blob, error) {
	rc, err := c.eng.Save(ctx, ref)
	if err != nil {
		return Blob{}, nil, err
	}
	defer rc.Close()
	s, err := readSaved(b, rc)
	if err != nil {
		return Blob{}, nil, fmt.Errorf("reading the engine's archive: %w", err)
	}
	var m []struct {
		Config string
		Layers []string
	}
	if err := json.Unmarshal(s.manifest, &m); err != nil || len(m) != 1 {
		return Blob{}, nil, fmt.Errorf("the engine's archive has no manifest.json of one image (%v)", err)
	}
	cfgData, ok := s.small[path.Clean(m[0].Config)]
	if !ok {
		return Blob{}, nil, fmt.Errorf("the engine's archive holds no config %s", m[0].Config)
	}
	if err := checkConfig(cfgData, img.ID, img.Layers); err != nil {
		return Blob{}, nil, err
	}
	cfg, err := b.put(bytes.NewReader(cfgData), maxConfig)
	if err != nil {
		return Blob{}, nil, err
	}
	layers := make([]Blob, len(m[0].Layers))
	for i, name := range m[0].Layers {
		if layers[i], err = s.blob(b, name); err != nil {
			return Blob{}, nil, err
		}
	}
	if len(layers) != len(img.Layers) {
		return Blob{}, nil, fmt.Errorf("the engine's archive holds %d layers, the image %d", len(layers), len(img.Layers))
	}
	return cfg, layers, nil
}

// blob is the blob of the archive's file name, following docker's layer
// links (stored now when it was held in memory).
func (s *saved) blob(b *blobs, name string) (Blob, error) {
	name = path.Clean(name)
	for hops := 0; hops < 4; hops++ {
		if bl, ok := s.blobs[name]; ok {
			return bl, nil
		}
		if data, ok := s.small[name]; ok {
			return b.put(bytes.NewReader(data), smallFile)
		}
		target, ok := s.links[name]
		if !ok {
			break
		}
		name = target
	}
	return Blob{}, fmt.Errorf("the engine's archive holds no layer %s", name)
}

// readSaved reads a docker save stream: files, folders and layer links
// only, at most MaxEntries entries, nothing outside itself.
func readSaved(b *blobs, r io.Reader) (*saved, error) {
	s := &saved{blobs: map[string]Blob{}, small: map[string][]byte{}, links: map[string]string{}}
	tr := tar.NewReader(r)
	var held int64
	for n := 1; ; n++ {
		h, err := tr.Next()
		if err == io.EOF {
			if s.manifest == nil {
				return nil, errors.New("it has no manifest.json")
			}
			return s, nil
		}
		if err != nil {
			return nil, err
		}
		name := path.Clean(strings.TrimPrefix(h.Name, "./"))
		switch {
		case n > MaxEntries:
			return nil, fmt.Errorf("it has more than %d entries", MaxEntries)
		case name == ".." || strings.HasPrefix(name, "../") || path.IsAbs(name):
			return nil, fmt.Errorf("it holds an entry %q outside itself", h.Name)
		case h.Typeflag == tar.TypeDir:
		case h.Typeflag == tar.TypeSymlink:
			s.links[name] = path.Join(path.Dir(name), h.Linkname)
		case h.Typeflag != tar.TypeReg:
			return nil, fmt.Errorf("it holds %s of type %q", h.Name, h.Typeflag)
		case name == "manifest.json":
			s.manifest, err = io.ReadAll(io.LimitReader(tr, smallFile))
		case h.Size <= smallFile && held+h.Size <= maxSmall:
			s.small[name], err = io.ReadAll(io.LimitReader(tr, smallFile))
			held += int64(len(s.small[name]))
		default:
			s.blobs[name], err = b.put(tr, MaxBlob)
		}
		if err != nil {
			return nil, err
		}
	}
}

// checkConfig wants data to be the config of the image id: its sha256 is
// id, and its rootfs names exactly layers.
func checkConfig(data []byte, id string, layers []string) error {
	if got := "sha256:" + sha256Hex(data); got != id {
		return fmt.Errorf("the config's digest is %s, not the image's %s", got[:23], id[:min(23, len(id))])
	}
	var cfg struct {
		RootFS struct {
			DiffIDs []string `json:"diff_ids"`
		} `json:"rootfs"`
	}
	if err := json.Unmarshal(data, &cfg); err != nil {
		return fmt.Errorf("the image's config: %w", err)
	}
	if !slices.Equal(cfg.RootFS.DiffIDs, layers) {
		return fmt.Errorf("the image's config names %d layers that are not the %d its entry lists", len(cfg.RootFS.DiffIDs), len(layers))
	}
	return nil
}
