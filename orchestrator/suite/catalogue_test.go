package suite

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func write(t *testing.T, root string, files map[string]string) {
	for name, body := range files {
		p := filepath.Join(root, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestLoadOrdersByCatalogue(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{
		"benches/catalogue.json": `{"categories": [{"name": "overhead", "title": "Overhead", "benches": ["b", "a"]}],
			"benches": {"a": {"cpus": 2, "not_comparable": ["c"], "note": "n"}}}`,
		"benches/micro/a.c":   "",
		"benches/micro/a.go":  "",
		"benches/micro/b.py":  "",
		"benches/micro/b.txt": "",
		"benches/app/z.rs":    "",
		"benches/guards/g.hl": "",
	})
	s, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, b := range s.Benches {
		order = append(order, b.Name+":"+b.Category+":"+b.Kind)
	}
	want := []string{"b:overhead:micro", "a:overhead:micro", "g:other:guard", "z:other:app"}
	if len(order) != len(want) {
		t.Fatalf("order %v", order)
	}
	for i := range want {
		if order[i] != want[i] {
			t.Fatalf("order %v, want %v", order, want)
		}
	}
	a := s.Benches[1]
	if a.CPUs != 2 || a.Comparable("c") || !a.Comparable("go") || len(a.Sources) != 2 {
		t.Fatalf("a = %+v", a)
	}
	if err := s.Select("nope"); err == nil {
		t.Fatal("selecting a missing bench succeeded")
	}
	if err := s.Select("a, nope2"); err == nil || !strings.Contains(err.Error(), `"nope2"`) {
		t.Fatalf("selecting a list with a missing bench: %v", err)
	}
	if err := s.Select("b,a"); err != nil || len(s.Benches) != 2 {
		t.Fatalf("a list of two: %v, %d benches", err, len(s.Benches))
	}
	if err := s.Select("a"); err != nil || len(s.Benches) != 1 {
		t.Fatal(err)
	}
}

func TestLoadMissingSuite(t *testing.T) {
	if _, err := Load(t.TempDir()); err == nil {
		t.Fatal("no error for a folder without benches/")
	}
}

func TestRepositoryCatalogueParses(t *testing.T) {
	s, err := Load("../..")
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Benches) == 0 || s.Categories[0].Name != "overhead" {
		t.Fatalf("repository suite: %d benches", len(s.Benches))
	}
}

// A name in catalogue.json with no program is a typo, reported by name.
func TestUnknownNameInCatalogue(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "benches", "micro"), 0o755)
	os.WriteFile(filepath.Join(dir, "benches", "micro", "fn_call.c"), []byte("//\n"), 0o644)
	for _, c := range []struct{ cat, want string }{
		{`{"categories": [{"name": "overhead", "benches": ["fn_call", "fn_cal"]}]}`, `"fn_cal" (category overhead)`},
		{`{"benches": {"fn_calll": {"cpus": 2}}}`, `"fn_calll" (benches)`},
	} {
		os.WriteFile(filepath.Join(dir, "benches", "catalogue.json"), []byte(c.cat), 0o644)
		_, err := Load(dir)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Fatalf("err = %v, want one naming %s", err, c.want)
		}
	}
}

// A source whose file name would make a bench name that cannot travel safely
// (control characters, spaces, "::", non-ASCII, a leading '-') is refused at
// discovery with the file named; a fine name next to it is not.
func TestBadBenchNamesRefused(t *testing.T) {
	for _, name := range []string{"new\nline", "tab\there", "esc\x1b[31m", "two words", "a::b", "caf\u00e9", "zero\u200bwidth", "-flag", ".hidden", strings.Repeat("x", NameMax+1)} {
		t.Run(strconv.Quote(name), func(t *testing.T) {
			dir := t.TempDir()
			write(t, dir, map[string]string{"benches/micro/fine_name-1.c": "", "benches/micro/" + name + ".c": ""})
			_, err := Load(dir)
			if err == nil {
				t.Fatalf("Load accepted a bench named %q", name)
			}
			if !strings.Contains(err.Error(), strconv.Quote(filepath.Join(dir, "benches", "micro", name+".c"))) || !strings.Contains(err.Error(), "rename") && !strings.Contains(err.Error(), "shorten") {
				t.Fatalf("err = %v, want one naming the file and what to do", err)
			}
		})
	}
	dir := t.TempDir()
	write(t, dir, map[string]string{"benches/micro/fine_name-1.v2.c": "", "benches/micro/notes with spaces.txt": ""})
	s, err := Load(dir)
	if err != nil || len(s.Benches) != 1 || s.Benches[0].Name != "fine_name-1.v2" {
		t.Fatalf("a fine name (and a non-source file beside it): %v", err)
	}
}

// A comma-separated list: items trimmed, empty ones dropped.
func TestSplitList(t *testing.T) {
	for in, want := range map[string]string{"": "", " a, b ,,c ": "a|b|c", ",": "", "fn_call": "fn_call"} {
		if got := strings.Join(SplitList(in), "|"); got != want {
			t.Errorf("SplitList(%q) = %q, want %q", in, got, want)
		}
	}
}

// Named: the list's benches when the suite has each, else the first it
// lacks, named.
func TestNamed(t *testing.T) {
	s := &Suite{Dir: "suite", Benches: []*Bench{{Name: "fn_call"}, {Name: "fn_modular"}}}
	if got, err := s.Named(" fn_modular,fn_call "); err != nil || strings.Join(got, "|") != "fn_modular|fn_call" {
		t.Errorf("known: %v %v", got, err)
	}
	if _, err := s.Named("fn_call,nosuch"); err == nil || err.Error() != `no bench named "nosuch" in suite` {
		t.Errorf("unknown: %v", err)
	}
}
