package main

import (
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/hale-lang/halebench/orchestrator/merge"
	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/xprocreport"
)

// mergeXproc joins the shards of one xproc (files, the first an xproc
// report): its two tables (as show prints them) or the JSON on stdout, the
// merged report where asked. A refusal exits 2 naming the file.
func mergeXproc(files []string, jsonOut bool, out, html, junit, summary string) error {
	for _, f := range []struct{ flag, v string }{{"--junit", junit}, {"--html", html}, {"--summary", summary}} {
		if f.v != "" {
			return badInput("merge", fmt.Errorf("merge: %s writes a run's or an ab's outputs; an xproc report has its two tables and its JSON (-o)", f.flag))
		}
	}
	shards, err := readShards(files, merge.ReadXprocFile)
	if err != nil {
		return badInput("merge", fmt.Errorf("merge: %w", err))
	}
	r, err := merge.Xproc(shards, time.Now().UTC().Format(time.RFC3339Nano))
	if err != nil {
		return badInput("merge", fmt.Errorf("merge: %w", err))
	}
	for _, p := range r.Shard.Parts {
		fmt.Fprintf(stderr, "shard %d/%d: %d pairs on %s (%s)\n", p.Index, r.Shard.Total, len(p.Benches), p.Host.Hostname, p.File)
	}
	if out != "" {
		if err := report.WriteFile(out, r); err != nil {
			return fmt.Errorf("merge: %w", err)
		}
		fmt.Fprintf(stderr, "report: %s\n", out)
	}
	if jsonOut {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	}
	xprocreport.Tables(os.Stdout, r)
	return nil
}
