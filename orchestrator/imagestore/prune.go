package imagestore

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hale-lang/halebench/orchestrator/termtext"
)

// Pruned is what Prune removed.
type Pruned struct {
	Entries int   // image entries removed
	Blobs   int   // blobs no entry kept names
	Bytes   int64 // the blobs' size (and the old archives')
	Strays  int   // other files: leftovers of interrupted writes, old-format archives
}

// Trim is prune --cache-dir: dir pruned as Prune does of the entries not
// used within age of now, after refusing what it cannot do. Its errors are
// all the user's to fix.
func Trim(dir string, age time.Duration, dryRun bool) (Pruned, error) {
	if dryRun {
		return Pruned{}, errors.New("prune: --dry-run is not offered with --cache-dir (an image's age is in its DIR/<key>.json, field used)")
	}
	if age < 0 {
		return Pruned{}, errors.New("prune: --cache-dir-age must not be negative")
	}
	// Trimming makes nothing: a folder that is not there is a mistyped
	// path (Prune would create it and say "removed 0").
	fi, err := os.Lstat(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return Pruned{}, fmt.Errorf("prune: --cache-dir=%s: no such folder (give the folder run --cache-dir keeps its images in)", dir)
	case err != nil:
		return Pruned{}, fmt.Errorf("prune: --cache-dir=%s: %w", dir, err)
	case !fi.IsDir():
		return Pruned{}, fmt.Errorf("prune: --cache-dir=%s is not a folder (%s)", dir, kindOf(fi.Mode()))
	}
	return Prune(dir, age, time.Now())
}

// Prune removes from dir every entry last used (stored or restored) before
// now-age, every entry that is refused (malformed, or of an older format,
// with its archive), then every blob no entry left names, and the leftovers
// of interrupted writes. It never follows a link and leaves files that are
// not the cache's alone.
func Prune(dir string, age time.Duration, now time.Time) (Pruned, error) {
	var p Pruned
	if err := Prepare(dir); err != nil {
		return p, err
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return p, err
	}
	c := &Cache{dir: dir}
	live := map[string]bool{}
	for _, d := range ents {
		c.pruneFile(d, now.Add(-age), live, &p)
	}
	b, err := c.openBlobs(false)
	if errors.Is(err, os.ErrNotExist) {
		return p, nil
	}
	if err != nil {
		return p, err
	}
	defer b.Close()
	names, err := b.names()
	if err != nil {
		return p, err
	}
	for name, size := range names {
		switch {
		case isTemp(name):
			b.unlink(name)
			p.Strays++
		case keyRE.MatchString(name) && !live[name]:
			b.unlink(name)
			p.Blobs++
			p.Bytes += size
		}
	}
	return p, nil
}

// pruneFile prunes one file of the folder's top: an entry refused or not
// used since before is removed, a kept one marks its blobs live.
func (c *Cache) pruneFile(d os.DirEntry, before time.Time, live map[string]bool, p *Pruned) {
	name, path := d.Name(), filepath.Join(c.dir, d.Name())
	if !d.Type().IsRegular() {
		return
	}
	if isTemp(name) {
		if os.Remove(path) == nil {
			p.Strays++
		}
		return
	}
	key, ext, _ := strings.Cut(name, ".")
	if !keyRE.MatchString(key) {
		return
	}
	switch ext {
	case "tar": // format 1's archive
		if st, err := d.Info(); err == nil && os.Remove(path) == nil {
			p.Strays++
			p.Bytes += st.Size()
		}
	case "json":
		e, err := c.readEntry(key)
		if err == nil && e != nil && !e.Used.Before(before) {
			live[hexOf(e.Config.Digest)] = true
			for _, bl := range e.Blobs {
				live[hexOf(bl.Digest)] = true
			}
			return
		}
		if os.Remove(path) == nil {
			p.Entries++
		}
	}
}

// String says what was removed, for the log.
func (p Pruned) String() string {
	return fmt.Sprintf("%d image entries, %d blobs (%s) and %d stray files", p.Entries, p.Blobs, termtext.Size(p.Bytes), p.Strays)
}

// kindOf names a file mode's type for a message.
func kindOf(m os.FileMode) string {
	switch {
	case m&os.ModeSymlink != 0:
		return "a link"
	case m.IsRegular():
		return "a file"
	}
	return m.Type().String()
}
