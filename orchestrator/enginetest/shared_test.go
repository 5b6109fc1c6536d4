package enginetest

import (
	"path/filepath"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/suite"
)

// Every package asking for a program of the shared set gets the same set,
// whatever it asked for: that is what makes one image serve them all.
func TestSharedSetIsOneSet(t *testing.T) {
	c, _ := suite.ByName("c")
	all, err := sharedSet(c, nil)
	if err != nil {
		t.Fatal(err)
	}
	some, err := sharedSet(c, []string{"../runner/testdata/small.c", "../../xproc/xproc.c"})
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != len(some) || len(all) < 10 {
		t.Fatalf("shared c set: %d sources alone, %d with two of its own programs named", len(all), len(some))
	}
	for i := range all {
		if all[i] != some[i] {
			t.Fatalf("source %d: %+v vs %+v", i, all[i], some[i])
		}
	}
	units := map[string]bool{}
	for _, s := range all {
		units[s.Unit] = true
	}
	for _, u := range []string{"small", "hang", "exit3", "forger", "xproc"} {
		if !units[u] {
			t.Errorf("shared c set lacks unit %s: %v", u, units)
		}
	}
	more, err := sharedSet(c, []string{filepath.Join(t.TempDir(), "extra.c")})
	if err != nil || len(more) != len(all)+1 {
		t.Fatalf("a program outside the set: %d sources, %v", len(more), err)
	}
	py, _ := suite.ByName("python")
	if p, err := sharedSet(py, nil); err != nil || len(p) != 1 || p[0].Unit != "xproc" {
		t.Fatalf("shared python set: %+v, %v", p, err)
	}
}
