package toolchain

import (
	"reflect"
	"strings"
	"testing"
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
