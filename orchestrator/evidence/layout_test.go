package evidence

import (
	"archive/tar"
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// A suite in the seed's layout is bundled as it is: its kind folders, its
// catalogue and baselines, not its README, scripts or results.
func TestBundleCarriesASeedLayoutSuite(t *testing.T) {
	suite := t.TempDir()
	for _, f := range []string{"micro/fn.c", "micro/fn.hl", "app/agg.c", "catalogue.json", "baselines.json", "README.md", "run.sh", "results/run.json"} {
		p := filepath.Join(suite, f)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var out bytes.Buffer
	w := &bundleWriter{tw: tar.NewWriter(&out), m: &Manifest{Files: map[string]string{}}}
	if err := w.addSuite(suite); err != nil {
		t.Fatal(err)
	}
	var got []string
	for name := range w.m.Files {
		got = append(got, name)
	}
	sort.Strings(got)
	want := "suite/app/agg.c suite/baselines.json suite/catalogue.json suite/micro/fn.c suite/micro/fn.hl"
	if strings.Join(got, " ") != want {
		t.Fatalf("bundled %v, want %s", got, want)
	}
}
