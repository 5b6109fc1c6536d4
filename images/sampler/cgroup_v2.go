//go:build linux

package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
)

// v2: the sampler lives in a leaf of its own (no process may sit in a cgroup
// that delegates controllers) and, as on v1, joins the sample's cgroup to
// fork the bench there. (clone3(CLONE_INTO_CGROUP) would spare two writes,
// but the seccomp filter the bench inherits must answer clone3 with ENOSYS:
// a filter cannot see clone3's flags.)
type v2 struct {
	root    string
	pidsOff error // why the pids controller is not enabled (nil: it is)
}

func (c *v2) pidsErr() error { return c.pidsOff }

func openV2() (cgroups, error) {
	c := &v2{root: mountDir}
	self := filepath.Join(c.root, "sampler")
	if err := os.MkdirAll(self, 0o755); err != nil {
		return nil, err
	}
	if err := writeFile(filepath.Join(self, "cgroup.procs"), strconv.Itoa(os.Getpid())); err != nil {
		return nil, fmt.Errorf("moving the sampler into its own leaf: %w", err)
	}
	if err := writeFile(filepath.Join(c.root, "cgroup.subtree_control"), "+memory"); err != nil {
		return nil, fmt.Errorf("enabling the memory controller: %w", err)
	}
	if err := writeFile(filepath.Join(c.root, "cgroup.subtree_control"), "+pids"); err != nil {
		c.pidsOff = fmt.Errorf("enabling the pids controller: %w", err)
	}
	if _, err := os.Stat(filepath.Join(self, "memory.peak")); err != nil {
		return nil, errors.New("memory.peak missing (kernel older than 5.19)")
	}
	return c, nil
}

func (c *v2) source() string { return "cgroup v2 memory.peak of a per-sample cgroup" }
func (c *v2) close()         {}

func (c *v2) newSample(limit int64) (sampleCgroup, error) {
	dir := sampleDir(c.root)
	if err := mkdirFresh(dir); err != nil {
		return nil, err
	}
	if limit > 0 {
		if err := writeFile(filepath.Join(dir, "memory.max"), strconv.FormatInt(limit, 10)); err != nil {
			_ = os.Remove(dir)
			return nil, err
		}
		_ = writeFile(filepath.Join(dir, "memory.swap.max"), "0")
	}
	if c.pidsOff == nil {
		if err := writeFile(filepath.Join(dir, "pids.max"), strconv.Itoa(samplePidsMax)); err != nil {
			_ = os.Remove(dir)
			return nil, err
		}
	}
	return &v2Sample{dir: dir, home: filepath.Join(c.root, "sampler")}, nil
}

type v2Sample struct {
	dir  string
	home string
}

func (s *v2Sample) start(fork func() (int, error)) (int, error) {
	self := strconv.Itoa(os.Getpid())
	return joinForkLeave([]cgroupMove{moveByFile(s.dir, "cgroup.procs", self)}, []cgroupMove{moveByFile(s.home, "cgroup.procs", self)}, fork)
}

func (s *v2Sample) kill()        { _ = writeFile(filepath.Join(s.dir, "cgroup.kill"), "1") }
func (s *v2Sample) procs() []int { return readProcs(s.dir) }

func (s *v2Sample) peakKB() (int64, error) {
	n, err := readInt(filepath.Join(s.dir, "memory.peak"))
	return n / 1024, err
}

func (s *v2Sample) oomKilled() bool {
	b, err := readAll(filepath.Join(s.dir, "memory.events"))
	if err != nil {
		return false
	}
	return fieldValue(string(b), "oom_kill") > 0
}

func (s *v2Sample) remove() error { return removeCgroup(s.dir) }
