//go:build linux

package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"

	"github.com/hale-lang/halebench/images/sampler/wire"
)

// parsed is what a bench's stdout says.
type parsed struct {
	status  string
	detail  string
	elapsed int64
	check   string
}

// maxCheck bounds a check= line: a workload digest is a few dozen bytes,
// and every sample's check goes into the report.
const maxCheck = 256

// parseOutput reads a bench's stdout: exactly one elapsed_ns=N line with N a
// positive integer (an "ns" unit may follow it), at most one check= line of
// at most maxCheck bytes. Output cut at the cap is bad output even when the
// line is there: the bench did not do what it says.
func parseOutput(out []byte, dropped int64) parsed {
	if dropped > 0 {
		return parsed{status: wire.StatusBadOutput, detail: fmt.Sprintf("stdout over the cap: %d bytes dropped", dropped)}
	}
	var elapsed []string
	var checks []string
	for _, line := range strings.Split(string(out), "\n") {
		line = strings.TrimRight(line, "\r")
		switch {
		case strings.HasPrefix(line, "elapsed_ns="):
			elapsed = append(elapsed, strings.TrimPrefix(line, "elapsed_ns="))
		case strings.HasPrefix(line, "check="):
			checks = append(checks, strings.TrimPrefix(line, "check="))
		}
	}
	if len(elapsed) == 0 {
		return parsed{status: wire.StatusNoElapsed, detail: "no elapsed_ns=N line on stdout"}
	}
	if len(elapsed) > 1 {
		return parsed{status: wire.StatusBadOutput, detail: fmt.Sprintf("%d elapsed_ns lines, want one", len(elapsed))}
	}
	n, ok := parseElapsed(elapsed[0])
	if !ok {
		return parsed{status: wire.StatusBadOutput, detail: fmt.Sprintf("elapsed_ns=%q is not a positive integer of nanoseconds", tail(elapsed[0], 40))}
	}
	if len(checks) > 1 {
		return parsed{status: wire.StatusBadOutput, detail: fmt.Sprintf("%d check lines, want at most one", len(checks))}
	}
	p := parsed{status: wire.StatusOK, elapsed: n}
	if len(checks) == 1 {
		p.check = strings.TrimSpace(checks[0])
	}
	if len(p.check) > maxCheck {
		return parsed{status: wire.StatusBadOutput, detail: fmt.Sprintf("check line of %d bytes, want at most %d", len(p.check), maxCheck)}
	}
	return p
}

// capture keeps the first max bytes of a stream and counts the rest, so a
// bench that prints gigabytes costs no memory.
type capture struct {
	buf     bytes.Buffer
	dropped int64
}

// lineReaders are the readers of the benches' stdout, kept from one
// sample to the next instead of 64 KiB made (and collected) per sample.
var lineReaders = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, 64<<10) }}

func (c *capture) read(r io.Reader, max int, tee bool) {
	br := lineReaders.Get().(*bufio.Reader)
	br.Reset(r)
	defer func() {
		br.Reset(nil)
		lineReaders.Put(br)
	}()
	for {
		line, err := br.ReadSlice('\n')
		if len(line) > 0 {
			if room := max - c.buf.Len(); room > 0 {
				if len(line) <= room {
					c.buf.Write(line)
				} else {
					c.buf.Write(line[:room])
					c.dropped += int64(len(line) - room)
				}
			} else {
				c.dropped += int64(len(line))
			}
			// A bench's line that looks like a result is not teed: only
			// the sampler speaks that way on its stdout.
			if tee && c.dropped == 0 && !bytes.HasPrefix(line, []byte(wire.ResultPrefix)) {
				os.Stdout.Write(line)
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			return
		}
	}
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = append(t.b[:0:0], t.b[len(t.b)-t.max:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.b)
}

func tail(s string, n int) string {
	s = strings.TrimSpace(s)
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}

// parseElapsed reads the value of an elapsed_ns= line: digits, then
// optionally the unit "ns". Hale prints a Duration with its unit
// (`elapsed_ns=9373585ns`) and the seed's harness took the digits in front of
// it; any other unit (1.5ms, 2s) is not nanoseconds and is refused rather
// than converted.
func parseElapsed(v string) (int64, bool) {
	v = strings.TrimSuffix(strings.TrimSpace(v), "ns")
	if v == "" {
		return 0, false
	}
	for _, r := range v {
		if r < '0' || r > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n <= 0 {
		return 0, false
	}
	return n, true
}
