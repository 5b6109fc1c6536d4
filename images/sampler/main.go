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
	tee         bool
	env         []string
	argv        []string
	count       *wire.CountJob
	// How a counted run is started (count.go): its whole environment, the
	// ASLR off, and its cwd (its log is a socket of the sampler: countsock.go).
	countEnv []string
	noASLR   bool
	dir      string
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
	if len(os.Args) < 2 || os.Args[1] != "run" {
		fmt.Fprintln(os.Stderr, "usage: halebench-sampler run [flags] -- PROGRAM [ARGS...]\n       halebench-sampler serve   (jobs as JSON lines on stdin)")
		os.Exit(2)
	}
	runOne(os.Args[2:])
}

// runOne is `run`: one job given by flags, its result printed last on
// stdout (after the bench's lines when --tee is set).
func runOne(args []string) {
	fs := flag.NewFlagSet("run", flag.ExitOnError)
	var o options
	fs.IntVar(&o.iters, "iters", 5, "measured samples")
	fs.IntVar(&o.warmup, "warmup", 1, "discarded warm-up runs before the samples")
	fs.DurationVar(&o.timeout, "timeout", 120*time.Second, "per-sample timeout")
	fs.StringVar(&o.seed, "seed", "0", "HALEBENCH_SEED handed to the bench")
	fs.Int64Var(&o.memLimit, "mem-limit", 0, "per-sample memory limit in bytes (0: none)")
	fs.IntVar(&o.outCap, "out-cap", 1<<20, "bytes of bench stdout kept; the rest is counted and dropped")
	fs.StringVar(&o.buildFailed, "build-failed", "", "file whose presence means the build failed (its text is the compiler's message)")
	fs.BoolVar(&o.tee, "tee", false, "copy the bench's stdout lines to our stdout as they come")
	trusted := fs.String("trusted", "", "PATH=SHA256,...: files that must have these digests before anything runs (trust.go)")
	_ = fs.Parse(args)
	o.argv = fs.Args()
	if len(o.argv) == 0 {
		fmt.Fprintln(os.Stderr, "halebench-sampler: no program after --")
		os.Exit(2)
	}
	// The nonce comes in the environment, which only root can read in
	// /proc/1/environ; it leaves it before any bench starts.
	nonce := os.Getenv("HALEBENCH_NONCE")
	os.Unsetenv("HALEBENCH_NONCE")
	s := startSession(benchUID, benchGID, *trusted)
	res := s.run(o)
	s.close()
	res.Nonce = nonce
	fmt.Println()
	printResult(res)
}

// printResult writes a result line. In serve mode it is all the sampler
// writes on stdout.
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
	s.lastRoom = true
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
			res = s.run(optionsOf(j))
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
		memLimit: j.MemLimit, outCap: j.OutCap, buildFailed: j.BuildFailed, env: j.Env, argv: j.Argv, count: j.Count}
	if o.timeout <= 0 {
		o.timeout = 120 * time.Second
	}
	if o.outCap <= 0 {
		o.outCap = 1 << 20
	}
	return o
}
