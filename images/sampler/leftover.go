//go:build linux

package main

// What the compile stage leaves in /bench/bin is the compiler's (under test
// in ab and bisect): the sampler, root here, reads its build_failed notes
// without following a link, without blocking on a FIFO or a device, only
// from a regular file and at most noteCap bytes, so nothing the compile
// points at (/etc/shadow, /proc/kallsyms) reaches the report.

import (
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
)

// noteCap bounds how much of a build_failed note is read: its end, where a
// compiler's error is.
const noteCap = 64 << 10

// readNote reports whether the note at path exists and what it says. A
// note that is there but is not a regular file (a link, a FIFO, a device,
// a folder) exists, and what it says is only that: its build failed, and
// none of what it points at is read.
func readNote(path string) (text string, exists bool) {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	if errors.Is(err, syscall.ENOENT) || errors.Is(err, syscall.ENOTDIR) {
		return "", false
	}
	if err != nil {
		// ELOOP: a link; anything else the compile made unreadable.
		return fmt.Sprintf("the build left %s as something the sampler does not read (%v): not a regular file", path, err), true
	}
	f := os.NewFile(uintptr(fd), path)
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return fmt.Sprintf("the build left %s, which cannot be inspected: %v", path, err), true
	}
	if !st.Mode().IsRegular() {
		return fmt.Sprintf("the build left %s as a %s, not a regular file: not read", path, st.Mode().Type()), true
	}
	if st.Size() > noteCap {
		if _, err := f.Seek(st.Size()-noteCap, io.SeekStart); err != nil {
			return fmt.Sprintf("the build left %s, which cannot be read: %v", path, err), true
		}
	}
	b, err := io.ReadAll(io.LimitReader(f, noteCap))
	if err != nil {
		return fmt.Sprintf("the build left %s, which cannot be read: %v", path, err), true
	}
	return string(b), true
}
