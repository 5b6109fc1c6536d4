package suite

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// seedCopy lays the repository's suite out as the seed repository does:
// micro/, app/, guards/ and catalogue.json at the root of a new folder.
func seedCopy(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	src := filepath.Join("..", "..", "benches")
	files := map[string]string{}
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(src, p)
		files[rel] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	write(t, dir, files)
	return dir
}

// shape is what a suite says of its benches, with sources by file name
// (the folders differ by layout).
func shape(s *Suite) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%+v\n", s.Categories)
	for _, bn := range s.Benches {
		srcs := map[string]string{}
		for l, p := range bn.Sources {
			srcs[l] = filepath.Base(filepath.Dir(p)) + "/" + filepath.Base(p)
		}
		fmt.Fprintf(&b, "%s %s %s %d %v %v %q %v\n", bn.Name, bn.Kind, bn.Category, bn.CPUs, srcs, bn.NotComparable, bn.Note, bn.Env)
	}
	return b.String()
}

// The suite laid out as the seed's (micro/ and app/ at the root,
// catalogue.json beside them) is the same suite as benches/.
func TestSeedLayoutIsTheSameSuite(t *testing.T) {
	benches, err := Load("../..")
	if err != nil {
		t.Fatal(err)
	}
	seed, err := Load(seedCopy(t))
	if err != nil {
		t.Fatal(err)
	}
	if benches.Layout != LayoutBenches || seed.Layout != LayoutSeed {
		t.Fatalf("layouts %q and %q", benches.Layout, seed.Layout)
	}
	if a, b := shape(benches), shape(seed); a != b {
		t.Fatalf("benches/ layout:\n%s\nseed layout:\n%s", a, b)
	}
	if len(seed.Benches) < 20 {
		t.Fatalf("%d benches", len(seed.Benches))
	}
	for _, in := range seed.Layout.Inputs(seed.Dir) {
		if b := filepath.Base(in); b != "micro" && b != "app" && b != "guards" && b != "catalogue.json" {
			t.Errorf("input %s is not the suite's", in)
		}
	}
	if got := benches.Layout.Inputs(".."); !reflect.DeepEqual(got, []string{filepath.Join("..", "benches")}) {
		t.Errorf("benches/ inputs %v", got)
	}
}

// A suite without a catalogue places its benches by folder, micro before
// app before guards, each by name; a folder with neither layout is refused
// with what to give.
func TestNoCatalogueGroupsByFolder(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{"app/stream.go": "", "micro/fn_b.c": "", "micro/fn_a.hl": "", "README.md": "", "run.sh": "", "results/run.json": "{}"})
	s, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range s.Categories {
		got = append(got, c.Name+":"+strings.Join(c.Benches, ","))
	}
	if s.Layout != LayoutSeed || strings.Join(got, " ") != "micro:fn_a,fn_b app:stream" {
		t.Fatalf("layout %s, categories %v", s.Layout, got)
	}
	if in := s.Layout.Inputs(dir); len(in) != 2 {
		t.Errorf("inputs %v: want micro/ and app/ only", in)
	}
	_, err = Load(t.TempDir())
	if err == nil || !strings.Contains(err.Error(), "micro/ and app/") {
		t.Fatalf("an empty folder: %v", err)
	}
}
