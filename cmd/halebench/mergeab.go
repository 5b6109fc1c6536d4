package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/hale-lang/halebench/orchestrator/abreport"
	"github.com/hale-lang/halebench/orchestrator/atomicfile"
	"github.com/hale-lang/halebench/orchestrator/merge"
	"github.com/hale-lang/halebench/orchestrator/report"
)

// mergeAB joins the shards of one ab (files, the first an ab result):
// the grid or the JSON on stdout, the merged result, its page and its
// Markdown where asked. A refusal exits 2 naming the file.
func mergeAB(files []string, jsonOut bool, out, html, junit, summary string) error {
	if junit != "" {
		return badInput("merge", errors.New("merge: --junit writes a run's benches; ab shards have no JUnit form (use --summary for the Markdown table)"))
	}
	shards, err := readShards(files, merge.ReadABFile)
	if err != nil {
		return badInput("merge", fmt.Errorf("merge: %w", err))
	}
	r, err := merge.AB(shards, time.Now().UTC().Format(time.RFC3339Nano))
	if err != nil {
		return badInput("merge", fmt.Errorf("merge: %w", err))
	}
	for _, p := range r.Shard.Parts {
		fmt.Fprintf(stderr, "shard %d/%d: %d benches on %s (%s)\n", p.Index, r.Shard.Total, len(p.Benches), p.Host.Hostname, p.File)
	}
	if out != "" {
		if err := report.WriteFile(out, r); err != nil {
			return fmt.Errorf("merge: %w", err)
		}
		fmt.Fprintf(stderr, "result: %s\n", out)
	}
	if html != "" {
		if err := atomicfile.Write(html, 0o644, func(w io.Writer) error { return abreport.HTML(w, r) }); err != nil {
			return fmt.Errorf("merge: --html=%s: %w", html, err)
		}
	}
	for _, path := range []string{summary, os.Getenv("GITHUB_STEP_SUMMARY")} {
		if path == "" {
			continue
		}
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
		if err != nil {
			return fmt.Errorf("merge: summary %s: %w", path, err)
		}
		abreport.Markdown(f, r)
		if err := f.Close(); err != nil {
			return fmt.Errorf("merge: summary %s: %w", path, err)
		}
	}
	if jsonOut {
		return abreport.JSON(os.Stdout, r)
	}
	abreport.Grid(os.Stdout, r)
	return nil
}
