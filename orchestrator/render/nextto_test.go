package render

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/result"
)

// run --html draws the page from the report in memory: what is on disk
// beside it (here, something that is no report at all) is not read back.
func TestNextToDrawsFromTheValues(t *testing.T) {
	r, err := result.ReadRun(fixture, "report")
	if err != nil {
		t.Fatal(err)
	}
	r.Benches[0].Name = "drawn_from_memory"
	jsonPath := filepath.Join(t.TempDir(), "run-x.json")
	if err := os.WriteFile(jsonPath, []byte("not the report"), 0o644); err != nil {
		t.Fatal(err)
	}
	path, err := NextTo(jsonPath, r)
	if err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if path != strings.TrimSuffix(jsonPath, ".json")+".html" || !strings.Contains(string(page), "drawn_from_memory") {
		t.Fatalf("page %s does not draw the report given", path)
	}
}
