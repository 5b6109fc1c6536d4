package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// tinySuite writes some of the suite's bench files (by default two C
// benches, a micro and an app) in the layout given: under benches/, or at
// the root as the seed keeps them.
func tinySuite(t *testing.T, seed bool, files ...string) string {
	t.Helper()
	dir := t.TempDir()
	root := filepath.Join(dir, "benches")
	if seed {
		root = dir
	}
	if len(files) == 0 {
		files = []string{"micro/fn_call.c", "app/stream_aggregator.c"}
	}
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join("..", "..", "benches", f))
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(root, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// timings are what differs between two runs of one suite: durations,
// ratios, the date and the run's figures.
var timings = regexp.MustCompile(`[0-9][0-9.:TZ-]*( ?(ns|µs|ms|s)\b)?`)

// untimed is a grid without what differs from run to run: its figures,
// whether a cell was noisy (its mark, the mark's legend) and the padding
// that follows the cells' widths.
func untimed(grid string) string {
	var out []string
	for _, l := range strings.Split(timings.ReplaceAllString(grid, "N"), "\n") {
		l = strings.Join(strings.Fields(strings.ReplaceAll(l, " ±", "")), " ")
		if l != "" && !strings.HasPrefix(l, "±") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// The seed's layout (micro/ and app/ at the suite's root) runs as it is,
// with the same grid as the same benches under benches/; the report says
// which layout it read. Reading a suite is the verb's: on the fake engine.
func TestRunSeedLayoutSuite(t *testing.T) {
	grids := map[bool]string{}
	for _, seed := range []bool{false, true} {
		suite := tinySuite(t, seed)
		results := t.TempDir()
		code, out, errOut := fakeRun(t, nil, "run", "--suite="+suite, "--subject=c", "--lang=c", "--iters=3", "--count=off", "--results="+results)
		if code != 0 {
			t.Fatalf("seed layout %v: exit %d\n%s", seed, code, errOut)
		}
		grids[seed] = untimed(out)
		reports, _ := filepath.Glob(filepath.Join(results, "*.json"))
		if len(reports) != 1 {
			t.Fatalf("reports %v", reports)
		}
		data, err := os.ReadFile(reports[0])
		if err != nil {
			t.Fatal(err)
		}
		var rep struct {
			SuiteLayout string `json:"suite_layout"`
		}
		if err := json.Unmarshal(data, &rep); err != nil {
			t.Fatal(err)
		}
		if want := map[bool]string{false: "benches", true: "seed"}[seed]; rep.SuiteLayout != want {
			t.Errorf("suite_layout %q, want %q", rep.SuiteLayout, want)
		}
	}
	if grids[false] != grids[true] {
		t.Fatalf("benches/ layout's grid:\n%s\nseed layout's:\n%s", grids[false], grids[true])
	}
	if !strings.Contains(grids[true], "fn_call") || !strings.Contains(grids[true], "stream_aggregator") || !strings.Contains(grids[true], "App benches") {
		t.Fatalf("grid:\n%s", grids[true])
	}
}
