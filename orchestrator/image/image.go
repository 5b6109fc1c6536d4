package image

import (
	"archive/tar"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path"
	"strings"
	"time"

	"github.com/hale-lang/halebench/orchestrator/engine"
)

// Name says which normaliser made an image; the report records it.
const Name = "halebench repro/1 (engine BuildKit, moby exporter; layers and config rewritten to SOURCE_DATE_EPOCH)"

// LabelEpoch marks an image normalised here, with the epoch it was made for.
const LabelEpoch = "org.halebench.source-date-epoch"

// Engine is what normalising an image needs of the engine.
type ReproEngine interface {
	Save(ctx context.Context, refs ...string) (io.ReadCloser, error)
	Load(ctx context.Context, archive io.Reader) error
}

// Every driver is a ReproEngine.
var _ ReproEngine = engine.Driver(nil)

// Normalise rewrites image src as dst: canonical layers, every time in the
// config set to epoch, labels added. It returns dst's ID (the digest of its
// config), which depends on nothing but the image's contents and epoch.
func Normalise(ctx context.Context, eng ReproEngine, src, dst string, epoch int64, labels map[string]string) (string, error) {
	dir, err := os.MkdirTemp("", "halebench-repro-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	rc, err := eng.Save(ctx, src)
	if err != nil {
		return "", err
	}
	defer rc.Close()
	at := time.Unix(epoch, 0).UTC()
	saved, err := readSaved(rc, dir, at, src, newBudget())
	if err != nil {
		return "", err
	}
	layers, links, jsons := saved.layers, saved.links, saved.jsons
	var manifest []struct {
		Config string
		Layers []string
	}
	if err := json.Unmarshal(jsons["manifest.json"], &manifest); err != nil || len(manifest) != 1 {
		return "", fmt.Errorf("the saved image %s has no single manifest (%v)", src, err)
	}
	var files []layerFile
	for _, l := range manifest[0].Layers {
		lf, ok := layers[l]
		if t, link := links[l]; link {
			lf, ok = layers[t]
		}
		if !ok {
			return "", fmt.Errorf("the saved image %s lacks its layer %s", src, l)
		}
		files = append(files, lf)
	}
	cfg, ok := jsons[manifest[0].Config]
	if !ok {
		return "", fmt.Errorf("the saved image %s lacks its config %s", src, manifest[0].Config)
	}
	newCfg, err := rewriteConfig(cfg, files, at, labels)
	if err != nil {
		return "", fmt.Errorf("image %s: %w", src, err)
	}
	return load(ctx, eng, newCfg, files, dst)
}

// saved is an image archive as `docker save` writes it, its layers
// normalised into files on the way.
type saved struct {
	layers map[string]layerFile // archive path → normalised layer
	links  map[string]string    // archive path → the path it links to
	jsons  map[string][]byte
}

// readSaved reads a saved image archive, normalising each layer into dir.
func readSaved(r io.Reader, dir string, at time.Time, src string, b *budget) (saved, error) {
	s := saved{layers: map[string]layerFile{}, links: map[string]string{}, jsons: map[string][]byte{}}
	tr := tar.NewReader(r)
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			return s, nil
		}
		if err != nil {
			return s, fmt.Errorf("reading the saved image %s: %w", src, err)
		}
		switch {
		case hdr.Typeflag == tar.TypeSymlink:
			s.links[hdr.Name] = path.Join(path.Dir(hdr.Name), hdr.Linkname)
		case strings.HasSuffix(hdr.Name, ".tar") && hdr.Typeflag == tar.TypeReg:
			p, id, err := normaliseLayer(tr, dir, at, b)
			if err != nil {
				return s, fmt.Errorf("image %s, layer %s: %w", src, hdr.Name, err)
			}
			s.layers[hdr.Name] = layerFile{path: p, diffID: id}
		case strings.HasSuffix(hdr.Name, ".json") && hdr.Typeflag == tar.TypeReg:
			data, err := io.ReadAll(io.TeeReader(tr, b)) // held in memory: counted too
			if err != nil {
				return s, fmt.Errorf("image %s, %s: %w", src, hdr.Name, err)
			}
			s.jsons[hdr.Name] = data
		}
	}
}

// Config is what an image made from a root filesystem runs with.
type Config struct {
	Env    []string
	Cmd    []string
	Labels map[string]string
	// CreatedBy is the history's one line ("": made by mmdebstrap).
	CreatedBy string
	// Arch is the architecture the config names ("": amd64): `docker
	// import --platform` does not set it on every engine, so halebench
	// writes the config itself.
	Arch string
}

// FromRootfs loads a root filesystem tarball as the one-layer image dst,
// canonically, with every time set to epoch, and returns its ID.
func FromRootfs(ctx context.Context, eng ReproEngine, rootfs io.Reader, dst string, epoch int64, c Config) (string, error) {
	dir, err := os.MkdirTemp("", "halebench-repro-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	at := time.Unix(epoch, 0).UTC()
	p, id, err := normaliseLayer(rootfs, dir, at, newBudget())
	if err != nil {
		return "", fmt.Errorf("root filesystem for %s: %w", dst, err)
	}
	files := []layerFile{{path: p, diffID: id}}
	if c.CreatedBy == "" {
		c.CreatedBy = "halebench: root filesystem made by mmdebstrap"
	}
	arch := c.Arch
	if arch == "" {
		arch = ArchAMD64
	}
	cfg := map[string]any{
		"architecture": arch,
		"os":           "linux",
		"config":       map[string]any{"Env": c.Env, "Cmd": c.Cmd, "Labels": c.Labels},
		"history":      []any{map[string]any{"created_by": c.CreatedBy}},
	}
	raw, err := json.Marshal(cfg)
	if err != nil {
		return "", err
	}
	newCfg, err := rewriteConfig(raw, files, at, nil)
	if err != nil {
		return "", err
	}
	return load(ctx, eng, newCfg, files, dst)
}

type layerFile struct {
	path   string
	diffID string
}

// rewriteConfig sets the config's times to at, its diff IDs to the
// normalised layers' and adds labels. Keys come out sorted (encoding/json
// sorts maps), so equal inputs give equal bytes.
func rewriteConfig(raw []byte, files []layerFile, at time.Time, labels map[string]string) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var cfg map[string]any
	if err := dec.Decode(&cfg); err != nil {
		return nil, fmt.Errorf("reading its config: %w", err)
	}
	stamp := at.Format(time.RFC3339)
	cfg["created"] = stamp
	if hist, ok := cfg["history"].([]any); ok {
		for _, h := range hist {
			if m, ok := h.(map[string]any); ok {
				m["created"] = stamp
			}
		}
	}
	ids := make([]any, len(files))
	for i, f := range files {
		ids[i] = f.diffID
	}
	cfg["rootfs"] = map[string]any{"type": "layers", "diff_ids": ids}
	// The engine adds these from the build container; they hold its id and times.
	delete(cfg, "container")
	delete(cfg, "container_config")
	if len(labels) > 0 {
		c, _ := cfg["config"].(map[string]any)
		if c == nil {
			c = map[string]any{}
			cfg["config"] = c
		}
		l, _ := c["Labels"].(map[string]any)
		if l == nil {
			l = map[string]any{}
		}
		for k, v := range labels {
			l[k] = v
		}
		c["Labels"] = l
	}
	return json.Marshal(cfg)
}

// load writes a docker archive of one image into the engine, tagged dst.
func load(ctx context.Context, eng ReproEngine, cfg []byte, files []layerFile, dst string) (string, error) {
	sum := sha256.Sum256(cfg)
	id := hex.EncodeToString(sum[:])
	pr, pw := io.Pipe()
	go func() { pw.CloseWithError(writeArchive(pw, id, cfg, files, dst)) }()
	err := eng.Load(ctx, pr)
	pr.CloseWithError(io.ErrClosedPipe)
	if err != nil {
		return "", fmt.Errorf("loading %s: %w", dst, err)
	}
	return "sha256:" + id, nil
}

func writeArchive(w io.Writer, id string, cfg []byte, files []layerFile, dst string) error {
	tw := tar.NewWriter(w)
	add := func(name string, size int64, r io.Reader) error {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: size, Typeflag: tar.TypeReg}); err != nil {
			return err
		}
		_, err := io.Copy(tw, r)
		return err
	}
	var names []string
	for _, f := range files {
		name := "layers/" + strings.TrimPrefix(f.diffID, "sha256:") + ".tar"
		names = append(names, name)
		fh, err := os.Open(f.path)
		if err != nil {
			return err
		}
		st, err := fh.Stat()
		if err == nil {
			err = add(name, st.Size(), fh)
		}
		fh.Close()
		if err != nil {
			return err
		}
	}
	if err := add(id+".json", int64(len(cfg)), bytes.NewReader(cfg)); err != nil {
		return err
	}
	m, _ := json.Marshal([]map[string]any{{"Config": id + ".json", "RepoTags": []string{dst}, "Layers": names}})
	if err := add("manifest.json", int64(len(m)), bytes.NewReader(m)); err != nil {
		return err
	}
	return tw.Close()
}
