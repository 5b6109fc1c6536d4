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
	"time"

	"github.com/hale-lang/halebench/orchestrator/imagearchive"
)

// Cache is one cache folder.
type Cache struct {
	dir string
	eng imagearchive.Engine
	log io.Writer
	now func() time.Time
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

// New returns the cache folder dir (see Prepare) on eng; what it refuses
// or cannot keep is said on log.
func New(dir string, eng imagearchive.Engine, log io.Writer) *Cache {
	return &Cache{dir: dir, eng: eng, log: log, now: time.Now}
}

// Restore loads the image kept under key as ref and says whether it did.
// An archive that is missing is no error; one that fails a check is said,
// removed from the folder, and reported as not restored, so that the image
// is built instead. Only a cancelled ctx is an error.
func (c *Cache) Restore(ctx context.Context, key, ref string) (bool, error) {
	if !keyRE.MatchString(key) {
		return false, fmt.Errorf("cache key %q is not a sha256 in hex", key)
	}
	e, err := c.readEntry(key)
	if err == nil && e == nil {
		return false, nil
	}
	if err == nil && e.Ref != ref {
		err = fmt.Errorf("its entry holds %s, not %s", e.Ref, ref)
	}
	if err == nil {
		err = c.load(ctx, *e, ref)
	}
	if ctx.Err() != nil {
		return false, ctx.Err()
	}
	if err != nil {
		c.Drop(key, err.Error())
		return false, nil
	}
	e.Used = c.now().UTC()
	if err := c.writeEntry(*e); err != nil {
		fmt.Fprintf(c.log, "cache: could not record the use of %s: %v\n", key[:16], err)
	}
	return true, nil
}

// load checks e's archive and loads it under ref.
func (c *Cache) load(ctx context.Context, e Entry, ref string) error {
	path := c.archivePath(e.Key)
	st, err := regular(path)
	if err != nil {
		return err
	}
	if st.Size() != e.Size {
		return fmt.Errorf("its archive has %d bytes, its entry says %d", st.Size(), e.Size)
	}
	sum, err := FileSHA256(path)
	if err != nil {
		return err
	}
	if sum != e.SHA256 {
		return fmt.Errorf("its archive's sha256 is %s, its entry says %s", sum[:16], e.SHA256[:16])
	}
	return imagearchive.Load(ctx, c.eng, path, map[string]string{e.Ref: e.ID}, map[string]string{e.Ref: ref})
}

// Drop says why the archive under key is refused and removes it and its
// entry from the folder.
func (c *Cache) Drop(key, why string) {
	fmt.Fprintf(c.log, "cache: refusing %s (%s): removed it from %s; the image is built instead\n", key[:min(16, len(key))]+".tar", why, c.dir)
	_ = os.Remove(c.entryPath(key))
	_ = os.Remove(c.archivePath(key))
}

// Store keeps the image ref (digest id) under key, unless the folder
// already holds it (then it records the use). The archive is written to a
// temporary file, checked, synced and renamed; then its entry likewise.
func (c *Cache) Store(ctx context.Context, key, ref, id string) error {
	if !keyRE.MatchString(key) {
		return fmt.Errorf("cache key %q is not a sha256 in hex", key)
	}
	if e, err := c.readEntry(key); err == nil && e != nil && e.ID == id && e.Ref == ref {
		if st, err := regular(c.archivePath(key)); err == nil && st.Size() == e.Size {
			e.Used = c.now().UTC()
			return c.writeEntry(*e)
		}
	}
	f, err := os.CreateTemp(c.dir, ".tmp-"+key+"-*.tar")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	err = imagearchive.Save(ctx, c.eng, ref, id, f, MaxArchive)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	st, err := os.Stat(f.Name())
	if err != nil {
		return err
	}
	sum, err := FileSHA256(f.Name())
	if err != nil {
		return err
	}
	if err := os.Rename(f.Name(), c.archivePath(key)); err != nil {
		return err
	}
	now := c.now().UTC()
	return c.writeEntry(Entry{Key: key, Ref: ref, ID: id, Size: st.Size(), SHA256: sum, Stored: now, Used: now})
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
