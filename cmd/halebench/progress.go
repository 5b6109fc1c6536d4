package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/hale-lang/halebench/orchestrator/termtext"
)

// eraseLine is what the harness writes before a live line or a step line
// that replaces it: carriage return and erase to the end of the line.
var eraseLine = []byte("\r\033[K")

// printer owns stderr: every progress, step and warning line goes through
// it. On a terminal (live) it keeps the one live line — the text written
// after an eraseLine with no newline — at the bottom: before a whole line
// it erases the live line, and after it draws it again, so nothing is
// printed over it. Plain: lines pass through; quiet: nothing. Every line is
// cleaned by termtext on its way out: much of what goes to stderr (a build
// log's tail, a compiler's message, a commit subject, an error quoting
// them) was written by others, and stderr is what a CI runner reads
// commands from.
type printer struct {
	mu      sync.Mutex
	out     io.Writer
	live    bool   // draw the live line (a terminal)
	shown   []byte // the live line now drawn
	partial []byte // a whole line not yet ended
	final   string // said by Close, after everything else
}

func (p *printer) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	data := append(p.partial, b...)
	p.partial = nil
	replacing := false
	for len(data) > 0 {
		switch i := bytes.IndexByte(data, '\n'); {
		case bytes.HasPrefix(data, eraseLine):
			data, replacing = data[len(eraseLine):], true
			p.redraw(nil)
		case i >= 0:
			p.line(data[:i+1])
			data = data[i+1:]
		case replacing:
			p.redraw(data)
			data = nil
		default:
			p.partial = append([]byte{}, data...)
			data = nil
		}
	}
	return len(b), nil
}

// line prints one whole line above the live line.
func (p *printer) line(l []byte) {
	l = []byte(termtext.Clean(string(l)))
	if !p.live || len(p.shown) == 0 {
		p.out.Write(l)
		return
	}
	var b bytes.Buffer
	b.Write(eraseLine)
	b.Write(l)
	b.Write(p.shown)
	p.out.Write(b.Bytes())
}

// redraw replaces the live line by l (nil: none).
func (p *printer) redraw(l []byte) {
	if !p.live {
		return
	}
	l = []byte(termtext.Line(string(l)))
	if len(p.shown) > 0 || len(l) > 0 {
		p.out.Write(append(append([]byte{}, eraseLine...), l...))
	}
	p.shown = append([]byte{}, l...)
}

// Close ends an unfinished line, takes the live line away and says the
// final line, if one was set.
func (p *printer) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.partial) > 0 {
		p.line(append(p.partial, '\n'))
		p.partial = nil
	}
	p.redraw(nil)
	if p.final != "" {
		p.out.Write([]byte(termtext.Line(p.final) + "\n"))
		p.final = ""
	}
}

// sayLast sets the line Close says after every other line: run's verdict,
// which a CI log shows last whatever is said between now and the exit.
func (p *printer) sayLast(line string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.final = line
}

// stderr is the one printer of this process (the signal handler writes
// through it too); a verb sets its mode from --progress.
var stderr = &printer{out: os.Stderr}

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
	stderr.mu.Lock()
	defer stderr.mu.Unlock()
	switch mode {
	case "quiet":
		return io.Discard, false, nil
	case "plain":
		stderr.live = false
	case "auto":
		stderr.live = isTerminal(os.Stderr)
	default:
		return nil, false, badInput(verb, fmt.Errorf("--progress=%s: want auto, plain or quiet", o.progress))
	}
	return stderr, stderr.live, nil
}
