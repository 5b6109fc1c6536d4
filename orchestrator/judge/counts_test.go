package judge

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func copyFixture(t *testing.T, name string) (string, []byte) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "baselines.json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path, data
}

func rawOf(t *testing.T, data []byte) (map[string]json.RawMessage, map[string]map[string]json.RawMessage) {
	t.Helper()
	var top map[string]json.RawMessage
	var benches map[string]map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(top["benches"], &benches); err != nil {
		t.Fatal(err)
	}
	return top, benches
}

func compact(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// UpdateCounts writes the count fields and counts_updated_at, and every
// other value of the file keeps its bytes: hand-written numbers (0.30,
// 1.5e-3), escapes, notes with & and <, keys halebench does not know.
func TestUpdateCountsLeavesTimeAndMemoryAsTheyWere(t *testing.T) {
	path, before := copyFixture(t, "counts-before.json")
	now := time.Date(2026, 12, 4, 12, 0, 0, 0, time.UTC)
	c := Counted{Instructions: 140000051, EstCycles: 140500000, Spread: 0, Scope: "region", Target: "x86-64-v3", Valgrind: "valgrind-3.19.0", Instrument: "callgrind", Digest: "sha256:ab"}
	names, err := UpdateCounts(path, "hale", "", map[string]Counted{"fn_call": c, "fn_modular": c, "new_bench": c}, now)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(names, ",") != "fn_call,fn_modular,new_bench" {
		t.Fatalf("names %v", names)
	}
	after, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	top0, b0 := rawOf(t, before)
	top1, b1 := rawOf(t, after)
	for k, v := range top0 {
		if k != "benches" && compact(t, v) != compact(t, top1[k]) {
			t.Errorf("top-level %s: %s became %s", k, v, top1[k])
		}
	}
	if compact(t, top1["counts_updated_at"]) != `"2026-12-04T12:00:00Z"` {
		t.Errorf("counts_updated_at %s", top1["counts_updated_at"])
	}
	isCount := map[string]bool{}
	for _, k := range CountFields.Keys {
		isCount[k] = true
	}
	for name, e := range b0 {
		for k, v := range e {
			if !isCount[k] && compact(t, v) != compact(t, b1[name][k]) {
				t.Errorf("%s.%s: %s became %s", name, k, v, b1[name][k])
			}
		}
		if len(b1[name]) != len(e)+len(CountFields.Keys)-countOf(e, isCount) {
			t.Errorf("%s: keys %d before, %d after", name, len(e), len(b1[name]))
		}
	}
	f, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		e := f.Benches[name]
		if e.Instructions != 140000051 || e.EstCycles != 140500000 || e.CountTarget != "x86-64-v3" || e.CountScope != "region" ||
			e.ValgrindVersion != "valgrind-3.19.0" || e.CountedDigest != "sha256:ab" || e.CountInstrument != "callgrind" || e.CountTol() != CountBandFloor {
			t.Errorf("%s: counts read back as %+v", name, e)
		}
	}
	if f.Benches["new_bench"].ElapsedNs != 0 || f.UpdatedAt != "2026-11-02T10:00:00Z" {
		t.Errorf("a bench of counts alone has no median; updated_at stays the time figures'")
	}
}

func countOf(e map[string]json.RawMessage, isCount map[string]bool) int {
	n := 0
	for k := range e {
		if isCount[k] {
			n++
		}
	}
	return n
}

// A missing file gets entries of counts alone, which read back, and the subject whose counts they are.
func TestUpdateCountsStartsAFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "b.json")
	c := Counted{Instructions: 5, Spread: 0.01, Scope: "process", Valgrind: "valgrind-3.19.0"}
	if _, err := UpdateCounts(path, "c", "", map[string]Counted{"x": c}, time.Now()); err != nil {
		t.Fatal(err)
	}
	f, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if e := f.Benches["x"]; e.Instructions != 5 || e.CountTol() != 0.04 {
		t.Fatalf("entry %+v band %v", e, e.CountTol())
	}
	// A new file names its subject: another subject's run is not gated by it.
	if f.SubjectOf() != "c" {
		t.Fatalf("a new counts file holds subject %q, want c", f.SubjectOf())
	}
}

// The band: 0.5 % floor, else 4 × the recorded spread; a recorded band
// never loosens under what the spread allows.
func TestCountBand(t *testing.T) {
	for _, c := range []struct{ spread, want float64 }{{0, 0.005}, {0.0001, 0.005}, {0.002, 0.008}, {0.1, 0.4}} {
		if got := CountBandOf(c.spread); got != c.want {
			t.Errorf("CountBandOf(%v) = %v, want %v", c.spread, got, c.want)
		}
	}
	tight, spread := 0.001, 0.01
	if got := (&Entry{CountBand: &tight, CountSpread: &spread}).CountTol(); got != 0.04 {
		t.Errorf("band under the spread's: %v", got)
	}
}

// Count fields are read as hostile input: bounded and in range.
func TestBadCountFields(t *testing.T) {
	for _, c := range []struct{ entry, want string }{
		{`"instructions": 1e20`, "instructions"},
		{`"instructions": -1`, "instructions"},
		{`"instructions": 5, "count_scope": "region"`, "valgrind_version"},
		{`"count_band": 0`, "count_band"},
		{`"count_spread": 2`, "count_spread"},
		{`"count_scope": "everything"`, "count_scope"},
		{`"valgrind_version": "v\u001b[31m"`, "valgrind_version"},
		{`"counted_digest": "` + strings.Repeat("a", 300) + `"`, "counted_digest"},
	} {
		doc := `{"benches": {"b": {"kind": "micro", "elapsed_ns": 5, "maxrss_kb": 1, ` + c.entry + `}}}`
		_, err := Parse("b.json", []byte(doc))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err %v, want one naming %s", c.entry, err, c.want)
		}
	}
	if _, err := Parse("b.json", []byte(`{"benches": {"b": {"elapsed_ns": 0}}}`)); err == nil {
		t.Error("an entry with neither a median nor counts was accepted")
	}
}

// The suite's stored files, their counts written anew as they stand, at
// the time they record, come back byte for byte, but for the record of
// the halebench that wrote them (the stored files predate it).
func TestStoredFilesCountsRoundTrip(t *testing.T) {
	for _, stored := range []string{"../../baselines.json", "../../baselines-c.json"} {
		data, err := os.ReadFile(stored)
		if err != nil {
			t.Fatal(err)
		}
		f, err := Parse(stored, data)
		if err != nil {
			t.Fatal(err)
		}
		c := map[string]Counted{}
		for name, e := range f.Benches {
			if e.HasCounts() {
				c[name] = Counted{Instructions: e.Instructions, EstCycles: e.EstCycles, Spread: *e.CountSpread, Scope: e.CountScope,
					Target: e.CountTarget, Valgrind: e.ValgrindVersion, Instrument: e.CountInstrument, Digest: e.CountedDigest}
			}
		}
		now, err := time.Parse(time.RFC3339, f.CountsUpdatedAt)
		if err != nil || len(c) == 0 {
			t.Fatalf("%s: %v, %d counted", stored, err, len(c))
		}
		path := filepath.Join(t.TempDir(), "baselines.json")
		os.WriteFile(path, data, 0o644)
		if _, err := UpdateCounts(path, f.Subject, "", c, now); err != nil {
			t.Fatal(err)
		}
		got, _ := os.ReadFile(path)
		top, _ := rawOf(t, got)
		if top["halebench"] == nil {
			t.Errorf("%s: counts written anew name no halebench", stored)
		}
		delete(top, "halebench")
		if got, err = encode(top, true); err != nil || !bytes.Equal(got, data) {
			t.Errorf("%s: counts written anew differ from the stored file (%v)", stored, err)
		}
	}
}
