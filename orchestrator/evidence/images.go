package evidence

import (
	"archive/tar"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"regexp"
	"strings"

	"github.com/hale-lang/halebench/orchestrator/imagebuild"
)

// ReplayPrefix is the repository namespace a replay loads a bundle's images
// under: halebench/<name>:<tag> becomes halebench-replay/<run>/<name>:<tag>,
// so nothing a bundle carries can move a tag this engine already has.
const ReplayPrefix = "halebench-replay"

var (
	// recordedRef is a reference halebench gives an image it builds.
	recordedRef = regexp.MustCompile(`^halebench/([a-z0-9]+(?:[._-][a-z0-9]+)*(?:/[a-z0-9]+(?:[._-][a-z0-9]+)*)*:[A-Za-z0-9_][A-Za-z0-9_.-]{0,127})$`)
	imageID     = regexp.MustCompile(`^sha256:[0-9a-f]{64}$`)
	namespace   = regexp.MustCompile(`^` + ReplayPrefix + `/[a-z0-9]+(?:[._-][a-z0-9]+)*$`)
)

// LoadImages loads the image archive of an unpacked bundle into the engine
// under the namespace ns (ReplayPrefix/<run>) and returns, for each image
// reference the bundle's manifest lists, the reference it was loaded as.
//
// The archive is read before anything is loaded, and refused when it holds
// an image the manifest does not list, tags any image with a reference the
// manifest does not list for it, or is sparse; its tags are rewritten into
// ns (the legacy `repositories` and OCI index.json are left out, so only the
// rewritten manifest.json names anything); a reference in ns that already
// exists is never overwritten. After loading, each image's digest is checked.
func LoadImages(ctx context.Context, eng imagebuild.Engine, m *Manifest, archive, ns string) (map[string]string, error) {
	renamed, err := replayRefs(m.Images, ns)
	if err != nil {
		return nil, err
	}
	tables, err := readTables(archive)
	if err != nil {
		return nil, err
	}
	manifest, err := retag(tables["manifest.json"], m.Images, renamed)
	if err == nil {
		err = checkIndex(tables["index.json"], m.Images)
	}
	if err != nil {
		return nil, fmt.Errorf("the bundle's images.tar: %w: refusing to load it", err)
	}
	for _, ref := range sortedKeys(renamed) {
		if _, ok, err := eng.Image(ctx, renamed[ref]); err != nil || ok {
			return nil, fmt.Errorf("image %s already exists on this engine (%v): a replay never overwrites a tag; remove it or replay again", renamed[ref], err)
		}
	}
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- writeRetagged(pw, archive, manifest) }()
	lerr := eng.Load(ctx, pr)
	pr.CloseWithError(errors.New("the engine stopped reading the archive"))
	if werr := <-done; lerr == nil && werr != nil {
		lerr = fmt.Errorf("rewriting the bundle's images.tar: %w", werr)
	}
	if lerr != nil {
		return nil, lerr
	}
	if err := checkLoaded(ctx, eng, m.Images, renamed); err != nil {
		for _, ref := range renamed {
			_ = eng.RemoveImage(context.WithoutCancel(ctx), ref)
		}
		return nil, err
	}
	return renamed, nil
}

// checkLoaded says whether each image was loaded under its new reference
// with the digest the bundle's manifest records.
func checkLoaded(ctx context.Context, eng imagebuild.Engine, images, renamed map[string]string) error {
	for _, ref := range sortedKeys(renamed) {
		got, ok, err := eng.Image(ctx, renamed[ref])
		if err != nil {
			return err
		}
		if !ok || got.ID != images[ref] {
			return fmt.Errorf("image %s (loaded as %s) has digest %q, the bundle's manifest says %s", ref, renamed[ref], got.ID, images[ref])
		}
	}
	return nil
}

// replayRefs maps each reference of a bundle's manifest into ns, refusing a
// reference halebench would not have made or a digest that is not one.
func replayRefs(images map[string]string, ns string) (map[string]string, error) {
	if !namespace.MatchString(ns) {
		return nil, fmt.Errorf("replay namespace %q is not %s/<lowercase run id>", ns, ReplayPrefix)
	}
	out := map[string]string{}
	for ref, id := range images {
		sub := recordedRef.FindStringSubmatch(ref)
		if sub == nil || !imageID.MatchString(id) {
			return nil, fmt.Errorf("the bundle's manifest lists image %q with digest %q: halebench bundles only halebench/<name>:<tag> images by sha256 digest", ref, id)
		}
		out[ref] = ns + "/" + sub[1]
	}
	return out, nil
}

// tableCap caps the archive's manifest.json and index.json.
const tableCap = 1 << 20

// readTables reads an image archive's manifest.json and index.json (nil
// where absent), refusing a sparse entry or more than MaxBundleEntries.
func readTables(archive string) (map[string][]byte, error) {
	f, err := os.Open(archive)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	tables := map[string][]byte{}
	tr := tar.NewReader(f)
	for n := 1; ; n++ {
		h, err := tr.Next()
		if err == io.EOF {
			return tables, nil
		}
		if err != nil {
			return nil, fmt.Errorf("reading the bundle's images.tar: %w", err)
		}
		name := archiveName(h.Name)
		switch {
		case n > MaxBundleEntries:
			return nil, fmt.Errorf("the bundle's images.tar has more than %d entries: refusing it", MaxBundleEntries)
		case h.Typeflag == tar.TypeGNUSparse || sparsePAX(h):
			return nil, fmt.Errorf("the bundle's images.tar holds a sparse entry %s: refusing it", h.Name)
		case name != "manifest.json" && name != "index.json":
			continue
		case tables[name] != nil || h.Size > tableCap:
			return nil, fmt.Errorf("the bundle's images.tar holds %s twice or over %d bytes: refusing it", name, tableCap)
		}
		if tables[name], err = io.ReadAll(io.LimitReader(tr, tableCap)); err != nil {
			return nil, err
		}
	}
}

func archiveName(name string) string { return path.Clean(strings.TrimPrefix(name, "./")) }

// retag checks an archive's manifest.json against the bundle's images and
// returns it with every tag moved into the replay's namespace.
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
		var cfg string
		var tags []string
		if err := json.Unmarshal(e["Config"], &cfg); err != nil {
			return nil, fmt.Errorf("its manifest.json names no image config: %w", err)
		}
		if e["RepoTags"] != nil {
			if err := json.Unmarshal(e["RepoTags"], &tags); err != nil {
				return nil, fmt.Errorf("its manifest.json: RepoTags: %w", err)
			}
		}
		id := "sha256:" + strings.TrimSuffix(path.Base(cfg), ".json")
		if !imageID.MatchString(id) || !hasValue(images, id) {
			return nil, fmt.Errorf("it holds image %s, which the bundle's manifest does not list", cfg)
		}
		moved := make([]string, 0, len(tags))
		for _, tag := range tags {
			if images[tag] != id {
				return nil, fmt.Errorf("it tags image %s as %s, which the bundle's manifest does not list for it (loading it would move that tag on this engine)", short(id), tag)
			}
			moved = append(moved, renamed[tag])
		}
		e["RepoTags"], _ = json.Marshal(moved)
		held[id] = true
	}
	for _, ref := range sortedKeys(images) {
		if !held[images[ref]] {
			return nil, fmt.Errorf("it does not hold image %s (%s) that the bundle's manifest lists", ref, images[ref])
		}
	}
	return json.Marshal(entries)
}

func hasValue(m map[string]string, v string) bool {
	for _, x := range m {
		if x == v {
			return true
		}
	}
	return false
}

// checkIndex refuses an OCI index.json that names an image the bundle's
// manifest does not list (it is not loaded, but it must not disagree).
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
					return fmt.Errorf("its index.json names %s, which the bundle's manifest does not list", v)
				}
			}
		}
	}
	return nil
}

// writeRetagged copies the archive to w with manifest.json replaced by
// manifest and the other tables that name images left out.
func writeRetagged(w *io.PipeWriter, archive string, manifest []byte) (err error) {
	defer func() { w.CloseWithError(err) }()
	f, err := os.Open(archive)
	if err != nil {
		return err
	}
	defer f.Close()
	tr, tw := tar.NewReader(f), tar.NewWriter(w)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return tw.Close()
		}
		if err != nil {
			return err
		}
		switch archiveName(h.Name) {
		case "repositories", "index.json", "oci-layout":
			continue
		case "manifest.json":
			h = &tar.Header{Name: "manifest.json", Mode: 0o644, Size: int64(len(manifest)), Typeflag: tar.TypeReg, ModTime: h.ModTime}
			if err := tw.WriteHeader(h); err != nil {
				return err
			}
			_, err = tw.Write(manifest)
		default:
			if err := tw.WriteHeader(h); err != nil {
				return err
			}
			_, err = io.Copy(tw, tr)
		}
		if err != nil {
			return err
		}
	}
}
