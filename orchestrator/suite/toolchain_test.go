package suite

import (
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/images"
)

// The table is consistent: names and extensions unique, each language
// either compiled or checked, counted with a scope (and, compiled, a fixed
// target and a counted build) or saying why not.
func TestTableIsConsistent(t *testing.T) {
	names, exts := map[string]bool{}, map[string]bool{}
	for _, l := range All {
		if l.Name == "" || l.Ext == "" || names[l.Name] || exts[l.Ext] {
			t.Errorf("%q/%q: empty or repeated name or extension", l.Name, l.Ext)
		}
		names[l.Name], exts[l.Ext] = true, true
		if (l.Compile == "") == (l.Check == "") && l.Compile == "" {
			t.Errorf("%s: neither compiled nor checked", l.Name)
		}
		if len(l.Run) == 0 || len(l.Version) == 0 {
			t.Errorf("%s: no run or version command", l.Name)
		}
		counted := l.NotCounted == ""
		compiled := l.Compile != ""
		if counted && (l.CountScope == "" || compiled && (l.CountTarget == "" || l.CountCompile == "")) {
			t.Errorf("%s: counted without a scope, or compiled and counted without a target or a counted build", l.Name)
		}
	}
	if _, ok := ByName("hale"); !ok {
		t.Error("no hale: the default subject")
	}
}

// ByName takes a name or an extension; Parse keeps the grid's order,
// drops repeats and names what it does not know.
func TestLookupAndParse(t *testing.T) {
	for _, l := range All {
		if got, ok := ByName(l.Ext); !ok || got.Name != l.Name {
			t.Errorf("ByName(%q) = %q, %v", l.Ext, got.Name, ok)
		}
		if got, ok := ByExt(l.Ext); !ok || got.Name != l.Name {
			t.Errorf("ByExt(%q) = %q, %v", l.Ext, got.Name, ok)
		}
	}
	if _, ok := ByName("cobol"); ok {
		t.Error("ByName found cobol")
	}
	all, err := Parse("")
	if err != nil || len(all) != len(All) {
		t.Fatalf("Parse(\"\") = %d languages, %v", len(all), err)
	}
	last := All[len(All)-1].Name
	got, err := Parse(" " + strings.ToUpper(last) + "," + All[0].Name + "," + last + ",")
	if err != nil || len(got) != 2 || got[0].Name != All[0].Name || got[1].Name != last {
		t.Errorf("Parse kept %v, %v; want grid order without repeats", got, err)
	}
	if _, err := Parse("c,cobol"); err == nil || !strings.Contains(err.Error(), `"cobol"`) || !strings.Contains(err.Error(), Names()) {
		t.Errorf("Parse(cobol): %v", err)
	}
}

// Argv and CountArgv put the binary and source in place; CountRun wins
// for a counted run where a language has one.
func TestArgv(t *testing.T) {
	l := Language{Run: []string{"run", "$BIN", "--src=$SRC"}, CountRun: []string{"count", "$SRC"}}
	if got := l.Argv("/b", "/s"); !reflect.DeepEqual(got, []string{"run", "/b", "--src=/s"}) {
		t.Errorf("Argv = %v", got)
	}
	if got := l.CountArgv("/b", "/s"); !reflect.DeepEqual(got, []string{"count", "/s"}) {
		t.Errorf("CountArgv = %v", got)
	}
	l.CountRun = nil
	if got := l.CountArgv("/b", "/s"); !reflect.DeepEqual(got, l.Argv("/b", "/s")) {
		t.Errorf("CountArgv without CountRun = %v", got)
	}
	if (Language{Compile: "cc"}).BuildFlags() != "cc" || (Language{Check: "py"}).BuildFlags() != "py" {
		t.Error("BuildFlags is not the compile or check command")
	}
}

// What differs between languages beyond compiling and running is in the
// table too: each has its Dockerfile in images/ and a colour of its own,
// exactly one builds the sampler (a compiled language built from its
// Dockerfile), exactly one is the seed's subject, at most one is a subject
// build, and no two xproc rows share a key.
func TestTableHoldsEachLanguagesDifferences(t *testing.T) {
	colours, keys := map[string]string{}, map[string]string{}
	var samplers, seeds, built []string
	for _, l := range All {
		if _, err := images.FS.ReadFile(l.Image + "/Dockerfile"); l.Image == "" || err != nil {
			t.Errorf("%s: no toolchain Dockerfile images/%s/Dockerfile: %v", l.Name, l.Image, err)
		}
		if !regexp.MustCompile(`^#[0-9a-f]{6}$`).MatchString(l.Colour) || colours[l.Colour] != "" {
			t.Errorf("%s: colour %q is not #rrggbb or is %s's too", l.Name, l.Colour, colours[l.Colour])
		}
		colours[l.Colour] = l.Name
		if l.Sampler {
			samplers = append(samplers, l.Name)
			if l.Compile == "" || l.SubjectBuild {
				t.Errorf("%s builds the sampler but is not compiled from its own Dockerfile", l.Name)
			}
		}
		if l.SeedSubject {
			seeds = append(seeds, l.Name)
		}
		if l.SubjectBuild {
			built = append(built, l.Name)
		}
		for _, r := range l.XProcRows("small") {
			if r.Key == "" || keys[r.Key] != "" || r.Reader == "" || (r.Producer == "") != r.InProcess {
				t.Errorf("%s: xproc row %+v: no key, a key of %s's, no reader, or a producer with in-process", l.Name, r, keys[r.Key])
			}
			keys[r.Key] = l.Name
		}
	}
	if len(samplers) != 1 || len(seeds) != 1 || len(built) > 1 {
		t.Errorf("sampler %v, seed subject %v, subject build %v: want one, one, at most one", samplers, seeds, built)
	}
}

// The lookups of a role name the table's entries: go builds the sampler,
// hale is the seed's subject and the subject build.
func TestRoles(t *testing.T) {
	if SamplerLang().Name != "go" || Seed().Name != "hale" {
		t.Errorf("sampler %q, seed %q", SamplerLang().Name, Seed().Name)
	}
	if l, ok := Built(); !ok || l.Name != "hale" {
		t.Errorf("Built() = %q, %v", l.Name, ok)
	}
	if !IsSeed("hale") || IsSeed("c") || IsSeed("") {
		t.Error("IsSeed")
	}
}

// XProcRows puts the variant in a language's own rows, and gives a
// language without any one row running xproc as reader and producer.
func TestXProcRows(t *testing.T) {
	hale, _ := ByName("hale")
	got := hale.XProcRows("large")
	if len(got) != 2 || got[0].Reader != "xproc_large_reader" || got[1].Reader != "xproc_large_reader_drain" || got[1].Producer != "xproc_large_producer" {
		t.Errorf("hale rows %+v", got)
	}
	if hale.XProc[0].Reader != "xproc_{variant}_reader" {
		t.Error("XProcRows changed the table")
	}
	c := Language{Name: "c", Title: "C"}
	if got := c.XProcRows("small"); !reflect.DeepEqual(got, []XProcRow{{Key: "c", Title: "C", Reader: "xproc", Producer: "xproc"}}) {
		t.Errorf("default rows %+v", got)
	}
}
