package imagecache

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// Pruned is what Prune removed.
type Pruned struct {
	Archives int   // archives (with their entries) removed
	Bytes    int64 // their size
	Strays   int   // other files: leftovers of an interrupted write, halves of a pair
}

// Prune removes from dir every archive last used (stored or restored)
// before now-age, every archive whose entry is missing or refused, and the
// leftovers of interrupted writes. It never follows a link and leaves
// files that are not the cache's alone.
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
	keys := map[string]bool{}
	for _, d := range ents {
		name := d.Name()
		if strings.HasPrefix(name, ".tmp-") && d.Type().IsRegular() {
			if err := os.Remove(filepath.Join(c.dir, name)); err == nil {
				p.Strays++
			}
			continue
		}
		if key, err := keyOf(name); err == nil {
			keys[key] = true
		}
	}
	sorted := make([]string, 0, len(keys))
	for k := range keys {
		sorted = append(sorted, k)
	}
	sort.Strings(sorted)
	for _, key := range sorted {
		c.pruneKey(key, now.Add(-age), &p)
	}
	return p, nil
}

func (c *Cache) pruneKey(key string, before time.Time, p *Pruned) {
	e, err := c.readEntry(key)
	st, aerr := regular(c.archivePath(key))
	if err == nil && e != nil && aerr == nil && st.Size() == e.Size && !e.Used.Before(before) {
		return
	}
	if aerr == nil {
		if os.Remove(c.archivePath(key)) == nil {
			p.Archives++
			p.Bytes += st.Size()
		}
	}
	if _, err := regular(c.entryPath(key)); err == nil {
		if os.Remove(c.entryPath(key)) == nil && aerr != nil {
			p.Strays++
		}
	}
}

// String says what was removed, for the log.
func (p Pruned) String() string {
	return fmt.Sprintf("%d archives (%.1f MB) and %d stray files", p.Archives, float64(p.Bytes)/1e6, p.Strays)
}
