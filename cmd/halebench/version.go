package main

import (
	"context"
	"encoding/json"
	"flag"
	"os"

	"github.com/hale-lang/halebench/orchestrator/stamp"
)

const versionHelp = `Usage: halebench version [--json]     (also: halebench --version)

Which halebench this is: its version, the git commit it was built from, that
commit's time, and whether the tree had uncommitted changes (dirty), as go
build stamped them into the binary. Every document halebench writes records
the same in its "halebench" field; verify and replay note when a report was
made by another halebench. A binary built with go run, with -buildvcs=false
or outside a git checkout has no commit, and says so. A release sets its
version at link time:
  go build -ldflags "-X github.com/hale-lang/halebench/orchestrator/stamp.Version=v1.2.0" ./cmd/halebench

Flags:
`

func runVersion(_ context.Context, args []string) error {
	fs := flag.NewFlagSet("version", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print the record documents carry, as JSON")
	if _, err := parseN(fs, args, versionHelp, 0, ""); err != nil {
		return err
	}
	t := stamp.This()
	if *asJSON {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(t)
	}
	t.Text(os.Stdout)
	return nil
}
