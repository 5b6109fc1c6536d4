package baseline

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestSeedFileLoadsUnchanged(t *testing.T) {
	f, err := Load("testdata/seed-baselines.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Benches) != 22 {
		t.Fatalf("%d benches, want 22", len(f.Benches))
	}
	fc := f.Benches["fn_call"]
	if fc.ElapsedNs != 19138505 || fc.MaxRSSKB != 5544 || fc.Tol() != 0.3 || fc.Kind != "micro" {
		t.Fatalf("fn_call = %+v", fc)
	}
	if f.Benches["bus_dispatch_cross_pool"].Tol() != 0.4 {
		t.Fatal("bus_dispatch_cross_pool tolerance not kept")
	}
}

func TestRegressed(t *testing.T) {
	tol := 0.3
	e := &Entry{ElapsedNs: 1000, Tolerance: &tol}
	cases := []struct {
		median int64
		want   bool
	}{{500, false}, {1000, false}, {1300, false}, {1301, true}, {5000, true}}
	for _, c := range cases {
		if got := e.Regressed(c.median); got != c.want {
			t.Errorf("Regressed(%d) = %v, want %v", c.median, got, c.want)
		}
	}
	if (&Entry{ElapsedNs: 100}).Limit() != 130 {
		t.Fatal("default tolerance is not 0.30")
	}
}

func TestInvalidFiles(t *testing.T) {
	cases := map[string]string{
		"syntax":      "{\n  \"benches\": {,}\n}",
		"no benches":  `{"updated_at": "x"}`,
		"bad type":    `{"benches": {"a": {"elapsed_ns": "fast"}}}`,
		"nonpositive": `{"benches": {"a": {"elapsed_ns": 0}}}`,
		"tolerance":   `{"benches": {"a": {"elapsed_ns": 5, "tolerance": -1}}}`,
		"null":        `{"benches": {"a": null}}`,
	}
	for name, doc := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := Parse("b.json", []byte(doc))
			if err == nil || !strings.Contains(err.Error(), "baselines b.json") {
				t.Fatalf("err = %v", err)
			}
		})
	}
	_, err := Parse("b.json", []byte("{\n  \"benches\": {,}\n}"))
	if !strings.Contains(err.Error(), "line 2") {
		t.Fatalf("syntax error does not name the line: %v", err)
	}
}

func TestUpdateKeepsToleranceAndNote(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "baselines.json")
	seed, _ := os.ReadFile("testdata/seed-baselines.json")
	os.WriteFile(path, seed, 0o644)
	names, err := Update(path, map[string]Measured{
		"bus_dispatch_cross_pool": {Kind: "micro", ElapsedNs: 42, MaxRSSKB: 7, MemPeakKB: 9},
		"brand_new":               {Kind: "micro", ElapsedNs: 5},
	}, Provenance{Subject: "hale", Toolchain: "hale 0.17.0"}, time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC))
	if err != nil || len(names) != 2 {
		t.Fatal(names, err)
	}
	f, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	e := f.Benches["bus_dispatch_cross_pool"]
	if e.ElapsedNs != 42 || e.MemPeakKB != 9 || e.Tol() != 0.4 || !strings.HasPrefix(e.Note, "F.32-1 baseline") {
		t.Fatalf("updated entry %+v", e)
	}
	if f.Benches["brand_new"].Tol() != DefaultTolerance || f.Benches["fn_call"].ElapsedNs != 19138505 {
		t.Fatal("new or untouched entries wrong")
	}
	if f.UpdatedAt != "2026-12-02T00:00:00Z" || f.HaleVersion != "hale 0.17.0" {
		t.Fatalf("header %+v", f)
	}
	left, _ := filepath.Glob(filepath.Join(dir, "*.tmp-*"))
	if len(left) != 0 {
		t.Fatalf("temporary files left: %v", left)
	}
}

func TestConcurrentUpdatesLoseNothing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "baselines.json")
	var wg sync.WaitGroup
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			if _, err := Update(path, map[string]Measured{fmt.Sprint("b", i): {ElapsedNs: int64(i + 1)}}, Provenance{}, time.Now()); err != nil {
				t.Error(err)
			}
		}(i)
	}
	wg.Wait()
	f, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Benches) != 20 {
		t.Fatalf("%d benches after 20 concurrent updates, want 20", len(f.Benches))
	}
}

func TestInvalidFileIsLeftUntouched(t *testing.T) {
	path := filepath.Join(t.TempDir(), "baselines.json")
	bad := []byte(`{"benches": {"a": {"elapsed_ns": "x"}}}`)
	os.WriteFile(path, bad, 0o644)
	if _, err := Update(path, map[string]Measured{"a": {ElapsedNs: 1}}, Provenance{}, time.Now()); err == nil {
		t.Fatal("update of an invalid file succeeded")
	}
	got, _ := os.ReadFile(path)
	if string(got) != string(bad) {
		t.Fatal("invalid file was changed")
	}
}
