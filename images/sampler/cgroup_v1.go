//go:build linux

package main

import (
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
type v1 struct {
	root string
	mu   sync.Mutex
	// pidsRoot is the pids hierarchy ("" when it could not be mounted, for
	// pidsMountErr).
	pidsRoot     string
	pidsMountErr error
}

func (c *v1) pidsErr() error { return c.pidsMountErr }

func (c *v1) source() string { return "cgroup v1 memory.max_usage_in_bytes of a per-sample cgroup" }
func (c *v1) close() {
	_ = syscall.Unmount(c.root, syscall.MNT_DETACH)
	if c.pidsRoot != "" {
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
	s := &v1Sample{parent: c, dir: dir}
	if c.pidsRoot != "" {
		s.pids = filepath.Join(c.pidsRoot, filepath.Base(dir))
		if err := mkdirFresh(s.pids); err != nil {
			_ = os.Remove(dir)
			return nil, err
		}
		if err := writeFile(filepath.Join(s.pids, "pids.max"), strconv.Itoa(samplePidsMax)); err != nil {
			_ = s.remove()
			return nil, err
		}
	}
	return s, nil
}

// v1Sample is a sample's memory cgroup and, when the pids hierarchy is
// mounted, its pids cgroup of the same name.
type v1Sample struct {
	parent *v1
	dir    string
	pids   string
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
	s.parent.mu.Lock()
	defer s.parent.mu.Unlock()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if s.pids == "" {
		return joinForkLeave([]string{s.dir}, []string{s.parent.root}, "tasks", "0", fork)
	}
	return joinForkLeave([]string{s.dir, s.pids}, []string{s.parent.root, s.parent.pidsRoot}, "tasks", "0", fork)
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

func (s *v1Sample) remove() error {
	err := removeCgroup(s.dir)
	if s.pids != "" {
		if perr := removeCgroup(s.pids); err == nil {
			err = perr
		}
	}
	return err
}
