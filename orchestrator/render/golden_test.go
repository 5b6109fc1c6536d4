package render

import (
	"bytes"
	"os"
	"testing"
)

// The page of a stored report is byte for byte the one the code before
// the charts read their metric from the registry wrote (golden files made
// by that code, not by -update).
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
		want, err := os.ReadFile(c.golden)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(b.Bytes(), want) {
			t.Errorf("the page of %v differs from %s (%d bytes, want %d)", c.reports, c.golden, b.Len(), len(want))
		}
	}
}
