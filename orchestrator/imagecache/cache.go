package imagecache

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/hale-lang/halebench/orchestrator/imagearchive"
)

// Cache is one cache folder.
type Cache struct {
	dir  string
	eng  imagearchive.Engine
	log  io.Writer
	now  func() time.Time
	sign []byte // HALEBENCH_CACHE_KEY: entries are signed with it and, when set, must be
}

// Prepare makes sure dir can be a cache folder: a folder (made when
// missing), not a link. Call it before the engine is asked anything.
func Prepare(dir string) error {
	st, err := os.Lstat(dir)
	if os.IsNotExist(err) {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("--cache-dir %s: %w: give a folder halebench may write", dir, err)
		}
		return nil
	}
	if err != nil {
		return fmt.Errorf("--cache-dir %s: %w", dir, err)
	}
	if !st.IsDir() {
		return fmt.Errorf("--cache-dir %s is a file or a link, not a folder: give a folder", dir)
	}
	return nil
}

// MinKeyLen is the shortest signing key taken (a random 32 bytes in hex
// is 64 characters).
const MinKeyLen = 32

// New returns the cache folder dir (see Prepare) on eng; what it refuses
// or cannot keep is said on log. sign is the key entries are signed with
// (HALEBENCH_CACHE_KEY; nil: none, see Restore).
func New(dir string, eng imagearchive.Engine, log io.Writer, sign []byte) *Cache {
	return &Cache{dir: dir, eng: eng, log: log, now: time.Now, sign: sign}
}

// Restored is an image loaded from the folder.
type Restored struct {
	Ref    string // the reference it was loaded as
	Signed bool   // its entry's signature was checked with this job's key
}

// Restore loads the image kept under key and says how. With a signing key,
// only an entry signed with it is taken, and loaded as ref; without one, no
// entry can be verified, and the image is loaded as unsigned instead (a
// reference of its own, never one an image built here has), so that an
// unverified image can never later pass for one built on this engine. An
// archive that is missing is no error (a zero Restored); one that fails a
// check is said, removed from the folder, and reported as not restored, so
// that the image is built instead. Only a cancelled ctx is an error.
func (c *Cache) Restore(ctx context.Context, key, ref, unsigned string) (Restored, error) {
	if !keyRE.MatchString(key) {
		return Restored{}, fmt.Errorf("cache key %q is not a sha256 in hex", key)
	}
	e, err := c.readEntry(key)
	if err == nil && e == nil {
		return Restored{}, nil
	}
	r := Restored{Ref: unsigned}
	switch {
	case err != nil:
	case e.Ref != ref:
		err = fmt.Errorf("its entry holds %s, not %s", e.Ref, ref)
	case len(c.sign) > 0 && !e.signedWith(c.sign):
		err = errors.New("its entry is not signed with this job's HALEBENCH_CACHE_KEY")
	case len(c.sign) > 0:
		r = Restored{Ref: ref, Signed: true}
	}
	if err == nil {
		err = c.load(ctx, *e, r)
	}
	if ctx.Err() != nil {
		return Restored{}, ctx.Err()
	}
	if err != nil {
		c.Drop(key, err.Error())
		return Restored{}, nil
	}
	e.Used = c.now().UTC()
	if err := c.writeEntry(*e); err != nil {
		fmt.Fprintf(c.log, "cache: could not record the use of %s: %v\n", key[:16], err)
	}
	return r, nil
}

// load checks e's archive (opened once, never through a link) and loads it
// as r.Ref; a signed entry's layers must be the loaded image's.
func (c *Cache) load(ctx context.Context, e Entry, r Restored) error {
	f, err := imagearchive.Open(c.archivePath(e.Key))
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if st.Size() != e.Size {
		return fmt.Errorf("its archive has %d bytes, its entry says %d", st.Size(), e.Size)
	}
	h := sha256.New()
	if _, err := io.Copy(h, io.NewSectionReader(f, 0, st.Size())); err != nil {
		return err
	}
	if sum := hex.EncodeToString(h.Sum(nil)); sum != e.SHA256 {
		return fmt.Errorf("its archive's sha256 is %s, its entry says %s", sum[:16], e.SHA256[:16])
	}
	if err := imagearchive.LoadFile(ctx, c.eng, f, map[string]string{e.Ref: e.ID}, map[string]string{e.Ref: r.Ref}); err != nil {
		return err
	}
	if !r.Signed {
		return nil
	}
	img, ok, err := c.eng.Image(ctx, r.Ref)
	if err == nil && (!ok || !slices.Equal(img.Layers, e.Layers)) {
		err = fmt.Errorf("the loaded image's layers are not those its signed entry pins")
	}
	if err != nil {
		_ = c.eng.RemoveImage(context.WithoutCancel(ctx), r.Ref)
	}
	return err
}

// Drop says why the archive under key is refused and removes it and its
// entry from the folder.
func (c *Cache) Drop(key, why string) {
	fmt.Fprintf(c.log, "cache: refusing %s (%s): removed it from %s; the image is built instead\n", key[:min(16, len(key))]+".tar", why, c.dir)
	_ = os.Remove(c.entryPath(key))
	_ = os.Remove(c.archivePath(key))
}

// Store keeps the image ref (digest id) under key, unless the folder
// already holds it (then it records the use, and signs the entry anew).
// The archive is written to a temporary file, checked, synced and renamed;
// then its entry likewise. Keep only what this job trusts: with a key, the
// entry vouches for the image to every job holding the key.
func (c *Cache) Store(ctx context.Context, key, ref, id string) error {
	if !keyRE.MatchString(key) {
		return fmt.Errorf("cache key %q is not a sha256 in hex", key)
	}
	img, ok, err := c.eng.Image(ctx, ref)
	if err != nil {
		return err
	}
	if !ok || img.ID != id {
		return fmt.Errorf("keeping %s: it has digest %q, not %s", ref, img.ID, id)
	}
	if e, err := c.readEntry(key); err == nil && e != nil && e.ID == id && e.Ref == ref {
		if st, err := regular(c.archivePath(key)); err == nil && st.Size() == e.Size {
			e.Used, e.Layers = c.now().UTC(), img.Layers
			return c.writeEntry(c.signed(*e))
		}
	}
	f, err := os.CreateTemp(c.dir, ".tmp-"+key+"-*.tar")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	err = f.Chmod(FileMode)
	if err == nil {
		err = imagearchive.Save(ctx, c.eng, ref, id, f, MaxArchive)
	}
	var st os.FileInfo
	if err == nil {
		st, err = f.Stat()
	}
	h := sha256.New()
	if err == nil {
		_, err = io.Copy(h, io.NewSectionReader(f, 0, st.Size()))
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if err := os.Rename(f.Name(), c.archivePath(key)); err != nil {
		return err
	}
	now := c.now().UTC()
	e := Entry{Key: key, Ref: ref, ID: id, Size: st.Size(), SHA256: hex.EncodeToString(h.Sum(nil)), Stored: now, Used: now, Layers: img.Layers}
	return c.writeEntry(c.signed(e))
}

// signed is e with its signature, when this job has a key (else with none).
func (c *Cache) signed(e Entry) Entry {
	e.HMAC = ""
	if len(c.sign) > 0 {
		e.HMAC = e.mac(c.sign)
	}
	return e
}

// FileSHA256 is the hex sha256 of the file at path.
func FileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

var errNotKey = errors.New("not a cache file")

// keyOf is the key a file of the folder belongs to.
func keyOf(name string) (string, error) {
	ext := filepath.Ext(name)
	key := name[:len(name)-len(ext)]
	if (ext != ".tar" && ext != ".json") || !keyRE.MatchString(key) {
		return "", errNotKey
	}
	return key, nil
}
