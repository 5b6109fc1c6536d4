package imagestore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"syscall"
	"time"
)

// Cache is one cache folder.
type Cache struct {
	dir  string
	eng  Engine
	log  io.Writer
	now  func() time.Time
	sign []byte // HALEBENCH_CACHE_KEY: entries are signed with it and, when set, must be
}

// Prepare makes sure dir can be a cache folder: a folder (made when
// missing), not a link. Call it before the engine is asked anything.
func Prepare(dir string) error {
	st, err := os.Lstat(dir)
	if os.IsNotExist(err) {
		if err := os.MkdirAll(dir, DirMode); err != nil {
			return fmt.Errorf("--cache-dir %s: %w: give a folder halebench may write", dir, err)
		}
		return os.Chmod(dir, DirMode) // whatever the umask: a CI cache step reads it as another user
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

// SigningKey is the key $HALEBENCH_CACHE_KEY gives (k; nil when unset),
// refused when shorter than MinKeyLen.
func SigningKey(k string) ([]byte, error) {
	if k == "" {
		return nil, nil
	}
	if len(k) < MinKeyLen {
		return nil, fmt.Errorf("HALEBENCH_CACHE_KEY has %d characters, fewer than %d: give a random secret (e.g. `openssl rand -hex 32`), or unset it", len(k), MinKeyLen)
	}
	return []byte(k), nil
}

// maxKeyFile bounds what is read of $HALEBENCH_CACHE_KEY_FILE: a key is
// some dozens of characters.
const maxKeyFile = 4096

// KeyFromEnv is the signing key the environment gives: $HALEBENCH_CACHE_KEY,
// or the content of the file $HALEBENCH_CACHE_KEY_FILE names (one trailing
// newline dropped; an empty file is no key, as an empty variable is). The
// file is how a key reaches a container: an -e value is shown by `docker
// inspect` to everyone who can reach the engine, a mounted file is not.
// Both set is refused (which one was meant?); the file must be a regular
// file (never followed through a link) of at most 4 KiB.
func KeyFromEnv(getenv func(string) string) ([]byte, error) {
	k, file := getenv("HALEBENCH_CACHE_KEY"), getenv("HALEBENCH_CACHE_KEY_FILE")
	if file == "" {
		return SigningKey(k)
	}
	if k != "" {
		return nil, errors.New("both HALEBENCH_CACHE_KEY and HALEBENCH_CACHE_KEY_FILE are set: give the key one way (the file, where a container reads it)")
	}
	f, err := os.OpenFile(file, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, fmt.Errorf("HALEBENCH_CACHE_KEY_FILE: %w: name a readable file holding the key (not a link)", err)
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return nil, fmt.Errorf("HALEBENCH_CACHE_KEY_FILE %s is not a regular file: name the file holding the key", file)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxKeyFile+1))
	if err != nil {
		return nil, fmt.Errorf("HALEBENCH_CACHE_KEY_FILE %s: %w", file, err)
	}
	if len(data) > maxKeyFile {
		return nil, fmt.Errorf("HALEBENCH_CACHE_KEY_FILE %s holds over %d bytes: a key, not another file", file, maxKeyFile)
	}
	data = bytes.TrimSuffix(bytes.TrimSuffix(data, []byte("\n")), []byte("\r"))
	key, err := SigningKey(string(data))
	if err != nil {
		return nil, fmt.Errorf("%w (read from HALEBENCH_CACHE_KEY_FILE %s)", err, file)
	}
	return key, nil
}

// New returns the cache folder dir (see Prepare) on eng; what it refuses
// or cannot keep is said on log. sign is the key entries are signed with
// (HALEBENCH_CACHE_KEY; nil: none, see Restore).
func New(dir string, eng Engine, log io.Writer, sign []byte) *Cache {
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
// entry that is missing is no error (a zero Restored); one that fails a
// check is said, removed from the folder, and reported as not restored, so
// that the image is built instead. Only a cancelled ctx is an error. have
// are the layers of an image on the engine that this one is built on (its
// parent's; nil: none): they are not sent again.
func (c *Cache) Restore(ctx context.Context, key, ref, unsigned string, have []string) (Restored, error) {
	if !keyRE.MatchString(key) {
		return Restored{}, fmt.Errorf("cache key %q is not a sha256 in hex", key)
	}
	e, err := c.readEntry(key)
	if err == nil && e == nil {
		return Restored{}, nil
	}
	if errors.Is(err, errOldFormat) {
		fmt.Fprintf(c.log, "cache: ignoring %s.json in %s: %v (an older halebench kept one whole docker-save archive per image); removed it and its archive, the image is built and kept as layers\n", key[:16], c.dir, err)
		_ = os.Remove(c.entryPath(key))
		_ = os.Remove(c.oldArchivePath(key))
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
		err = c.load(ctx, *e, r.Ref, have)
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

// Drop says why the entry under key is refused and removes it from the
// folder (its blobs, which other entries may share, are prune's).
func (c *Cache) Drop(key, why string) {
	fmt.Fprintf(c.log, "cache: refusing %s (%s): removed it from %s; the image is built instead\n", key[:min(16, len(key))]+".json", why, c.dir)
	_ = os.Remove(c.entryPath(key))
}

// Store keeps the image ref (digest id) under key: its config and each
// layer it does not hold yet as blobs, then its entry. With the entry
// already there and every blob of it held, only its use is recorded (and
// the entry signed anew). Each blob is written to a temporary file, synced
// and renamed; then the entry likewise. Keep only what this job trusts:
// with a key, the entry vouches for the image to every job holding the key.
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
	b, err := c.openBlobs(true)
	if err != nil {
		return err
	}
	defer b.Close()
	now := c.now().UTC()
	// An entry already there is kept (its time of use moved) only when
	// this job can vouch for it: signed with its key, or, for a job with
	// none, left unsigned anyway. One it cannot verify is made again from
	// the engine's image, never signed as it stands.
	if e, err := c.readEntry(key); err == nil && e != nil && e.ID == id && e.Ref == ref && slices.Equal(e.Layers, img.Layers) &&
		(len(c.sign) == 0 || e.signedWith(c.sign)) && holds(b, *e) {
		e.Used = now
		return c.writeEntry(c.signed(*e))
	}
	cfg, layers, err := c.split(ctx, b, ref, img)
	if err != nil {
		return fmt.Errorf("keeping %s: %w", ref, err)
	}
	e := Entry{Key: key, Ref: ref, ID: id, Config: cfg, Blobs: layers, Layers: img.Layers, Stored: now, Used: now}
	return c.writeEntry(c.signed(e))
}

// holds says whether b holds every blob of e.
func holds(b *blobs, e Entry) bool {
	for _, bl := range append([]Blob{e.Config}, e.Blobs...) {
		if !b.has(bl) {
			return false
		}
	}
	return true
}

// signed is e with its signature, when this job has a key (else with none).
func (c *Cache) signed(e Entry) Entry {
	e.Format, e.HMAC = Format, ""
	if len(c.sign) > 0 {
		e.HMAC = e.mac(c.sign)
	}
	return e
}
