package enginetest

import (
	"archive/tar"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"
	"time"
)

// The fake's bounds on an archive it loads: it holds what it loads in
// memory, and the images of a test are small.
const (
	maxEntries = 10000
	maxLayer   = 256 << 20 // one layer tar, or one imported root filesystem
	maxArchive = 1 << 30   // everything one archive holds
	maxTable   = 16 << 20  // manifest.json or one image config
)

// manifestEntry is one image of a docker-save archive's manifest.json.
type manifestEntry struct {
	Config   string
	RepoTags []string
	Layers   []string
}

// Save writes the images refs name as docker save (Docker 20.10) does:
// each image's config as <id>.json, each layer once as <diff id>/layer.tar
// (uncompressed), and manifest.json last, naming for each image the refs
// given that are its tags (none when it was named by ID). A ref that
// names nothing fails before anything is written.
func (f *Engine) Save(_ context.Context, refs ...string) (io.ReadCloser, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var order []*fakeImage
	tagged := map[string][]string{}
	for _, ref := range refs {
		im := f.lookup(ref)
		if im == nil {
			return nil, fmt.Errorf("saving images %v: %w", refs, notFound{ref})
		}
		if _, seen := tagged[im.id]; !seen {
			order = append(order, im)
			tagged[im.id] = []string{}
		}
		if _, isTag := f.tags[ref]; isTag {
			tagged[im.id] = append(tagged[im.id], ref)
		}
	}
	var buf bytes.Buffer
	if err := f.writeArchive(&buf, order, tagged); err != nil {
		return nil, fmt.Errorf("saving images %v: %w", refs, err)
	}
	return io.NopCloser(&buf), nil
}

// writeArchive writes images as a docker-save archive. f.mu is held.
func (f *Engine) writeArchive(w io.Writer, images []*fakeImage, tags map[string][]string) error {
	tw := tar.NewWriter(w)
	file := func(name string, data []byte) error {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(data)), ModTime: time.Unix(0, 0), Typeflag: tar.TypeReg}); err != nil {
			return err
		}
		_, err := tw.Write(data)
		return err
	}
	written := map[string]bool{}
	var manifest []manifestEntry
	for _, im := range images {
		hexID := strings.TrimPrefix(im.id, "sha256:")
		if err := file(hexID+".json", im.config); err != nil {
			return err
		}
		e := manifestEntry{Config: hexID + ".json", RepoTags: tags[im.id], Layers: []string{}}
		for _, l := range im.layers {
			name := strings.TrimPrefix(l, "sha256:") + "/layer.tar"
			e.Layers = append(e.Layers, name)
			if written[l] {
				continue
			}
			written[l] = true
			if err := tw.WriteHeader(&tar.Header{Name: path.Dir(name) + "/", Mode: 0o755, ModTime: time.Unix(0, 0), Typeflag: tar.TypeDir}); err != nil {
				return err
			}
			if err := file(name, f.layers[l]); err != nil {
				return err
			}
		}
		manifest = append(manifest, e)
	}
	m, _ := json.Marshal(manifest) // strings and slices of them always marshal
	if err := file("manifest.json", m); err != nil {
		return err
	}
	return tw.Close()
}

// loaded is an archive the fake read: its files by name (links followed
// when asked for) and its manifest.
type loaded struct {
	files    map[string][]byte
	links    map[string]string // name → the name it links to
	manifest []manifestEntry
}

// Load reads a docker-save archive (as Save writes it, or as halebench's
// image package and cache folder assemble it) and stores each image it
// names under its config's digest with its RepoTags. It refuses, storing
// nothing, an archive that is not one: no manifest.json, an entry other
// than a file, a folder or a layer link, a name outside the archive, a
// config or layer missing, a layer whose sha256 is not the diff ID its
// config names (unless the fake holds that layer already: an engine reads
// no layer it holds, which the cache folder's restore relies on), or more
// than the fake's bounds.
func (f *Engine) Load(_ context.Context, archive io.Reader) error {
	a, err := readArchive(archive)
	if err != nil {
		return fmt.Errorf("loading an image archive: %w", err)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	images, layers, err := f.checkArchive(a)
	if err != nil {
		return fmt.Errorf("loading an image archive: %w", err)
	}
	for _, l := range layers {
		f.putLayer(l)
	}
	for i, im := range images {
		f.keep(im, a.manifest[i].RepoTags...)
	}
	return nil
}

// readArchive reads a whole archive into memory, within the fake's bounds.
func readArchive(r io.Reader) (*loaded, error) {
	a := &loaded{files: map[string][]byte{}, links: map[string]string{}}
	tr := tar.NewReader(io.LimitReader(r, maxArchive+1))
	var total int64
	for n := 1; ; n++ {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("it is not a tar archive: %w", err)
		}
		name := path.Clean(strings.TrimPrefix(h.Name, "./"))
		switch {
		case n > maxEntries:
			return nil, fmt.Errorf("it has over %d entries", maxEntries)
		case name == ".." || strings.HasPrefix(name, "../") || path.IsAbs(name):
			return nil, fmt.Errorf("it holds an entry %q outside itself", h.Name)
		case h.Typeflag == tar.TypeDir:
		case h.Typeflag == tar.TypeSymlink:
			a.links[name] = path.Join(path.Dir(name), h.Linkname)
		case h.Typeflag != tar.TypeReg:
			return nil, fmt.Errorf("it holds %s of type %q: a docker-save archive holds files, folders and layer links", h.Name, h.Typeflag)
		case h.Size > maxLayer || total+h.Size > maxArchive:
			return nil, fmt.Errorf("%s takes it over the fake's bounds (%d MiB a file, %d MiB in all)", h.Name, maxLayer>>20, maxArchive>>20)
		default:
			data, err := io.ReadAll(tr)
			if err != nil {
				return nil, fmt.Errorf("reading %s: %w", h.Name, err)
			}
			a.files[name], total = data, total+int64(len(data))
		}
	}
	raw, ok := a.files["manifest.json"]
	if !ok {
		return nil, errors.New("it has no manifest.json (is it a docker-save archive?)")
	}
	if err := json.Unmarshal(raw, &a.manifest); err != nil || len(a.manifest) == 0 {
		return nil, fmt.Errorf("its manifest.json names no image (%v)", err)
	}
	return a, nil
}

// file is the archive's file name, through at most a few links.
func (a *loaded) file(name string) ([]byte, bool) {
	name = path.Clean(name)
	for hops := 0; hops < 4; hops++ {
		if data, ok := a.files[name]; ok {
			return data, true
		}
		target, ok := a.links[name]
		if !ok {
			break
		}
		name = target
	}
	return nil, false
}

// checkArchive reads each image the manifest names: its config, and each
// layer the fake does not hold, checked against its diff ID and as a tar.
// It returns the images, in manifest order, and the layers to store.
// f.mu is held.
func (f *Engine) checkArchive(a *loaded) ([]*fakeImage, [][]byte, error) {
	var images []*fakeImage
	var layers [][]byte
	for _, e := range a.manifest {
		raw, ok := a.file(e.Config)
		if !ok || len(raw) > maxTable {
			return nil, nil, fmt.Errorf("its manifest names a config %q it does not hold", e.Config)
		}
		im, err := readConfig(raw)
		if err != nil {
			return nil, nil, fmt.Errorf("config %s: %w", e.Config, err)
		}
		if len(e.Layers) != len(im.layers) {
			return nil, nil, fmt.Errorf("its manifest names %d layers for %s, its config %d", len(e.Layers), e.Config, len(im.layers))
		}
		for _, tag := range e.RepoTags {
			if tag == "" || strings.ContainsAny(tag, " \t\n@") {
				return nil, nil, fmt.Errorf("it tags %s as %q, which is no image reference", e.Config, tag)
			}
		}
		for i, name := range e.Layers {
			if _, held := f.layers[im.layers[i]]; held {
				continue
			}
			data, ok := a.file(name)
			if !ok {
				return nil, nil, fmt.Errorf("it lacks the layer %s of %s", name, e.Config)
			}
			if got := digestOf(data); got != im.layers[i] {
				return nil, nil, fmt.Errorf("its layer %s has the digest %s, its config names %s", name, got, im.layers[i])
			}
			if err := checkTar(data); err != nil {
				return nil, nil, fmt.Errorf("its layer %s: %w", name, err)
			}
			layers = append(layers, data)
		}
		images = append(images, im)
	}
	return images, layers, nil
}

// checkTar wants data to be a whole tar stream.
func checkTar(data []byte) error {
	tr := tar.NewReader(bytes.NewReader(data))
	for {
		_, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("it is not a tar: %w", err)
		}
	}
}
