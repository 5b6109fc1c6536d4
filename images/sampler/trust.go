//go:build linux

package main

// The files of a bench image that the sampler runs as root (itself) or
// preloads into counted runs (the clock gate) come from a build apart from
// the benches' compile, and the orchestrator hashes them there. It passes
// those digests as -trusted; before anything privileged (the cgroup mount
// is the first) the sampler hashes the image's files and, when one differs
// or is missing, runs nothing: every job answers unconfined with the
// reason. Valgrind is the toolchain image's and is never run as root.

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"syscall"

	"github.com/hale-lang/halebench/images/sampler/wire"
)

// checkTrusted compares each PATH=SHA256 of spec with the file at PATH,
// opened without following a link (wire.ParseTrusted reads spec). ""
// checks nothing.
func checkTrusted(spec string) error {
	files, err := wire.ParseTrusted(spec)
	if err != nil {
		return err
	}
	var bad []string
	for path, want := range files {
		got, err := digestNoFollow(path)
		switch {
		case err != nil:
			bad = append(bad, fmt.Sprintf("%s: %v", path, err))
		case got != want:
			bad = append(bad, fmt.Sprintf("%s has sha256 %s, the build recorded %s", path, got, want))
		}
	}
	if len(bad) > 0 {
		sort.Strings(bad)
		return fmt.Errorf("this image's privileged files are not the ones its build made (%s): rebuild the bench image (`halebench images`) and do not run images from an untrusted source", strings.Join(bad, "; "))
	}
	return nil
}

func digestNoFollow(path string) (string, error) {
	f, _, err := openRegular(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// openRegular opens the file at path as the sampler reads every file of
// the image it acts on: no link followed, without blocking (a FIFO does not
// hang it), a regular file only (checked on the descriptor); size is its
// size.
func openRegular(path string) (f *os.File, size int64, err error) {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_CLOEXEC|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, 0, err
	}
	f = os.NewFile(uintptr(fd), path)
	st, err := f.Stat()
	if err == nil && !st.Mode().IsRegular() {
		err = fmt.Errorf("not a regular file (%s)", st.Mode().Type())
	}
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	return f, st.Size(), nil
}

// startSession is newSession after the check: a failed check gives a
// session that set nothing up and refuses every job.
// A record that names files but not the clock gate leaves the image's gate
// unchecked: it is then never preloaded (counts cover the whole process).
func startSession(uid, gid uint32, trusted string) *session {
	if err := checkTrusted(trusted); err != nil {
		return &session{stop: make(chan struct{}), unconfined: err.Error()}
	}
	s := newSession(uid, gid)
	files, _ := wire.ParseTrusted(trusted)
	s.gateUnchecked = len(files) > 0 && files[wire.ClockGatePath] == ""
	return s
}
