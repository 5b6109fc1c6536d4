//go:build linux

package main

import (
	"bufio"
	"bytes"
	"io"
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
