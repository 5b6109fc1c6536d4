// The one printer of a process's stderr: the live progress line kept at
// the bottom, every line above it cleaned on its way out.

package termtext

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"sync"

	"golang.org/x/sys/unix"
)

// eraseLine is what the harness writes before a live line or a step line
// that replaces it: carriage return and erase to the end of the line.
var eraseLine = []byte("\r\033[K")

// Printer owns stderr: every progress, step and warning line goes through
// it. On a terminal (live) it keeps the one live line — the text written
// after an eraseLine with no newline — at the bottom: before a whole line
// it erases the live line, and after it draws it again, so nothing is
// printed over it. Plain: lines pass through; quiet: nothing. Every line is
// cleaned by termtext on its way out: much of what goes to stderr (a build
// log's tail, a compiler's message, a commit subject, an error quoting
// them) was written by others, and stderr is what a CI runner reads
// commands from.
type Printer struct {
	mu      sync.Mutex
	out     io.Writer
	live    bool   // draw the live line (a terminal): SetLive
	shown   []byte // the live line now drawn
	partial []byte // a whole line not yet ended
	final   string // said by Close, after everything else
}

func (p *Printer) Write(b []byte) (int, error) {
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
func (p *Printer) line(l []byte) {
	l = []byte(Clean(string(l)))
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
func (p *Printer) redraw(l []byte) {
	if !p.live {
		return
	}
	l = []byte(Line(string(l)))
	if len(p.shown) > 0 || len(l) > 0 {
		p.out.Write(append(append([]byte{}, eraseLine...), l...))
	}
	p.shown = append([]byte{}, l...)
}

// Close ends an unfinished line, takes the live line away and says the
// final line, if one was set.
func (p *Printer) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.partial) > 0 {
		p.line(append(p.partial, '\n'))
		p.partial = nil
	}
	p.redraw(nil)
	if p.final != "" {
		p.out.Write([]byte(Line(p.final) + "\n"))
		p.final = ""
	}
}

// SayLast sets the line Close says after every other line: run's verdict,
// which a CI log shows last whatever is said between now and the exit.
func (p *Printer) SayLast(line string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.final = line
}

// NewPrinter is a printer on out, plain until SetLive.
func NewPrinter(out io.Writer) *Printer { return &Printer{out: out} }

// SetLive says whether the live line is drawn (out is a terminal).
func (p *Printer) SetLive(live bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.live = live
}

// Progress sets the printer from a verb's --progress mode and returns where
// progress goes: quiet discards it, plain prints lines only, auto draws the
// live line only when out is a terminal. live says whether a live line may
// be drawn.
func (p *Printer) Progress(mode string) (w io.Writer, live bool, err error) {
	switch mode {
	case "quiet":
		return io.Discard, false, nil
	case "plain":
		live = false
	case "auto":
		f, ok := p.out.(*os.File)
		live = ok && IsTerminal(f)
	default:
		return nil, false, fmt.Errorf("--progress=%s: want auto, plain or quiet", mode)
	}
	p.SetLive(live)
	return p, live, nil
}

// IsTerminal says whether f is a terminal (the live line is drawn only
// there).
func IsTerminal(f *os.File) bool {
	_, err := unix.IoctlGetTermios(int(f.Fd()), unix.TCGETS)
	return err == nil
}
