package render

import (
	"bytes"
	"flag"
	"os"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/ (pages, compare's tables) from this code")

// The page of a stored report is byte for byte its golden file. The files
// were first made by the code before the charts read their metric from the
// registry; rewritten with -update once, for issue 40's page (sizes in
// "Needs attention", a table of medians per category, language markers
// with shapes, colours at 4.5:1, no axis without data, one layout for
// every page).
func TestPageOfStoredReportsUnchanged(t *testing.T) {
	for _, c := range []struct {
		reports []string
		golden  string
	}{
		{[]string{fixture}, "testdata/run-c.html"},
		{[]string{"../report/testdata/before-h2/run-fake.json"}, "testdata/run-fake.html"},
		{[]string{fixture, fixture}, "testdata/run-c-twice.html"}, // with trends
	} {
		var runs []*Run
		for _, p := range c.reports {
			run, err := Load(p)
			if err != nil {
				t.Fatal(err)
			}
			runs = append(runs, run)
		}
		var b bytes.Buffer
		if err := Render(&b, runs); err != nil {
			t.Fatal(err)
		}
		if *update {
			if err := os.WriteFile(c.golden, b.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(c.golden)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(b.Bytes(), want) {
			t.Errorf("the page of %v differs from %s (%d bytes, want %d)", c.reports, c.golden, b.Len(), len(want))
		}
	}
}
