//go:build linux

package main

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// reap waits for every child: the bench (its status and rusage are kept)
// and whatever it orphaned, which PID 1 inherits. It returns when the
// sampler has no child left.
func reap(bench int, ws *syscall.WaitStatus, ru *syscall.Rusage, benchDone, childless chan struct{}) {
	defer close(childless)
	for {
		var st syscall.WaitStatus
		var u syscall.Rusage
		pid, err := syscall.Wait4(-1, &st, 0, &u)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return
		}
		if pid == bench {
			*ws, *ru = st, u
			close(benchDone)
		}
	}
}

// killAll kills whatever the bench started, and says whether all of it is
// dead and reaped within 5 s. The sampler is PID 1 of the container (or, if
// not, a child subreaper): every orphan becomes its child, so no child left
// means no process left. As PID 1 it kills with kill(-1), which reaches every
// other process of the pid namespace in one sweep that fork cannot race;
// otherwise it kills the bench's group, the sample's cgroup and the bench's
// uid, over and over.
func killAll(pid int, sc sampleCgroup, conf *confinement, childless <-chan struct{}) bool {
	_ = syscall.Kill(-pid, syscall.SIGKILL)
	if sc != nil {
		sc.kill()
	}
	deadline := time.Now().Add(5 * time.Second)
	for wait := 100 * time.Microsecond; ; wait *= 2 {
		select {
		case <-childless:
			return true
		default:
		}
		if time.Now().After(deadline) {
			return false
		}
		if os.Getpid() == 1 {
			_ = syscall.Kill(-1, syscall.SIGKILL)
		} else {
			var pids []int
			if sc != nil {
				pids = sc.procs()
			}
			if conf != nil {
				pids = append(pids, procsOfUID(int(conf.uid))...)
			}
			for _, p := range pids {
				_ = syscall.Kill(p, syscall.SIGKILL)
			}
		}
		if wait > 50*time.Millisecond {
			wait = 50 * time.Millisecond
		}
		select {
		case <-childless:
			return true
		case <-time.After(wait):
		}
	}
}

// procsOfUID lists the live (not zombie) processes whose real uid is uid.
func procsOfUID(uid int) []int {
	d, err := os.Open("/proc")
	if err != nil {
		return nil
	}
	names, _ := d.Readdirnames(-1)
	d.Close()
	want := strconv.Itoa(uid)
	var out []int
	for _, n := range names {
		p, err := strconv.Atoi(n)
		if err != nil || p == os.Getpid() {
			continue
		}
		b, err := os.ReadFile("/proc/" + n + "/status")
		if err != nil {
			continue
		}
		var state, ruid string
		for _, line := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "State:"); ok {
				state = strings.TrimSpace(v)
			} else if v, ok := strings.CutPrefix(line, "Uid:"); ok {
				if f := strings.Fields(v); len(f) > 0 {
					ruid = f[0]
				}
				break
			}
		}
		if ruid == want && !strings.HasPrefix(state, "Z") {
			out = append(out, p)
		}
	}
	return out
}
