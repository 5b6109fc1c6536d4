package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/hale-lang/halebench/orchestrator/report"
)

// graceBudget is how long the first signal lets a run wind down (remove its
// containers, write its partial report) before halebench removes what it
// owns by itself and exits 130: a run ends within 20 s of a signal whatever
// its benches do.
const graceBudget = 15 * time.Second

// reports is where the verb writes its reports, for the hard exit to say
// whether the partial report was written.
var reports report.Partial

// signalContext is cancelled by SIGINT, SIGTERM or SIGHUP. A second signal,
// or a run that has not wound down within graceBudget, exits 130 at once
// after a short best-effort removal of this process's containers.
func signalContext() (context.Context, func()) {
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	go func() {
		sig := <-sigs
		reports.Signaled(time.Now())
		fmt.Fprintf(stderr, "halebench: %v: stopping (a second signal exits at once)\n", sig)
		cancel()
		select {
		case sig = <-sigs:
			fmt.Fprintf(stderr, "halebench: %v again: exiting now\n", sig)
			hardExit(2 * time.Second)
		case <-time.After(graceBudget):
			fmt.Fprintf(stderr, "halebench: the run did not stop within %s: exiting now\n", graceBudget)
			hardExit(4 * time.Second)
		}
	}()
	return ctx, func() { signal.Stop(sigs); cancel() }
}

// hardExit removes the containers this process made, within budget, says
// whether the partial report was written, and exits 130. What it misses,
// the next run's orphan sweep removes: this process is then provably gone.
func hardExit(budget time.Duration) {
	ctx, cancel := context.WithTimeout(context.Background(), budget)
	defer cancel()
	if eng, err := dial(ctx); err == nil {
		if n, err := eng.RemoveOwned(ctx); err != nil {
			fmt.Fprintf(stderr, "halebench: removed %d containers, then: %v (the next run removes the rest)\n", n, err)
		}
	}
	fmt.Fprintf(stderr, "halebench: %s\n", reports.Written())
	stderr.Close()
	os.Exit(130)
}
