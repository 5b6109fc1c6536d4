package session

import (
	"fmt"
	"io"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// pinSelf keeps halebench itself on CPU 0 while it samples, so that the
// sampler containers pinned to the other CPUs do not share theirs with the
// orchestrator: every thread of this process is moved (threads made later
// inherit the mask). A host with one CPU (or a mask without CPU 0) is left
// alone, and said; so is a failure, which costs noise, not correctness.
func pinSelf(log io.Writer) {
	if msg := pinTo0(); msg != "" {
		fmt.Fprintf(log, "cpu: %s\n", msg)
	}
}

// pinTo0 pins every thread of this process to CPU 0 and says why not when
// it does not ("" when it did).
func pinTo0() string {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		return fmt.Sprintf("halebench not pinned to CPU 0: reading its affinity: %v", err)
	}
	if set.Count() < 2 || !set.IsSet(0) {
		return fmt.Sprintf("halebench not pinned: it may run on %d CPU(s) and CPU 0 is not one of several", set.Count())
	}
	var zero unix.CPUSet
	zero.Set(0)
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return fmt.Sprintf("halebench not pinned to CPU 0: listing its threads: %v", err)
	}
	for _, t := range tasks {
		tid, err := strconv.Atoi(t.Name())
		if err != nil {
			continue
		}
		if err := unix.SchedSetaffinity(tid, &zero); err != nil && err != unix.ESRCH {
			return fmt.Sprintf("halebench not pinned to CPU 0: thread %d: %v", tid, err)
		}
	}
	return ""
}
