package termtext

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"
)

// On a terminal, a whole line written while the live line is shown is put
// above it, never over it: the live line is erased first and drawn again
// after. Plain output carries no escape at all.
func TestPrinterKeepsLiveLineBelow(t *testing.T) {
	var out bytes.Buffer
	p := livePrinter(&out)
	fmt.Fprint(p, "\r\033[K[1/2] count c sample 1 of 5…")
	fmt.Fprintf(p, "confirm: count c is over its band; 5 more samples\n")
	fmt.Fprint(p, "warning: par")
	fmt.Fprint(p, "tial line\n")
	fmt.Fprint(p, "\r\033[K")
	fmt.Fprintf(p, "[1/2] count c median 1 ms\n")
	p.Close()
	want := "\r\033[K[1/2] count c sample 1 of 5…" +
		"\r\033[Kconfirm: count c is over its band; 5 more samples\n[1/2] count c sample 1 of 5…" +
		"\r\033[Kwarning: partial line\n[1/2] count c sample 1 of 5…" +
		"\r\033[K" +
		"[1/2] count c median 1 ms\n"
	if out.String() != want {
		t.Fatalf("got  %q\nwant %q", out.String(), want)
	}
	// Each whole line starts on a clean line: right after an erase.
	for _, l := range []string{"confirm:", "warning:"} {
		if i := strings.Index(out.String(), l); i < 3 || out.String()[i-3:i] != "\033[K" {
			t.Fatalf("%s printed over the live line: %q", l, out.String())
		}
	}

	out.Reset()
	plain := NewPrinter(&out)
	fmt.Fprintf(plain, "images: ready\n")
	fmt.Fprint(plain, "no newline yet")
	plain.Close()
	if out.String() != "images: ready\nno newline yet\n" {
		t.Fatalf("plain: %q", out.String())
	}
}

// The final line (run's verdict) comes after every other line, the live
// line erased first, whenever it was set; Close says it once.
func TestPrinterSaysFinalLineLast(t *testing.T) {
	var out bytes.Buffer
	p := livePrinter(&out)
	fmt.Fprint(p, "\r\033[K[3/3] fn_b hale sample 2 of 5…")
	p.SayLast("halebench: verdict regression — 1 regression (fn_a +31.0% time), 1 ok")
	fmt.Fprintln(p, "halebench: the subject regressed against its baseline (see the report)")
	p.Close()
	p.Close()
	got := out.String()
	want := "halebench: the subject regressed against its baseline (see the report)\n[3/3] fn_b hale sample 2 of 5…\r\033[Khalebench: verdict regression — 1 regression (fn_a +31.0% time), 1 ok\n"
	if !strings.HasSuffix(got, want) || strings.Count(got, "verdict") != 1 {
		t.Fatalf("got  %q\nwant …%q", got, want)
	}
}

// Whatever a build log, a compiler or a commit subject put in a line, the
// printer lets no CI command and no escape through to stderr, live or
// plain; the live line stays one line.
func TestPrinterCleansEveryLine(t *testing.T) {
	for _, live := range []bool{false, true} {
		var out bytes.Buffer
		p := printerOn(&out, live)
		fmt.Fprint(p, "\r\033[K[1/2] sample of   ::error::live\n::warning::x")
		fmt.Fprintf(p, "toolchain hale: build failed:\n    ::error file=a::planted\n\x1b]0;title\x07done\n")
		fmt.Fprintf(p, "bisect: building 0123456789ab fix ##vso[task.setvariable variable=x]1\n")
		fmt.Fprint(p, "partial   ::error::")
		fmt.Fprint(p, "x\n\t::add-mask::y")
		p.SayLast("halebench:\n::error::last")
		p.Close()
		got := strings.ReplaceAll(out.String(), string(eraseLine), "\n")
		for _, l := range strings.Split(got, "\n") {
			low := strings.ToLower(l)
			if strings.HasPrefix(strings.TrimLeft(l, " \t"), "::") || strings.Contains(low, "##vso[") || strings.Contains(low, "##[") {
				t.Errorf("live=%v: the line %q reaches stderr in\n%q", live, l, out.String())
			}
		}
		if strings.Contains(strings.ReplaceAll(out.String(), string(eraseLine), ""), "\x1b") {
			t.Errorf("live=%v: an escape other than the printer's own: %q", live, out.String())
		}
		if !strings.Contains(got, "planted") || !strings.Contains(got, "vso[task.setvariable") {
			t.Errorf("live=%v: the text itself was lost: %q", live, out.String())
		}
	}
}

func printerOn(out io.Writer, live bool) *Printer {
	p := NewPrinter(out)
	p.SetLive(live)
	return p
}

func livePrinter(out io.Writer) *Printer { return printerOn(out, true) }

// --progress: quiet discards, plain and auto off a terminal print lines
// only (no live line), anything else is refused naming the flag.
func TestPrinterProgress(t *testing.T) {
	var out bytes.Buffer
	p := NewPrinter(&out)
	if w, live, err := p.Progress("quiet"); err != nil || live || w != io.Discard {
		t.Errorf("quiet: %v %v %v", w, live, err)
	}
	for _, mode := range []string{"plain", "auto"} {
		if w, live, err := p.Progress(mode); err != nil || live || w != p {
			t.Errorf("%s on a buffer: %v %v %v", mode, w, live, err)
		}
	}
	if _, _, err := p.Progress("loud"); err == nil || err.Error() != "--progress=loud: want auto, plain or quiet" {
		t.Errorf("loud: %v", err)
	}
}
