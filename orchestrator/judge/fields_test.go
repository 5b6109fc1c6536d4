package judge

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A metric's declared fields are checked on every read and written by its
// record; a key another metric owns is refused; taken back out, its key
// is one halebench does not know, kept as it was.
func TestDeclaredFields(t *testing.T) {
	gc := &Fields{Metric: "gc_count", Keys: []string{"gc_count"}, Check: func(where string, e *Entry) string {
		var n int64
		if ok, err := e.Figure("gc_count", &n); ok && (err != nil || n < 0) {
			return where + "field gc_count must be 0 or more"
		}
		return ""
	}}
	undo := Declare(gc)
	doc := `{"benches": {"a": {"kind": "micro", "elapsed_ns": 100, "maxrss_kb": 1, "gc_count": -2}}}`
	if _, err := Parse("b.json", []byte(doc)); err == nil || !strings.Contains(err.Error(), "bench a: field gc_count must be 0 or more") {
		t.Fatalf("a negative gc_count read: %v", err)
	}
	path := filepath.Join(t.TempDir(), "baselines.json")
	m := map[string]Measured{"a": {Kind: "micro", Record: func(e *Entry) {
		e.ElapsedNs = 100
		if err := e.SetFigure("gc_count", 7); err != nil || e.SetFigure("elapsed_ns", 1) == nil {
			t.Errorf("SetFigure: %v", err)
		}
	}}}
	if _, _, err := Update(path, m, Provenance{Subject: "c"}, time.Unix(0, 0)); err != nil {
		t.Fatal(err)
	}
	f, err := Load(path)
	var n int64
	if ok, ferr := f.Benches["a"].Figure("gc_count", &n); err != nil || !ok || ferr != nil || n != 7 {
		t.Fatalf("gc_count read back: %v %v %v %d", err, ok, ferr, n)
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("mem_kb declared by a second metric was accepted")
			}
		}()
		Declare(&Fields{Metric: "rss", Keys: []string{"mem_kb"}})
	}()
	undo()
	if _, err := Parse("b.json", []byte(doc)); err != nil {
		t.Fatalf("undeclared, gc_count is an unknown key: %v", err)
	}
	data, _ := os.ReadFile(path)
	if !strings.Contains(string(data), `"gc_count": 7`) {
		t.Fatalf("gc_count not written:\n%s", data)
	}
}

// With no metric declared, nothing is trusted: every entry is refused.
func TestNothingDeclared(t *testing.T) {
	saved := declared
	declared = nil
	defer func() { declared = saved }()
	if _, err := Parse("b.json", []byte(`{"benches": {"a": {"elapsed_ns": 100}}}`)); err == nil || !strings.Contains(err.Error(), "no metric declared its fields") {
		t.Fatalf("err %v", err)
	}
}
