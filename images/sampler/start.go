//go:build linux

package main

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/hale-lang/halebench/images/sampler/wire"
)

// program is what each sample of a job starts: its path, looked up once
// (on a FUSE image layer a lookup is a round trip to the file system's
// daemon), and its environment, made once.
type program struct {
	path string
	env  []string
	err  error // the lookup's: every sample that would start it says it
}

func programOf(o options) program {
	path, err := exec.LookPath(o.argv[0])
	return program{path: path, env: benchEnv(o), err: err}
}

// startSample starts the bench in a cgroup of its own, its stdin on
// /dev/null and its stdout and stderr on pipes the sampler reads. A nil run
// means it did not start; the sample says why.
func startSample(o options, prog program, cg cgroups, conf *confinement) (*sampleRun, wire.Sample, bool) {
	if prog.err != nil {
		return nil, failed(wire.StatusRunFailed, "starting "+o.argv[0]+": "+prog.err.Error()), false
	}
	devnull, err := devNull()
	if err != nil {
		return nil, failed(wire.StatusRunFailed, "opening /dev/null: "+err.Error()), false
	}
	p, err := openPipes()
	if err != nil {
		return nil, failed(wire.StatusRunFailed, err.Error()), false
	}
	attr := &syscall.ProcAttr{
		Dir:   o.dir,
		Env:   prog.env,
		Files: []uintptr{devnull.Fd(), p[1].Fd(), p[3].Fd()},
		Sys:   conf.sysProcAttr(),
	}
	fork := func() (int, error) { return syscall.ForkExec(prog.path, o.argv, attr) }
	if o.noASLR {
		fork = withoutASLR(fork)
	}
	r := &sampleRun{o: o, outR: p[0], errR: p[2]}
	phases.mark("setup")
	if cg != nil {
		if r.sc, err = cg.newSample(o.memLimit); err != nil {
			closeAll(p[:]...)
			return nil, failed(wire.StatusRunFailed, "making the sample's cgroup: "+err.Error()), false
		}
	}
	phases.mark("cgroup-make")
	r.start = time.Now()
	if r.sc != nil {
		r.pid, err = r.sc.start(fork)
	} else {
		r.pid, err = fork()
	}
	closeAll(p[1], p[3])
	if err != nil {
		return nil, failed(wire.StatusRunFailed, "starting "+o.argv[0]+": "+err.Error()), r.abort()
	}
	r.readOutputs()
	return r, wire.Sample{}, false
}

// devNull is every bench's stdin, opened once (read-only, close-on-exec in
// the sampler).
var devNull = sync.OnceValues(func() (*os.File, error) { return os.Open(os.DevNull) })

// abort undoes a start that failed half-way, and says whether what is left
// spends the container.
func (r *sampleRun) abort() (spent bool) {
	if r.pid > 0 { // started, but the sampler could not leave its cgroup
		_ = syscall.Kill(r.pid, syscall.SIGKILL)
		var ws syscall.WaitStatus
		_, _ = syscall.Wait4(r.pid, &ws, 0, nil)
		spent = true
	}
	closeAll(r.outR, r.errR)
	if r.sc != nil && r.sc.remove() != nil {
		spent = true
	}
	return spent
}

// openPipes returns stdout's read and write ends, then stderr's.
func openPipes() ([4]*os.File, error) {
	var p [4]*os.File
	var err error
	if p[0], p[1], err = os.Pipe(); err != nil {
		return p, fmt.Errorf("stdout pipe: %w", err)
	}
	if p[2], p[3], err = os.Pipe(); err != nil {
		closeAll(p[0], p[1])
		return p, fmt.Errorf("stderr pipe: %w", err)
	}
	return p, nil
}

func closeAll(fs ...*os.File) {
	for _, f := range fs {
		f.Close()
	}
}

// benchEnv is the bench's environment: the image's, the empty read-only
// HOME, then the job's variables and the seed.
func benchEnv(o options) []string {
	if o.countEnv != nil {
		return o.countEnv
	}
	return dedupEnv(append(append(os.Environ(), "HOME="+homeDir), append(o.env, "HALEBENCH_SEED="+o.seed)...))
}

// dedupEnv keeps the last of each variable, as os/exec does: the job's
// variables override the image's.
func dedupEnv(env []string) []string {
	last := map[string]int{}
	for i, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		last[k] = i
	}
	out := make([]string, 0, len(last))
	for i, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if last[k] == i {
			out = append(out, kv)
		}
	}
	return out
}
