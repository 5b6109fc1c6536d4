package suite

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Bench is one workload with its sibling sources.
type Bench struct {
	Name          string
	Kind          string            // micro, app or guard: the folder it lives in
	Category      string            // grid category name
	CPUs          int               // CPUs it needs (threads it runs)
	Sources       map[string]string // language name -> file path
	NotComparable []string          // languages whose ratio is not a signal
	Note          string
	Env           map[string]string // environment every sibling runs with
}

// Category is one table of the grid.
type Category struct {
	Name    string
	Title   string
	Benches []string
}

// Suite is what was discovered.
type Suite struct {
	Dir        string
	Layout     Layout // how Dir holds its benches
	Categories []Category
	Benches    []*Bench // in grid order: the ones selected to run
	All        []*Bench // every bench found, whatever Select kept
}

type file struct {
	Categories []fileCategory `json:"categories"`
	Benches    map[string]struct {
		CPUs          int               `json:"cpus"`
		NotComparable []string          `json:"not_comparable"`
		Note          string            `json:"note"`
		Env           map[string]string `json:"env"`
	} `json:"benches"`
}

type fileCategory struct {
	Name    string   `json:"name"`
	Title   string   `json:"title"`
	Benches []string `json:"benches"`
}

// kinds are the folders a suite keeps its benches in, what a bench there
// is, and the title of its category when the suite has no catalogue.
var kinds = []struct{ dir, kind, title string }{
	{"micro", "micro", "Micro benches"}, {"app", "app", "App benches"}, {"guards", "guard", "Guards"},
}

// Load discovers the suite in dir, in either layout (FindLayout).
func Load(dir string) (*Suite, error) {
	layout, err := FindLayout(dir)
	if err != nil {
		return nil, err
	}
	root := layout.Root(dir)
	if err := notALink(root); err != nil {
		return nil, err
	}
	catPath := filepath.Join(root, catalogueFile)
	cat, err := readCatalogue(catPath)
	if err != nil {
		return nil, err
	}
	found, err := discover(root)
	if err != nil {
		return nil, err
	}
	if err := unknownNames(catPath, cat, found); err != nil {
		return nil, err
	}
	for n, meta := range cat.Benches {
		if err := checkEnv(n, meta.Env); err != nil {
			return nil, fmt.Errorf("suite catalogue %s: %w", catPath, err)
		}
	}
	if !exists(catPath) {
		cat = byFolder(found)
	}
	s := place(dir, cat, found)
	s.Layout = layout
	for n, meta := range cat.Benches {
		if b := found[n]; b != nil {
			if meta.CPUs > 0 {
				b.CPUs = meta.CPUs
			}
			b.NotComparable, b.Note, b.Env = meta.NotComparable, meta.Note, meta.Env
		}
	}
	return s, nil
}

// readCatalogue reads the suite's catalogue.json; a suite without one is
// fine (its benches are placed by the folder they live in).
func readCatalogue(path string) (file, error) {
	var cat file
	data, err := ReadSource(path)
	if err != nil {
		if _, serr := os.Lstat(path); errors.Is(serr, os.ErrNotExist) {
			return cat, nil
		}
		return cat, err
	}
	if err := json.Unmarshal(data, &cat); err != nil {
		return cat, fmt.Errorf("suite catalogue %s: %w (fix the JSON)", path, err)
	}
	return cat, nil
}

// discover finds every bench source under the kind folders of root, by
// bench name.
func discover(root string) (map[string]*Bench, error) {
	found := map[string]*Bench{}
	for _, k := range kinds {
		dir := filepath.Join(root, k.dir)
		if err := notALink(dir); err != nil {
			return nil, err
		}
		entries, err := os.ReadDir(dir)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			if err := addSource(found, filepath.Join(root, k.dir), k.kind, e); err != nil {
				return nil, err
			}
		}
	}
	return found, nil
}

// addSource records one folder entry as a bench's source when its extension
// names a language; other files are not the suite's business.
func addSource(found map[string]*Bench, dir, kind string, e fs.DirEntry) error {
	if e.IsDir() {
		return nil
	}
	ext := strings.TrimPrefix(filepath.Ext(e.Name()), ".")
	lang, ok := ByExt(ext)
	if !ok {
		return nil
	}
	path := filepath.Join(dir, e.Name())
	fi, err := e.Info()
	if err != nil {
		return err
	}
	if err := checkEntry(path, fi); err != nil {
		return err
	}
	name := strings.TrimSuffix(e.Name(), "."+ext)
	if err := CheckName(name); err != nil {
		return fmt.Errorf("suite file %q: %w", path, err)
	}
	b := found[name]
	if b == nil {
		b = &Bench{Name: name, Kind: kind, CPUs: 1, Sources: map[string]string{}}
		found[name] = b
	} else if b.Kind != kind {
		return fmt.Errorf("bench %s has sources in two folders (%s and %s): keep one", name, b.Kind, kind)
	}
	b.Sources[lang.Name] = path
	return nil
}

// place puts the benches in the catalogue's grid order; those it does not
// name go, sorted, into a last category "other".
func place(dir string, cat file, found map[string]*Bench) *Suite {
	s := &Suite{Dir: dir}
	placed := map[string]bool{}
	for _, c := range cat.Categories {
		cc := Category{Name: c.Name, Title: c.Title}
		for _, n := range c.Benches {
			if b := found[n]; b != nil && !placed[n] {
				placed[n] = true
				b.Category = c.Name
				cc.Benches = append(cc.Benches, n)
				s.Benches = append(s.Benches, b)
			}
		}
		s.Categories = append(s.Categories, cc)
	}
	var rest []string
	for n := range found {
		if !placed[n] {
			rest = append(rest, n)
		}
	}
	sort.Strings(rest)
	if len(rest) > 0 {
		other := Category{Name: "other", Title: "Other benches"}
		for _, n := range rest {
			found[n].Category = "other"
			other.Benches = append(other.Benches, n)
			s.Benches = append(s.Benches, found[n])
		}
		s.Categories = append(s.Categories, other)
	}
	s.All = s.Benches
	return s
}

// unknownNames refuses a catalogue that names a bench with no program: a
// typo there would silently drop the bench from its category or its
// settings (CPUs, env, notes) from the bench.
func unknownNames(path string, cat file, found map[string]*Bench) error {
	var bad []string
	for _, c := range cat.Categories {
		for _, n := range c.Benches {
			if found[n] == nil {
				bad = append(bad, fmt.Sprintf("%q (category %s)", n, c.Name))
			}
		}
	}
	var extra []string
	for n := range cat.Benches {
		if found[n] == nil {
			extra = append(extra, fmt.Sprintf("%q (benches)", n))
		}
	}
	sort.Strings(extra)
	bad = append(bad, extra...)
	if len(bad) > 0 {
		return fmt.Errorf("suite catalogue %s names benches with no program beside it: %s (fix the name or add the program)", path, strings.Join(bad, ", "))
	}
	return nil
}

// Select keeps only the named benches, a comma-separated list ("" keeps all).
func (s *Suite) Select(list string) error {
	if strings.TrimSpace(list) == "" {
		return nil
	}
	want := map[string]bool{}
	for _, n := range SplitList(list) {
		want[n] = true
	}
	var keep []*Bench
	var names []string
	for _, b := range s.Benches {
		names = append(names, b.Name)
		if want[b.Name] {
			keep = append(keep, b)
			delete(want, b.Name)
		}
	}
	if len(want) > 0 {
		var unknown []string
		for n := range want {
			unknown = append(unknown, strconv.Quote(n))
		}
		sort.Strings(unknown)
		return fmt.Errorf("no bench named %s in %s (benches: %s)", strings.Join(unknown, ", "), s.Dir, strings.Join(names, ", "))
	}
	s.Benches = keep
	return nil
}

// Comparable says whether lang's ratio on b is a signal.
func (b *Bench) Comparable(lang string) bool {
	for _, l := range b.NotComparable {
		if l == lang {
			return false
		}
	}
	return true
}

// byFolder is the catalogue of a suite that has none: one category per
// kind folder (micro, app, guards), its benches by name — the seed's README
// splits its benches so.
func byFolder(found map[string]*Bench) file {
	var cat file
	for _, k := range kinds {
		var names []string
		for n, b := range found {
			if b.Kind == k.kind {
				names = append(names, n)
			}
		}
		if len(names) == 0 {
			continue
		}
		sort.Strings(names)
		cat.Categories = append(cat.Categories, fileCategory{Name: k.kind, Title: k.title, Benches: names})
	}
	return cat
}

// Named is the benches of a comma-separated list, each a bench of the
// suite: the first that is not is named in the error.
func (s *Suite) Named(list string) ([]string, error) {
	known := map[string]bool{}
	for _, b := range s.Benches {
		known[b.Name] = true
	}
	names := SplitList(list)
	for _, n := range names {
		if !known[n] {
			return nil, fmt.Errorf("no bench named %q in %s", n, s.Dir)
		}
	}
	return names, nil
}

// SplitList is a comma-separated list's items, each trimmed, the empty
// ones left out.
func SplitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}
