package main

import (
	"flag"
	"io"
	"os"

	"github.com/hale-lang/halebench/orchestrator/termtext"
)

// stderr is the one printer of this process (the signal handler writes
// through it too); a verb sets its mode from --progress.
var stderr = termtext.NewPrinter(os.Stderr)

// outputFlags are --progress and --quiet, on every verb that says progress.
type outputFlags struct {
	progress string
	quiet    bool
}

func (o *outputFlags) addFlags(fs *flag.FlagSet) {
	fs.StringVar(&o.progress, "progress", "auto", "progress on stderr: auto (a live line only when stderr is a terminal), plain (lines only), quiet (nothing)")
	fs.BoolVar(&o.quiet, "quiet", false, "no progress on stderr (as --progress=quiet)")
}

// log sets the process's printer from the flags and returns it; live says
// whether a live line may be drawn.
func (o *outputFlags) log(verb string) (w io.Writer, live bool, err error) {
	mode := o.progress
	if o.quiet {
		mode = "quiet"
	}
	w, live, err = stderr.Progress(mode)
	return w, live, badInput(verb, err)
}
