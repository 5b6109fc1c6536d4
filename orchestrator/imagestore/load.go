package imagestore

import (
	"archive/tar"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"syscall"

	"github.com/hale-lang/halebench/orchestrator/engine"
)

// Engine is what saving and loading need of the engine.
type Engine interface {
	Image(ctx context.Context, ref string) (engine.Image, bool, error)
	Save(ctx context.Context, refs ...string) (io.ReadCloser, error)
	Load(ctx context.Context, archive io.Reader) error
	RemoveImage(ctx context.Context, ref string) error
}

// Every driver is an Engine.
var _ Engine = engine.Driver(nil)

// Check reads archive and says why it is not an archive holding exactly
// images (reference → digest) under those references, or nil.
func Check(archive string, images map[string]string) error {
	f, err := Open(archive)
	if err != nil {
		return err
	}
	defer f.Close()
	return CheckFile(f, images)
}

// CheckFile is Check of an archive already open (see Open).
func CheckFile(f *os.File, images map[string]string) error {
	same := map[string]string{}
	for ref := range images {
		same[ref] = ref
	}
	_, err := checked(f, images, same)
	return err
}

// Load loads archive into the engine with every tag rewritten: images maps
// each reference the archive may carry to the digest it must have, renamed
// maps it to the reference it is loaded as. The archive is read and checked
// before anything is loaded (see Check); the legacy `repositories` and the
// OCI index.json are left out, so only the rewritten manifest.json names
// anything. After loading each image must be there under its new reference
// with its digest; if one is not, every new reference is removed again.
func Load(ctx context.Context, eng Engine, archive string, images, renamed map[string]string) error {
	f, err := Open(archive)
	if err != nil {
		return err
	}
	defer f.Close()
	return LoadFile(ctx, eng, f, images, renamed)
}

// LoadFile is Load of an archive already open (see Open): the one
// descriptor is read to check the archive and again to load it, so what
// is loaded is what was checked, whatever happens to the path meanwhile
// (as long as no one writes the file itself: the caller's own, or one it
// has checked by content).
func LoadFile(ctx context.Context, eng Engine, f *os.File, images, renamed map[string]string) error {
	manifest, err := checked(f, images, renamed)
	if err != nil {
		return err
	}
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- writeRetagged(pw, f, manifest) }()
	lerr := eng.Load(ctx, pr)
	pr.CloseWithError(errors.New("the engine stopped reading the archive"))
	if werr := <-done; lerr == nil && werr != nil {
		lerr = fmt.Errorf("rewriting the archive: %w", werr)
	}
	if lerr == nil {
		lerr = checkLoaded(ctx, eng, images, renamed)
	}
	if lerr != nil {
		for _, ref := range renamed {
			_ = eng.RemoveImage(context.WithoutCancel(ctx), ref)
		}
	}
	return lerr
}

// checked reads archive's tables and returns its manifest.json retagged.
func checked(f *os.File, images, renamed map[string]string) ([]byte, error) {
	t, err := readTables(f)
	if err != nil {
		return nil, err
	}
	manifest, err := retag(t["manifest.json"], images, renamed)
	if err == nil {
		err = checkIndex(t["index.json"], images)
	}
	return manifest, err
}

// checkLoaded says whether each image was loaded under its new reference
// with the digest expected.
func checkLoaded(ctx context.Context, eng Engine, images, renamed map[string]string) error {
	for _, ref := range sortedKeys(renamed) {
		got, ok, err := eng.Image(ctx, renamed[ref])
		if err != nil {
			return err
		}
		if !ok || got.ID != images[ref] {
			return fmt.Errorf("image %s (loaded as %s) has digest %q, %s was expected", ref, renamed[ref], got.ID, images[ref])
		}
	}
	return nil
}

// writeRetagged copies the archive to w with manifest.json replaced by
// manifest and the other tables that name images left out.
func writeRetagged(w *io.PipeWriter, f *os.File, manifest []byte) (err error) {
	defer func() { w.CloseWithError(err) }()
	r, err := from0(f)
	if err != nil {
		return err
	}
	tr, tw := tar.NewReader(r), tar.NewWriter(w)
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

// Open opens an archive for reading once, never through a link (the last
// part of path) and without blocking on a FIFO, and wants a regular file:
// everything after reads this descriptor, never the path again.
func Open(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if errors.Is(err, syscall.ELOOP) {
		return nil, fmt.Errorf("%s is not a regular file (a link)", filepath.Base(path))
	}
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err == nil && !st.Mode().IsRegular() {
		err = fmt.Errorf("%s is not a regular file (%s)", filepath.Base(path), st.Mode().Type())
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// from0 is a reader of f from its first byte, independent of f's offset.
func from0(f *os.File) (io.Reader, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	return io.NewSectionReader(f, 0, st.Size()), nil
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
