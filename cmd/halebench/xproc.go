package main

import (
	"context"

	"github.com/hale-lang/halebench/orchestrator/harness"
)

func runXproc(ctx context.Context, args []string) error {
	return &harness.UsageError{Msg: "xproc: not built yet"}
}
