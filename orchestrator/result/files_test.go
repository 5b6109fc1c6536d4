package result

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/report"
)

// Shards of each kind, stored as files, merge through the one path (Files)
// into a document of their kind equal to what the kind's own rule makes of
// them; Parts says each shard in the kind's words.
func TestFilesMergesEveryKind(t *testing.T) {
	dir := t.TempDir()
	var runFiles []string
	for i, s := range shards(3) {
		path := filepath.Join(dir, fmt.Sprintf("run-%d.json", i+1))
		if err := report.WriteFile(path, s.Report); err != nil {
			t.Fatal(err)
		}
		runFiles = append(runFiles, path)
	}
	var abFiles, xprocFiles []string
	for _, s := range abShards(t, 2) {
		abFiles = append(abFiles, s.File)
	}
	for _, s := range xprocShards(t, 3) {
		xprocFiles = append(xprocFiles, s.File)
	}
	for _, c := range []struct {
		kind  Kind
		files []string
		part  string
	}{
		{Run, runFiles, "benches on"},
		{AB, abFiles, "benches on"},
		{Xproc, xprocFiles, "pairs on"},
	} {
		m, err := Files(c.files, "2026-12-06T00:00:00Z")
		if err != nil {
			t.Fatalf("%s: %v", c.kind, err)
		}
		if m.Kind != c.kind || m.Value() == nil || m.Shard() == nil || len(m.Shard().Parts) != len(c.files) || m.Shard().Index != 0 {
			t.Fatalf("%s: merged into kind %s, shard %+v", c.kind, m.Kind, m.Shard())
		}
		var lines bytes.Buffer
		Parts(&lines, m)
		if strings.Count(lines.String(), c.part) != len(c.files) || !strings.Contains(lines.String(), c.files[0]) {
			t.Errorf("%s: parts:\n%s", c.kind, lines.String())
		}
	}
	// The one path joins as the kind's own rule does.
	m, _ := Files(abFiles, "at")
	var abs []ABShard
	for _, f := range abFiles {
		d, _ := readShard(f)
		abs = append(abs, ABShard{File: f, Result: d.AB})
	}
	want, _ := MergeAB(abs, "at")
	if string(mustJSON(t, m.AB)) != string(mustJSON(t, want)) {
		t.Error("Files of ab shards differs from AB of them")
	}
}

// Shards of two kinds are refused, naming both files and their kinds; no
// file at all is refused too.
func TestFilesRefusesMixedKinds(t *testing.T) {
	ab := abShards(t, 2)
	xp := xprocShards(t, 3)
	_, err := Files([]string{ab[0].File, xp[1].File}, "at")
	var rf *Refusal
	if e, ok := err.(*Refusal); ok {
		rf = e
	}
	if rf == nil || rf.File != xp[1].File || !strings.Contains(rf.Why, "an xproc report, but "+ab[0].File+" is an ab result") {
		t.Errorf("mixed kinds: %v", err)
	}
	if _, err := Files(nil, "at"); err == nil {
		t.Error("no files: no refusal")
	}
}

// No file at all is refused saying what to give.
func TestFilesWantsFiles(t *testing.T) {
	if _, err := Files(nil, "now"); err == nil || !strings.HasPrefix(err.Error(), "give the shards' files (each shard's results/run-*.json") {
		t.Errorf("no files: %v", err)
	}
}
