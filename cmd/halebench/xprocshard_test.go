package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/enginetest"
	"github.com/hale-lang/halebench/orchestrator/report"
)

// xproc's two shards of C and Go (subject C), run one after another on
// this engine, merge into one xproc report: each pair's row once, from the
// shard whose part owns it, Go's ratio against the C reference its own
// shard measured; the tables as show prints them, each shard's host. The
// refusals exit 2 naming the file: a shard twice or missing, a run report
// among xproc shards or an xproc shard among run reports, a run's output.
func TestMergeXprocShardsOnEngine(t *testing.T) {
	enginetest.Connect(t)
	var files []string
	shards := map[int]*report.XprocReport{}
	for k, spec := range []string{"1/2", "2/2"} {
		dir := t.TempDir()
		code, out, errOut := run(t, nil, "xproc", "--suite=../..", "--lang=c,go", "--subject=c", "--variant=small", "--iters=2",
			"--json", "--progress=plain", "--results="+dir, "--shard="+spec)
		if code != 0 {
			t.Fatalf("xproc --shard=%s: exit %d\n%s", spec, code, errOut)
		}
		var r report.XprocReport
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("xproc --shard=%s: %v\n%s", spec, err, out)
		}
		shards[k+1] = &r
		found, _ := filepath.Glob(filepath.Join(dir, "xproc-*.json"))
		if len(found) != 1 {
			t.Fatalf("shard %s wrote %v", spec, found)
		}
		files = append(files, found[0])
	}
	// small/c is shard 1's (the lower name at equal rows), small/go shard
	// 2's, which measured C beside it as its reference.
	if got := shardRows(shards[2]); got != "go c(reference)" || shardRows(shards[1]) != "c" {
		t.Fatalf("shard 1 measured %s, shard 2 %s", shardRows(shards[1]), shardRows(shards[2]))
	}
	goRow, cRef := shards[2].Variants["small"][0], shards[2].Variants["small"][1]
	if goRow.Status != "ok" || cRef.Status != "ok" || goRow.RatioVsSubject == nil || goRow.Check != cRef.Check {
		t.Fatalf("shard 2: go %+v, c reference %+v", goRow, cRef)
	}
	out := filepath.Join(t.TempDir(), "merged.json")
	code, stdout, errOut := run(t, nil, "merge", "--json", "-o", out, files[1], files[0])
	if code != 0 {
		t.Fatalf("merge: exit %d\n%s", code, errOut)
	}
	var m report.XprocReport
	if err := json.Unmarshal([]byte(stdout), &m); err != nil {
		t.Fatal(err)
	}
	rows := m.Variants["small"]
	if m.Schema != report.XprocSchema || !m.Merged() || len(m.Shard.Parts) != 2 || len(rows) != 2 || rows[0].Row != "go" || rows[1].Row != "c" {
		t.Fatalf("merged: %+v, rows %s", m.Shard, shardRows(&m))
	}
	if sd := shards[1].Shard.SuiteSourcesDigest; m.SourcesDigest != sd || !strings.HasPrefix(shards[1].SourcesDigest, "sha256:") || shards[1].SourcesDigest == shards[2].SourcesDigest {
		t.Errorf("sources digests: merged %q, the suite's %q, the shards' %q and %q", m.SourcesDigest, sd, shards[1].SourcesDigest, shards[2].SourcesDigest)
	}
	if rows[0].Shard != 2 || *rows[0].RatioVsSubject != *goRow.RatioVsSubject || rows[0].ElapsedNsMedian != goRow.ElapsedNsMedian ||
		rows[1].Shard != 1 || rows[1].ElapsedNsMedian != shards[1].Variants["small"][0].ElapsedNsMedian || rows[1].Reference {
		t.Errorf("merged rows: go %+v\nc %+v", rows[0], rows[1])
	}
	code, tables, errOut := run(t, nil, append([]string{"merge"}, files...)...)
	_, shown, _ := run(t, nil, "show", out)
	if code != 0 || !strings.Contains(tables, "merged from 2 shards") || !strings.Contains(tables, "shard 2/2: host") || tables[strings.Index(tables, "\n"):] != shown[strings.Index(shown, "\n"):] {
		t.Errorf("merge: exit %d\n%s\nshow:\n%s\n%s", code, tables, shown, errOut)
	}
	runShard := writeShards(t)[0]
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{files[0], files[0]}, files[0] + ": shard 1/2 is given twice"},
		{[]string{files[1]}, "shard(s) 1 of them are missing"},
		{[]string{files[0], runShard}, runShard + ": a run report, but " + files[0] + " is an xproc report"},
		{[]string{runShard, files[0]}, files[0] + ": an xproc report, but " + runShard + " is a run report"},
		{[]string{"--junit", "x.xml", files[0], files[1]}, "--junit writes a run's or an ab's outputs"},
	} {
		code, _, errOut := run(t, nil, append([]string{"merge"}, c.args...)...)
		if code != 2 || !strings.Contains(errOut, c.want) {
			t.Errorf("merge %v: exit %d, %q; want 2 and %q", c.args, code, errOut, c.want)
		}
	}
}

// shardRows lists a report's small rows, a reference marked.
func shardRows(r *report.XprocReport) string {
	var out []string
	for _, res := range r.Variants["small"] {
		name := res.Row
		if res.Reference {
			name += "(reference)"
		}
		out = append(out, name)
	}
	return strings.Join(out, " ")
}
