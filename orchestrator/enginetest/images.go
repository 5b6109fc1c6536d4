package enginetest

import (
	"archive/tar"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"time"
)

// configSpec is what the fake writes into an image config it makes.
type configSpec struct {
	arch      string            // "": amd64
	env       []string          // the config's Env
	labels    map[string]string // the config's Labels
	volumes   []string          // the config's Volumes
	layers    []string          // diff IDs, bottom first
	createdBy string            // the history's one line: what made it
}

// imageConfig is what the fake reads back out of an image config (one it
// made, or one an archive brought).
type imageConfig struct {
	Architecture string `json:"architecture"`
	OS           string `json:"os"`
	Config       struct {
		Env     []string            `json:"Env"`
		Labels  map[string]string   `json:"Labels"`
		Volumes map[string]struct{} `json:"Volumes"`
	} `json:"config"`
	RootFS struct {
		Type    string   `json:"type"`
		DiffIDs []string `json:"diff_ids"`
	} `json:"rootfs"`
}

// newImage makes the image config c describes, in the shape an engine
// stores (keys sorted, so the same c gives the same bytes and ID), and
// the image it is the config of. Its time is the Unix epoch: the fake
// stamps no wall clock into an image, so identical builds are identical.
func newImage(c configSpec) *fakeImage {
	if c.arch == "" {
		c.arch = "amd64"
	}
	vols := map[string]any{}
	for _, v := range c.volumes {
		vols[v] = map[string]any{}
	}
	inner := map[string]any{"Env": c.env, "Labels": c.labels}
	if len(vols) > 0 {
		inner["Volumes"] = vols
	}
	stamp := time.Unix(0, 0).UTC().Format(time.RFC3339)
	cfg := map[string]any{
		"architecture": c.arch, "os": "linux", "created": stamp, "config": inner,
		"rootfs":  map[string]any{"type": "layers", "diff_ids": nonNil(c.layers)},
		"history": []any{map[string]any{"created": stamp, "created_by": c.createdBy}},
	}
	raw, _ := json.Marshal(cfg) // maps, strings and slices of them always marshal
	return &fakeImage{id: digestOf(raw), config: raw, layers: slices.Clone(c.layers), arch: c.arch,
		labels: c.labels, volumes: slices.Clone(c.volumes)}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// readConfig reads an image config an archive brought: its ID is the
// digest of these bytes, its layers are those its rootfs names.
func readConfig(raw []byte) (*fakeImage, error) {
	var c imageConfig
	if err := json.Unmarshal(raw, &c); err != nil {
		return nil, fmt.Errorf("its image config is not JSON: %w", err)
	}
	if c.RootFS.Type != "layers" {
		return nil, fmt.Errorf("its image config's rootfs is of type %q, not layers", c.RootFS.Type)
	}
	for _, d := range c.RootFS.DiffIDs {
		if !isDigest(d) {
			return nil, fmt.Errorf("its image config names a layer %q that is not a sha256 digest", d)
		}
	}
	im := &fakeImage{id: digestOf(raw), config: slices.Clone(raw), layers: c.RootFS.DiffIDs, arch: c.Architecture, labels: c.Config.Labels}
	im.volumes = slices.Sorted(maps.Keys(c.Config.Volumes))
	return im, nil
}

// keep puts im into the store (an image of the same ID already there stays,
// as an engine keeps one image per config) under refs, as made now, and
// returns the stored image. f.mu is held.
func (f *Engine) keep(im *fakeImage, refs ...string) *fakeImage {
	if f.images == nil {
		f.images, f.tags = map[string]*fakeImage{}, map[string]string{}
	}
	if old, ok := f.images[im.id]; ok {
		im = old
	} else {
		for _, l := range im.layers {
			im.size += int64(len(f.layers[l]))
		}
		f.images[im.id] = im
	}
	f.ticks++
	im.madeAt = f.now()
	for _, ref := range refs {
		f.tags[ref] = im.id
	}
	return im
}

// putLayer stores a layer tar under its diff ID (the sha256 of the tar)
// and returns that. f.mu is held.
func (f *Engine) putLayer(tarball []byte) string {
	if f.layers == nil {
		f.layers = map[string][]byte{}
	}
	id := digestOf(tarball)
	f.layers[id] = tarball
	return id
}

// dropUnusedLayers forgets the layers no stored image holds, as an engine
// removes an image's layers with its last image. f.mu is held.
func (f *Engine) dropUnusedLayers() {
	used := map[string]bool{}
	for _, im := range f.images {
		for _, l := range im.layers {
			used[l] = true
		}
	}
	for l := range f.layers {
		if !used[l] {
			delete(f.layers, l)
		}
	}
}

// markerLayer is a layer of one file, /halebench-fake, saying what made
// it: a real, small, deterministic tar (the same text, the same bytes).
func markerLayer(text string) []byte {
	return tarOf(map[string]string{"halebench-fake": text + "\n"})
}

// tarOf is a tar of files (path → content), in path order, every time the
// Unix epoch, owned by root: the same files give the same bytes. A path
// ending in "/" is a folder.
func tarOf(files map[string]string) []byte {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		h := &tar.Header{Name: name, Mode: 0o644, Size: int64(len(files[name])), ModTime: time.Unix(0, 0), Typeflag: tar.TypeReg}
		if name[len(name)-1] == '/' {
			h.Mode, h.Size, h.Typeflag = 0o755, 0, tar.TypeDir
		}
		tw.WriteHeader(h) // a bytes.Buffer takes every write
		tw.Write([]byte(files[name]))
	}
	tw.Close()
	return buf.Bytes()
}

func digestOf(b []byte) string {
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}

func isDigest(s string) bool {
	hexPart, ok := bytes.CutPrefix([]byte(s), []byte("sha256:"))
	if !ok || len(hexPart) != 64 {
		return false
	}
	_, err := hex.DecodeString(string(hexPart))
	return err == nil && bytes.Equal(bytes.ToLower(hexPart), hexPart)
}
