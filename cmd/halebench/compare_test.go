package main

import (
	"os"
	"strings"
	"testing"
)

// compare on two stored reports (orchestrator/render/testdata/compare):
// the table alone on stdout, byte for byte render's golden; warnings on
// stderr; an unknown --lang refused naming the languages held;
// --fail-on-slower exits 1 only where a row is slower; the JSON names its
// schema; a reader of stored documents refuses a compare table by schema.
func TestCompareVerbAsBenchstatUsersExpect(t *testing.T) {
	const dir = "../../orchestrator/render/testdata/compare/"
	oldP, newP := dir+"old.json", dir+"new.json"
	noEngine := []string{"DOCKER_HOST=unix:///nonexistent"}
	want, err := os.ReadFile(dir + "c.txt")
	if err != nil {
		t.Fatal(err)
	}
	code, out, errOut := run(t, noEngine, "compare", oldP, newP)
	if code != 0 || out != string(want) {
		t.Errorf("compare: exit %d, stdout differs from c.txt:\n%s", code, out)
	}
	if strings.Contains(out, "warning") || !strings.Contains(errOut, "halebench: compare: warning: the reports come from different hosts") {
		t.Errorf("warnings belong on stderr:\nstdout %s\nstderr %s", out, errOut)
	}
	for _, want := range []string{"loop3    1.00 µs  3.00 µs  ~        p=0.100  3+3  ~ ¹", "¹ too few samples for the test to reach p < 0.05", "geomean  794 ns", "go_only  —        —        —        —        —    in neither report"} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q", want)
		}
	}
	for _, c := range []struct {
		args []string
		code int
		err  string
	}{
		{[]string{"--lang=cobol", oldP, newP}, 2, "compare: --lang=cobol: neither report holds it; give one of c, go"},
		{[]string{"--fail-on-slower", oldP, newP}, 1, "compare: a bench is significantly slower in NEW and --fail-on-slower was given"},
		{[]string{"--fail-on-slower", "--lang=go", oldP, newP}, 0, ""},
		{[]string{"--fail-on-slower", oldP, oldP}, 0, ""},
		{[]string{oldP, newP, "--fail-on-slower", "--json"}, 1, "--fail-on-slower was given"},
	} {
		code, _, errOut := run(t, noEngine, append([]string{"compare"}, c.args...)...)
		if code != c.code || !strings.Contains(errOut, c.err) {
			t.Errorf("compare %v: exit %d, want %d\n%s", c.args, code, c.code, errOut)
		}
	}
	code, out, _ = run(t, noEngine, "compare", "--json", oldP, newP)
	if code != 0 || !strings.Contains(out, `"schema": "halebench-compare/2"`) || !strings.Contains(out, `"old_median": `) || !strings.Contains(out, `"kind": "compare"`) {
		t.Fatalf("--json: exit %d\n%s", code, out)
	}
	// The table's JSON is no run report: every verb that reads stored
	// documents refuses it by its schema, this version and another alike.
	for _, schema := range []string{"halebench-compare/2", "halebench-compare/3"} {
		p := t.TempDir() + "/c.json"
		os.WriteFile(p, []byte(strings.Replace(out, "halebench-compare/2", schema, 1)), 0o644)
		if code, _, errOut := run(t, noEngine, "show", p); code != 2 || !strings.Contains(errOut, `has schema "`+schema+`"`) {
			t.Errorf("show of a %s table: exit %d\n%s", schema, code, errOut)
		}
	}
	if code, out, _ := run(t, nil, "help", "compare"); code != 0 || !strings.Contains(out, "--fail-on-slower") || !strings.Contains(out, "Exit status") {
		t.Errorf("help compare: exit %d\n%s", code, out)
	}
	if code, out, _ := run(t, nil, "--help"); code != 0 || !strings.Contains(out, "compare --fail-on-slower") {
		t.Errorf("help: exit %d\n%s", code, out)
	}
}
