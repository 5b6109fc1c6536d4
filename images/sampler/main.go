//go:build linux

// Command halebench-sampler runs inside every bench container. It takes all
// samples of one (bench, language) pair in one container, so a sample costs a
// fork+exec and a cgroup mkdir, not a container start. Per sample it reads the
// bench's elapsed_ns and check lines, the wait4 rusage of the bench process,
// and the memory peak of a cgroup made for that sample alone.
//
// It is built inside BuildKit from the files images.SamplerFiles lists (this
// package and its wire package), with the standard library only: the
// toolchain images have no module proxy. The runner reads the result lines it
// prints through the same wire package.
//
// Its files by concern: main.go the entry points, session.go what is set up
// once, sample.go one sample (start.go, wait.go, clean.go, classify.go),
// reap.go reaping and killing, output.go the bench's output, hostfacts.go
// what it reports of the host, cgroup*.go the per-sample cgroups (sysfile.go
// their small files read and written with few system calls),
// privileges.go and seccomp.go the confinement, trust.go the check of
// the image's privileged files.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/hale-lang/halebench/images/sampler/wire"
)

// options is one job as the sampler runs it.
type options struct {
	iters       int
	warmup      int
	timeout     time.Duration
	seed        string
	memLimit    int64
	outCap      int
	buildFailed string
	env         []string
	argv        []string
	count       *wire.CountJob
	// How a counted run is started (count.go): its whole environment, the
	// ASLR off, and its cwd (its log is a socket of the sampler: countsock.go).
	// watchValgrind: the whole stderr is watched for Valgrind's lines
	// (tailBuffer).
	countEnv      []string
	noASLR        bool
	dir           string
	watchValgrind bool
	// ready, when set, is called once when the bench prints the line
	// "ready" (wire.Job.Ready); room is wire.Job.Room.
	ready func()
	room  string
}

func main() {
	if len(os.Args) >= 2 && os.Args[1] == "serve" {
		serve(os.Args[2:])
		return
	}
	if len(os.Args) >= 2 && os.Args[1] == "probe" {
		probe()
		return
	}
	fmt.Fprintln(os.Stderr, "usage: halebench-sampler serve   (jobs as JSON lines on stdin, a result line for each on stdout)\n       halebench-sampler probe")
	os.Exit(2)
}

// printResult writes a result line: with the ready lines a job asks for,
// all the sampler writes on stdout.
func printResult(res wire.Result) {
	os.Stdout.Write(wire.EncodeResult(res))
}

// serve runs the jobs it reads on stdin, one after another, in this one
// container, and answers each with a result line; it ends at EOF. The
// container's start is then paid once for many (bench, language) pairs.
func serve(args []string) {
	fs := flag.NewFlagSet("serve", flag.ExitOnError)
	// For tests only: an impossible uid (4294967295, which setuid refuses)
	// shows that a failed uid switch stops every bench.
	uid := fs.Uint64("test-bench-uid", benchUID, "test only: the uid benches are started as")
	trusted := fs.String("trusted", "", "PATH=SHA256,...: files that must have these digests before anything runs (trust.go)")
	trace := fs.Bool("phases", false, "debug: after each sample, what each of its steps took on stderr (phases.go)")
	_ = fs.Parse(args)
	if *trace {
		phases = &phaseClock{}
	}
	if *uid > 1<<32-1 {
		fmt.Fprintln(os.Stderr, "halebench-sampler: -test-bench-uid must fit in 32 bits")
		os.Exit(2)
	}
	s := startSession(uint32(*uid), benchGID, *trusted)
	defer s.close()
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	for jobs := 1; sc.Scan(); jobs++ {
		begun := time.Now()
		var j wire.Job
		if err := json.Unmarshal(sc.Bytes(), &j); err != nil {
			printResult(wire.Result{Status: wire.StatusRunFailed, Detail: "bad job line: " + err.Error(), Samples: []wire.Sample{}})
			continue
		}
		var res wire.Result
		if len(j.Argv) == 0 {
			res = wire.Result{Status: wire.StatusRunFailed, Detail: "job without a program", Samples: []wire.Sample{}}
		} else {
			o := optionsOf(j)
			if j.Ready {
				o.ready = readyLine(j.ID, j.Nonce)
			}
			res = s.run(o)
		}
		res.ID, res.Nonce = j.ID, j.Nonce
		line := wire.EncodeResult(res)
		phases.job(jobs, time.Since(begun))
		os.Stdout.Write(line)
		if s.stopped() || res.Spent {
			return
		}
	}
}

// optionsOf reads a job line's options, with the defaults `run` has.
func optionsOf(j wire.Job) options {
	o := options{iters: j.Iters, warmup: j.Warmup, timeout: time.Duration(j.TimeoutNs), seed: j.Seed,
		memLimit: j.MemLimit, outCap: j.OutCap, buildFailed: j.BuildFailed, env: j.Env, argv: j.Argv, count: j.Count,
		room: j.Room}
	if o.timeout <= 0 {
		o.timeout = 120 * time.Second
	}
	if o.outCap <= 0 {
		o.outCap = 1 << 20
	}
	return o
}

// readyLine writes job id's ready line on the channel, once whatever the
// number of samples: it is called from the goroutine reading the bench's
// stdout, which ends before the job's result line is written.
func readyLine(id, nonce string) func() {
	var once sync.Once
	return func() { once.Do(func() { os.Stdout.Write(wire.EncodeReady(id, nonce)) }) }
}
