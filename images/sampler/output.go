//go:build linux

package main

import (
	"bufio"
	"bytes"
	"io"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// capture keeps the first max bytes of a stream and counts the rest, so a
// bench that prints gigabytes costs no memory.
type capture struct {
	buf     bytes.Buffer
	dropped int64
}

// lineReaders are the readers of the benches' stdout, kept from one
// sample to the next instead of 64 KiB made (and collected) per sample.
var lineReaders = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, 64<<10) }}

// read keeps the bench's stdout, and calls ready (when set) at its first
// whole line that says "ready".
func (c *capture) read(r io.Reader, max int, ready func()) {
	br := lineReaders.Get().(*bufio.Reader)
	br.Reset(r)
	defer func() {
		br.Reset(nil)
		lineReaders.Put(br)
	}()
	whole := true // line starts a line
	for {
		line, err := br.ReadSlice('\n')
		if ready != nil && whole && err != bufio.ErrBufferFull && string(bytes.TrimSpace(line)) == "ready" {
			ready()
			ready = nil
		}
		whole = err != bufio.ErrBufferFull
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
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			return
		}
	}
}

// tailBuffer keeps the last max bytes written to it. With watch set it
// also notes, over the whole stream and not only the tail it keeps, the
// pid of every line Valgrind writes ("==PID== "): a counted run's stderr,
// where a child could otherwise push Valgrind's lines out of the tail.
type tailBuffer struct {
	mu    sync.Mutex
	max   int
	b     []byte
	watch bool
	carry []byte       // the end of the last write, for a mark split across writes
	marks map[int]bool // pids seen, at most maxMarks
}

// valgrindMark starts each line Valgrind writes; it is looked for anywhere,
// not only at a line's start, since a child's unfinished line may precede
// it.
var valgrindMark = regexp.MustCompile(`==([0-9]{1,10})== `)

const maxMarks = 64

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.watch {
		t.note(p)
	}
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = append(t.b[:0:0], t.b[len(t.b)-t.max:]...)
	}
	return len(p), nil
}

// note records the marks in the stream's carry and p.
func (t *tailBuffer) note(p []byte) {
	if t.marks == nil {
		t.marks = map[int]bool{}
	}
	win := append(t.carry, p...)
	for _, m := range valgrindMark.FindAllSubmatch(win, -1) {
		if pid, err := strconv.Atoi(string(m[1])); err == nil && len(t.marks) < maxMarks {
			t.marks[pid] = true
		}
	}
	keep := min(len(win), 16)
	t.carry = append(t.carry[:0:0], win[len(win)-keep:]...)
}

// marked says whether a line of Valgrind's for pid was seen.
func (t *tailBuffer) marked(pid int) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.marks[pid]
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
