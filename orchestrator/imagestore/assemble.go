package imagestore

import (
	"archive/tar"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"time"
)

// load loads e's image into the engine as ref: a docker-archive stream is
// assembled from the folder's blobs (see Assemble) and handed to the
// engine's load; the loaded image must then have e's digest and layers. A
// blob whose bytes are not its name's is removed from the folder (no entry
// can use it). The first layers e shares with have, which an image on the
// engine starts with, are left out of the stream (the engine skips a layer
// it holds without reading it); when the engine will not take that, the
// stream is sent again whole.
func (c *Cache) load(ctx context.Context, e Entry, ref string, have []string) error {
	b, err := c.openBlobs(false)
	if err != nil {
		return err
	}
	defer b.Close()
	skip := 0
	for skip < len(e.Layers)-1 && skip < len(have) && have[skip] == e.Layers[skip] {
		skip++
	}
	err = c.send(ctx, b, e, ref, skip)
	if err != nil && skip > 0 && !errors.Is(err, ErrBlobChanged) && ctx.Err() == nil {
		fmt.Fprintf(c.log, "cache: the engine did not load %s with its first %d layers (held already) left out (%v); sending them too\n", ref, skip, err)
		err = c.send(ctx, b, e, ref, 0)
	}
	if err == nil {
		err = c.checkLoaded(ctx, e, ref)
	}
	if err != nil {
		_ = c.eng.RemoveImage(context.WithoutCancel(ctx), ref)
	}
	return err
}

// send streams e, its first skip layers left out, into the engine's load.
func (c *Cache) send(ctx context.Context, b *blobs, e Entry, ref string, skip int) error {
	a, err := openImage(b, e, skip)
	if err != nil {
		return err
	}
	defer a.close()
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		werr := a.write(pw, ref)
		pw.CloseWithError(werr)
		done <- werr
	}()
	lerr := c.eng.Load(ctx, pr)
	pr.CloseWithError(errors.New("the engine stopped reading the archive"))
	if werr := <-done; werr != nil {
		// The stream was cut before its manifest: the engine loaded nothing.
		lerr = werr
	}
	if errors.Is(lerr, ErrBlobChanged) {
		b.remove(a.bad)
	}
	return lerr
}

// checkLoaded wants ref on the engine with e's digest and layers.
func (c *Cache) checkLoaded(ctx context.Context, e Entry, ref string) error {
	img, ok, err := c.eng.Image(ctx, ref)
	if err != nil {
		return err
	}
	if !ok || img.ID != e.ID || !slices.Equal(img.Layers, e.Layers) {
		return fmt.Errorf("the loaded image %s is %q, not the %s with the layers its entry pins", ref, img.ID, e.ID)
	}
	return nil
}

// Assemble writes the image kept under key, tagged ref, to w as a
// docker-archive stream (a `docker load` input), reading the folder as a
// restore does; it neither asks the engine nor writes the folder. An error
// means w holds no complete archive.
func (c *Cache) Assemble(w io.Writer, key, ref string) error {
	e, err := c.readEntry(key)
	if err == nil && e == nil {
		err = fmt.Errorf("the folder holds no entry %s", key)
	}
	if err != nil {
		return err
	}
	b, err := c.openBlobs(false)
	if err != nil {
		return err
	}
	defer b.Close()
	a, err := openImage(b, *e, 0)
	if err != nil {
		return err
	}
	defer a.close()
	return a.write(w, ref)
}

// image is one entry's blobs, open: its config read and checked whole, its
// layers open and of their recorded sizes, to be checked as they are read.
type image struct {
	e      Entry
	config []byte
	skip   int                 // the first layers, left out (the engine holds them)
	layers map[string]*os.File // by digest: a layer held twice is sent once
	bad    string              // the blob found changed, if one was
}

// openImage reads e's config (its sha256 must be e's image digest and its
// layers e's) and opens every layer blob but the first skip.
func openImage(b *blobs, e Entry, skip int) (*image, error) {
	f, err := b.open(e.Config)
	if err != nil {
		return nil, fmt.Errorf("its config: %w", err)
	}
	data, err := io.ReadAll(newVerified(f, e.Config))
	f.Close()
	if errors.Is(err, ErrBlobChanged) {
		b.remove(e.Config.Digest)
	}
	if err != nil {
		return nil, fmt.Errorf("its config: %w", err)
	}
	if err := checkConfig(data, e.ID, e.Layers); err != nil {
		return nil, err
	}
	a := &image{e: e, config: data, skip: skip, layers: map[string]*os.File{}}
	for _, bl := range e.Blobs[skip:] {
		if a.layers[bl.Digest] != nil {
			continue
		}
		f, err := b.open(bl)
		if err != nil {
			a.close()
			return nil, err
		}
		a.layers[bl.Digest] = f
	}
	return a, nil
}

func (a *image) close() {
	for _, f := range a.layers {
		f.Close()
	}
}

// write writes the docker-archive stream: the config, each layer once as
// <hex>/layer.tar, checked against its name as it is copied, and last the
// manifest.json naming ref, so that a stream cut at a changed blob names no
// image. Only ref is named (no repositories, no index.json).
func (a *image) write(w io.Writer, ref string) error {
	tw := tar.NewWriter(w)
	cfgName := hexOf(a.e.ID) + ".json"
	if err := writeFile(tw, cfgName, bytes.NewReader(a.config), int64(len(a.config))); err != nil {
		return err
	}
	names := make([]string, len(a.e.Blobs))
	sent := map[string]bool{}
	if a.skip > 0 {
		if err := writeFile(tw, heldName, bytes.NewReader(nil), 0); err != nil {
			return err
		}
	}
	for i, bl := range a.e.Blobs {
		if i < a.skip {
			names[i] = heldName
			continue
		}
		names[i] = hexOf(bl.Digest) + "/layer.tar"
		if sent[bl.Digest] {
			continue
		}
		sent[bl.Digest] = true
		if err := tw.WriteHeader(&tar.Header{Name: hexOf(bl.Digest) + "/", Typeflag: tar.TypeDir, Mode: DirMode, ModTime: time.Unix(0, 0)}); err != nil {
			return err
		}
		f := a.layers[bl.Digest]
		if err := writeFile(tw, names[i], newVerified(io.NewSectionReader(f, 0, bl.Size), bl), bl.Size); err != nil {
			if errors.Is(err, ErrBlobChanged) {
				a.bad = bl.Digest
			}
			return err
		}
	}
	manifest, err := json.Marshal([]map[string]any{{"Config": cfgName, "RepoTags": []string{ref}, "Layers": names}})
	if err == nil {
		err = writeFile(tw, "manifest.json", bytes.NewReader(manifest), int64(len(manifest)))
	}
	if err != nil {
		return err
	}
	return tw.Close()
}

// heldName is the empty file every layer left out stands for: the engine,
// holding the layer, never reads it.
const heldName = "held-by-the-engine.tar"

func writeFile(tw *tar.Writer, name string, r io.Reader, size int64) error {
	if err := tw.WriteHeader(&tar.Header{Name: name, Typeflag: tar.TypeReg, Mode: FileMode, Size: size, ModTime: time.Unix(0, 0)}); err != nil {
		return err
	}
	_, err := io.Copy(tw, r)
	return err
}

func sha256Hex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}
