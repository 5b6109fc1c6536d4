//go:build linux

package main

import (
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
)

// v1: the sampler moves itself into the sample's cgroup, starts the bench
// (which inherits it) and moves back. Pages it already holds stay charged
// where they were (move_charge_at_immigrate is off), so the child cgroup sees
// the bench from its first instruction.
type v1 struct {
	root string
	mu   sync.Mutex
}

func (c *v1) source() string { return "cgroup v1 memory.max_usage_in_bytes of a per-sample cgroup" }
func (c *v1) close()         { _ = syscall.Unmount(c.root, syscall.MNT_DETACH) }

func (c *v1) newSample(limit int64) (sampleCgroup, error) {
	dir := sampleDir(c.root)
	_ = os.Remove(dir)
	if err := os.Mkdir(dir, 0o755); err != nil {
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

type v1Sample struct {
	parent *v1
	dir    string
}

func (s *v1Sample) start(fork func() (int, error)) (int, error) {
	s.parent.mu.Lock()
	defer s.parent.mu.Unlock()
	return joinForkLeave(s.dir, s.parent.root, fork)
}

// A v1 memory cgroup has no kill file: killAll loops over procs.
func (s *v1Sample) kill()        {}
func (s *v1Sample) procs() []int { return readProcs(s.dir) }

func (s *v1Sample) peakKB() (int64, error) {
	n, err := readInt(filepath.Join(s.dir, "memory.max_usage_in_bytes"))
	return n / 1024, err
}

func (s *v1Sample) oomKilled() bool {
	b, err := os.ReadFile(filepath.Join(s.dir, "memory.oom_control"))
	if err != nil {
		return false
	}
	return fieldValue(string(b), "oom_kill") > 0
}

func (s *v1Sample) remove() error { return removeCgroup(s.dir) }
