//go:build linux

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"syscall"
)

// v1: the sampler's forking thread moves into the sample's cgroups, starts
// the bench (which inherits them) and moves back. Pages it already holds stay charged
// where they were (move_charge_at_immigrate is off), so the child cgroup sees
// the bench from its first instruction.
//
// The memory cgroup is made for each sample: its peak is that sample's
// alone. The pids cgroup is made once and every sample of the session runs
// in it, one after another: a limit has no memory of earlier samples, and
// a sample starts it empty (the one before ended only when every process
// it left was killed and reaped, or the container is spent). The tasks
// files the thread moves through, but the new memory cgroup's, stay open.
type v1 struct {
	root string
	mu   sync.Mutex
	// pidsRoot is the pids hierarchy ("" when it could not be mounted or
	// the samples' pids cgroup not made, for pidsMountErr).
	pidsRoot     string
	pidsMountErr error
	// home is the memory root's tasks; pids and pidsHome are the samples'
	// pids cgroup's and the pids root's (when pidsRoot is set).
	home, pids, pidsHome tasksFile
}

// openV1 sets up cgroup v1 once the memory hierarchy is mounted: the pids
// hierarchy beside it, the samples' pids cgroup, and the tasks files.
func openV1() (cgroups, error) {
	c := &v1{root: mountDir}
	var err error
	if c.home, err = openTasks(c.root); err != nil {
		_ = syscall.Unmount(c.root, syscall.MNT_DETACH)
		return nil, err
	}
	if err := os.MkdirAll(pidsMountDir, 0o755); err != nil {
		c.pidsMountErr = err
	} else if err := syscall.Mount("cgroup", pidsMountDir, "cgroup", 0, "pids"); err != nil {
		c.pidsMountErr = fmt.Errorf("mount the v1 pids cgroup: %w", err)
	} else if err := c.openPids(); err != nil {
		c.pidsMountErr = fmt.Errorf("making the samples' pids cgroup: %w", err)
		_ = syscall.Unmount(pidsMountDir, syscall.MNT_DETACH)
	} else {
		c.pidsRoot = pidsMountDir
	}
	return c, nil
}

// openPids makes the samples' pids cgroup, limits it and opens the tasks
// files.
func (c *v1) openPids() error {
	dir := filepath.Join(pidsMountDir, fmt.Sprintf("samples-%d", os.Getpid()))
	if err := mkdirFresh(dir); err != nil {
		return err
	}
	err := writeFile(filepath.Join(dir, "pids.max"), strconv.Itoa(samplePidsMax))
	if err == nil {
		c.pids, err = openTasks(dir)
	}
	if err == nil {
		if c.pidsHome, err = openTasks(pidsMountDir); err != nil {
			c.pids.close()
		}
	}
	if err != nil {
		_ = syscall.Rmdir(dir)
	}
	return err
}

func (c *v1) pidsErr() error { return c.pidsMountErr }

func (c *v1) source() string { return "cgroup v1 memory.max_usage_in_bytes of a per-sample cgroup" }
func (c *v1) close() {
	c.home.close()
	_ = syscall.Unmount(c.root, syscall.MNT_DETACH)
	if c.pidsRoot != "" {
		c.pids.close()
		c.pidsHome.close()
		_ = removeCgroup(c.pids.dir)
		_ = syscall.Unmount(c.pidsRoot, syscall.MNT_DETACH)
	}
}

func (c *v1) newSample(limit int64) (sampleCgroup, error) {
	dir := sampleDir(c.root)
	if err := mkdirFresh(dir); err != nil {
		return nil, err
	}
	if limit > 0 {
		if err := writeFile(filepath.Join(dir, "memory.limit_in_bytes"), strconv.FormatInt(limit, 10)); err != nil {
			_ = os.Remove(dir)
			return nil, err
		}
		// Without these a bench over its limit swaps instead of being
		// killed, and an OOM would show up as a timeout.
		_ = writeFile(filepath.Join(dir, "memory.swappiness"), "0")
		_ = writeFile(filepath.Join(dir, "memory.memsw.limit_in_bytes"), strconv.FormatInt(limit, 10))
	}
	return &v1Sample{parent: c, dir: dir}, nil
}

// v1Sample is a sample's memory cgroup.
type v1Sample struct {
	parent *v1
	dir    string
}

// start moves only the calling thread, not the whole sampler: it writes 0
// (the writer itself) to the cgroups' tasks files, from a goroutine locked
// to its thread, and forks from that thread. A recent kernel (6.18 here)
// moves a thread that names itself without cgroup_threadgroup_rwsem, whose
// write side waits for an RCU grace period: moving the whole process
// (cgroup.procs) waited for it four times a sample, ~2 ms on a 2-vCPU VM
// (docs/measurements.md). The other threads stay where they are, so less
// of the sampler is charged to the sample; a thread the runtime starts
// meanwhile is not cloned from this one (the runtime starts new threads
// elsewhere while one is locked).
func (s *v1Sample) start(fork func() (int, error)) (int, error) {
	c := s.parent
	c.mu.Lock()
	defer c.mu.Unlock()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	joins := []cgroupMove{moveByFile(s.dir, "tasks", "0")}
	leaves := []cgroupMove{c.home.move()}
	if c.pidsRoot != "" {
		joins, leaves = append(joins, c.pids.move()), append(leaves, c.pidsHome.move())
	}
	return joinForkLeave(joins, leaves, fork)
}

// A v1 memory cgroup has no kill file: killAll loops over procs.
func (s *v1Sample) kill()        {}
func (s *v1Sample) procs() []int { return readProcs(s.dir) }

func (s *v1Sample) peakKB() (int64, error) {
	n, err := readInt(filepath.Join(s.dir, "memory.max_usage_in_bytes"))
	return n / 1024, err
}

func (s *v1Sample) oomKilled() bool {
	b, err := readAll(filepath.Join(s.dir, "memory.oom_control"))
	if err != nil {
		return false
	}
	return fieldValue(string(b), "oom_kill") > 0
}

func (s *v1Sample) remove() error { return removeCgroup(s.dir) }

// tasksFile is a v1 cgroup's tasks file, opened once: writing 0 to it
// moves the writing thread into the cgroup, without an open and a close
// each time.
type tasksFile struct {
	dir string
	fd  int
}

func openTasks(dir string) (tasksFile, error) {
	fd, err := openRetry(filepath.Join(dir, "tasks"), syscall.O_WRONLY)
	if err != nil {
		return tasksFile{fd: -1}, &os.PathError{Op: "open", Path: filepath.Join(dir, "tasks"), Err: err}
	}
	return tasksFile{dir: dir, fd: fd}, nil
}

func (t tasksFile) move() cgroupMove {
	return cgroupMove{t.dir, func() error {
		for {
			_, err := syscall.Write(t.fd, []byte("0"))
			if err != syscall.EINTR {
				return err
			}
		}
	}}
}

func (t tasksFile) close() {
	if t.fd > 0 {
		_ = syscall.Close(t.fd)
	}
}
