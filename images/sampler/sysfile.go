//go:build linux

package main

import (
	"errors"
	"os"
	"syscall"
)

// The per-sample path reads and writes a dozen small kernel files (cgroup
// knobs, /proc/sysvipc tables) and lists a few directories. These helpers do
// it with the fewest system calls: os.Open adds an fstat to every open and
// os.ReadFile another, and each call costs on a loaded VM
// (docs/measurements.md, "The cost of a sample").

// readAll reads a whole file: open, reads to end of file, close.
func readAll(path string) ([]byte, error) {
	fd, err := openRetry(path, syscall.O_RDONLY)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	defer syscall.Close(fd)
	buf := make([]byte, 0, 512)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := syscall.Read(fd, buf[len(buf):cap(buf)])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &os.PathError{Op: "read", Path: path, Err: err}
		}
		if n == 0 {
			return buf, nil
		}
		buf = buf[:len(buf)+n]
	}
}

// writeFile writes s to an existing file in one write.
func writeFile(path, s string) error {
	fd, err := openRetry(path, syscall.O_WRONLY)
	if err != nil {
		return &os.PathError{Op: "open", Path: path, Err: err}
	}
	n, err := syscall.Write(fd, []byte(s))
	for err == syscall.EINTR {
		n, err = syscall.Write(fd, []byte(s))
	}
	cerr := syscall.Close(fd)
	switch {
	case err != nil:
		return &os.PathError{Op: "write", Path: path, Err: err}
	case n != len(s):
		return &os.PathError{Op: "write", Path: path, Err: errors.New("short write")}
	case cerr != nil:
		return &os.PathError{Op: "close", Path: path, Err: cerr}
	}
	return nil
}

// dirNames lists a directory's entries but . and ..; a directory that does
// not exist is empty. Links are listed, not followed.
func dirNames(dir string) ([]string, error) {
	fd, err := openRetry(dir, syscall.O_RDONLY|syscall.O_DIRECTORY)
	if errors.Is(err, syscall.ENOENT) {
		return nil, nil
	}
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: dir, Err: err}
	}
	defer syscall.Close(fd)
	var names []string
	buf := make([]byte, 8192)
	for {
		n, err := syscall.ReadDirent(fd, buf)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &os.PathError{Op: "readdirent", Path: dir, Err: err}
		}
		if n <= 0 {
			return names, nil
		}
		_, _, names = syscall.ParseDirent(buf[:n], -1, names)
	}
}

func openRetry(path string, mode int) (int, error) {
	for {
		fd, err := syscall.Open(path, mode|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			return fd, err
		}
	}
}
