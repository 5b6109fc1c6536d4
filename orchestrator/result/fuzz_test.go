package result

import (
	"encoding/json"
	"io"
	"os"
	"testing"
)

// seedDocs are stored documents of every kind halebench writes, as the
// fuzzers' seeds: a run report, its older forms, an ab and an xproc result.
var seedDocs = []string{
	"../report/testdata/run-c.json",
	"../report/testdata/before-h2/run-fake.json",
	"../report/testdata/before-h2/filled.json",
	"testdata/today/ab-20261206T101112Z-abc123.json",
	"testdata/today/xproc-20261206T111213Z.json",
}

// FuzzDocs: whatever two stored documents hold, their readers — show
// (Decode, what Read gives the bounded reader's bytes to; Show as grid and
// Markdown) and merge (both checked as shards as Files checks them, joined,
// the join shown) — return a value or an error, and never panic. go test runs the seeds and
// testdata/fuzz/FuzzDocs; go test -fuzz=FuzzDocs searches further.
func FuzzDocs(f *testing.F) {
	var docs [][]byte
	for _, p := range seedDocs {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		docs = append(docs, data)
	}
	for _, d := range docs {
		f.Add(d, d)
	}
	sh := shards(2) // two shards of one run: a merge that joins
	a, _ := json.Marshal(sh[0].Report)
	b, _ := json.Marshal(sh[1].Report)
	f.Add(a, b)
	// The shards of one run whose partition_digest is short: merge once
	// panicked slicing it for the merged run id.
	for _, s := range sh {
		s.Report.Shard.Digest = "sha256:abc"
	}
	a, _ = json.Marshal(sh[0].Report)
	b, _ = json.Marshal(sh[1].Report)
	f.Add(a, b)
	f.Add(docs[0], docs[3])
	f.Fuzz(func(t *testing.T, a, b []byte) {
		d, err := Decode("a.json", a)
		if (d == nil) == (err == nil) {
			t.Fatalf("Decode: a value and an error, or neither: %v %v", d, err)
		}
		if d == nil {
			return
		}
		Show(io.Discard, d, false)
		Show(io.Discard, d, true)
		_, _ = d.Value(), d.Shard()
		// merge: both checked as shards (readShard), then joined.
		e, err := Decode("b.json", b)
		if err != nil || checkShard(d) != nil || checkShard(e) != nil {
			return
		}
		m, err := Docs([]*Doc{d, e}, "2026-01-01T00:00:00Z")
		if (m == nil) == (err == nil) {
			t.Fatalf("Docs: a value and an error, or neither: %v %v", m, err)
		}
		if m != nil {
			Show(io.Discard, m, false)
			Parts(io.Discard, m)
		}
	})
}
