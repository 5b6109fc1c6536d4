//go:build linux

package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
)

// cgroups makes one memory cgroup per sample under the container's own
// memory hierarchy, mounted afresh (the engine's mount is read-only).
type cgroups interface {
	source() string
	newSample(limit int64) (sampleCgroup, error)
	// pidsErr says why samples get no pids limit of their own (nil: they do).
	pidsErr() error
	close()
}

// samplePidsMax is how many tasks (processes and threads) one sample may
// have at once: far more than any bench's runtime starts, far fewer than a
// fork bomb wants.
const samplePidsMax = 1024

type sampleCgroup interface {
	// start runs fork with the new process inside the sample's cgroup.
	start(fork func() (int, error)) (int, error)
	peakKB() (int64, error)
	oomKilled() bool
	// kill kills every process in the cgroup at once where the kernel can
	// (v2 cgroup.kill); procs lists those left.
	kill()
	procs() []int
	remove() error
}

// Where the sampler mounts the container's cgroups: the memory hierarchy
// (or the whole v2 tree), and on v1 the pids hierarchy.
const (
	mountDir     = "/run/halebench-cg"
	pidsMountDir = "/run/halebench-pids"
)

func openCgroups() (cgroups, error) {
	if err := os.MkdirAll(mountDir, 0o755); err != nil {
		return nil, fmt.Errorf("mkdir %s: %w", mountDir, err)
	}
	if cgroupVersion() == "v2" {
		if err := syscall.Mount("cgroup2", mountDir, "cgroup2", 0, ""); err != nil {
			return nil, fmt.Errorf("mount cgroup2 (needs CAP_SYS_ADMIN and a private cgroup namespace): %w", err)
		}
		return openV2()
	}
	if err := syscall.Mount("cgroup", mountDir, "cgroup", 0, "memory"); err != nil {
		return nil, fmt.Errorf("mount the v1 memory cgroup (needs CAP_SYS_ADMIN and a private cgroup namespace): %w", err)
	}
	return openV1()
}

// removeCgroup retries for up to 0.5 s, soon at first: a cgroup whose
// last task has just been reaped can refuse rmdir for a moment. (rmdir
// alone: os.Remove tries unlink first.)
func removeCgroup(dir string) error {
	var err error
	deadline := time.Now().Add(500 * time.Millisecond)
	for wait := 50 * time.Microsecond; ; wait = min(2*wait, 2*time.Millisecond) {
		if err = syscall.Rmdir(dir); err == nil || err == syscall.ENOENT {
			return nil
		}
		if err == syscall.EINTR {
			continue
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("removing %s: %w", dir, err)
		}
		time.Sleep(wait)
	}
}

// mkdirFresh makes a sample's cgroup directory; one left by an earlier
// sampler of the same pid (an empty cgroup, or rmdir refuses) is removed
// first.
func mkdirFresh(dir string) error {
	err := os.Mkdir(dir, 0o755)
	if errors.Is(err, os.ErrExist) {
		_ = os.Remove(dir)
		err = os.Mkdir(dir, 0o755)
	}
	return err
}

// readProcs lists the pids in a cgroup.
func readProcs(dir string) []int {
	b, err := os.ReadFile(filepath.Join(dir, "cgroup.procs"))
	if err != nil {
		return nil
	}
	var out []int
	for _, f := range strings.Fields(string(b)) {
		if p, err := strconv.Atoi(f); err == nil {
			out = append(out, p)
		}
	}
	return out
}

func readInt(path string) (int64, error) {
	b, err := readAll(path)
	if err != nil {
		return 0, err
	}
	return strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
}

// fieldValue reads "key N" from a cgroup key-value file.
func fieldValue(text, key string) int64 {
	for _, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		if len(f) == 2 && f[0] == key {
			n, _ := strconv.ParseInt(f[1], 10, 64)
			return n
		}
	}
	return 0
}

// sampleSeq names sample cgroups uniquely within this sampler.
var sampleSeq atomic.Int64

func sampleDir(root string) string {
	return filepath.Join(root, fmt.Sprintf("sample-%d-%d", os.Getpid(), sampleSeq.Add(1)))
}

// cgroupMove moves the sampler (v2) or its forking thread (v1) into the
// cgroup dir.
type cgroupMove struct {
	dir  string
	move func() error
}

// moveByFile moves by writing self to file in dir.
func moveByFile(dir, file, self string) cgroupMove {
	return cgroupMove{dir, func() error { return writeFile(filepath.Join(dir, file), self) }}
}

// joinForkLeave makes each of joins (the sampler moves into the sample's
// cgroups), forks, and makes leaves[i] for each join made (it moves back):
// the child starts inside the sample's cgroups.
func joinForkLeave(joins, leaves []cgroupMove, fork func() (int, error)) (int, error) {
	var err error
	joined := 0
	for _, j := range joins {
		if err = j.move(); err != nil {
			err = fmt.Errorf("joining %s: %w", j.dir, err)
			break
		}
		joined++
	}
	phases.mark("cgroup-join")
	pid := 0
	if err == nil {
		pid, err = fork()
	}
	phases.mark("fork-exec")
	for i := 0; i < joined; i++ {
		if berr := leaves[i].move(); berr != nil && err == nil {
			err = fmt.Errorf("leaving %s: %w", joins[i].dir, berr)
		}
	}
	phases.mark("cgroup-leave")
	return pid, err
}
