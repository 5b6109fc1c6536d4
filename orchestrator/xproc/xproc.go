package xproc

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/hale-lang/halebench/orchestrator/imagebuild"
	"github.com/hale-lang/halebench/orchestrator/lifecycle"
	"github.com/hale-lang/halebench/orchestrator/runner"
	"github.com/hale-lang/halebench/orchestrator/stats"
	"github.com/hale-lang/halebench/orchestrator/status"
	"github.com/hale-lang/halebench/orchestrator/termtext"
	"github.com/hale-lang/halebench/orchestrator/toolchain"
)

// Row is one line of an xproc table: a language and, for Hale, a reader kind.
type Row struct {
	Name       string // report key: hale, hale_drain, go, …
	Title      string
	Lang       toolchain.Language
	ReaderUnit string
	ProdUnit   string
	Args       []string // after the program, per role: role and variant are added
	InProcess  bool     // Node: both sides in one process (†)
}

// Rows lists the rows of a variant for the given languages, in table order.
func Rows(variant string, langs []toolchain.Language) []Row {
	var rows []Row
	for _, l := range langs {
		for _, r := range l.XProcRows(variant) {
			rows = append(rows, Row{Name: r.Key, Title: r.Title, Lang: l, ReaderUnit: r.Reader, ProdUnit: r.Producer, InProcess: r.InProcess})
		}
	}
	return rows
}

// Sources lists the xproc programs of a language in the suite.
func Sources(suite string, l toolchain.Language) []imagebuild.Source {
	if l.XProcPerRole {
		paths, _ := filepath.Glob(filepath.Join(suite, "xproc", l.Name, "*."+l.Ext))
		var out []imagebuild.Source
		for _, p := range paths {
			out = append(out, imagebuild.Source{Unit: "xproc_" + strings.TrimSuffix(filepath.Base(p), "."+l.Ext), Path: p})
		}
		return out
	}
	p := filepath.Join(suite, "xproc", "xproc."+l.Ext)
	if _, err := os.Stat(p); err != nil {
		return nil
	}
	return []imagebuild.Source{{Unit: "xproc", Path: p}}
}

// Expected checks.
var expected = map[string]string{
	"small": "n:200000,last_px:199999,last_sz:200000",
	"large": "n:20000,sum:105011200000",
}

// Sampler runs jobs on the run's sampler containers: runner.Pool, or the
// lifecycle session's Sampling, which adds its rule on images not trusted.
type Sampler interface {
	Sample(ctx context.Context, w runner.Where, j runner.Job) runner.Outcome
	SamplePair(ctx context.Context, w runner.PairWhere, reader, producer runner.Job) (runner.Outcome, *runner.Outcome)
}

var (
	_ Sampler = (*runner.Pool)(nil)
	_ Sampler = (*lifecycle.Sampling)(nil)
)

// Pair runs the pair of one row iters times, each run a job on the
// reader's and one on the producer's long-lived sampler container
// (runner.Pool.SamplePair), or, in process, one job on one.
type Pair struct {
	Sampler Sampler
	Lang    string // the image's language
	Image   string
	Trusted string // imagebuild.TrustedArg of the image's BenchImage.Trusted
	NCPU    int
	Timeout time.Duration
	Log     io.Writer
	// Env is what the first sampler to answer saw of its container.
	Env runner.Env
}

// ShmSize is the reader's /dev/shm: the large ring is ~82 MB, and
// Docker's default /dev/shm is 64 MiB.
const ShmSize = 256 << 20

// MemLimit bounds each side's container, beyond the ring.
const MemLimit = 4 << 30

// readerTimeoutMs is how long a reader waits for write_seq to move before it
// says producer_failed.
const readerTimeoutMs = 10000

// producerFailedExit is how every reader exits when the producer stopped
// (status=producer_failed on its stdout; xproc/*).
const producerFailedExit = 3

// Measure runs one row iters times and summarises.
func (p *Pair) Measure(ctx context.Context, row Row, variant string, iters int) Result {
	res := Result{Row: row.Name, Title: row.Title, Comparable: !row.InProcess, ElapsedNsSamples: []int64{}}
	for i := 0; i < iters && ctx.Err() == nil; i++ {
		var r Run
		if row.InProcess {
			r = p.inProcess(ctx, row, variant)
		} else {
			r = p.pair(ctx, row, variant)
		}
		if r.Status == status.OK && r.Check != expected[variant] {
			r.Status, r.Detail = status.BadChecksum, fmt.Sprintf("check %q, want %q", r.Check, expected[variant])
		}
		res.Runs = append(res.Runs, r)
		fmt.Fprintf(p.Log, "  %s %s #%d: %s %s\n", variant, row.Name, i+1, r.Status, describe(r))
		if r.Status != status.OK {
			res.Status, res.Detail = r.Status, r.Detail
			return res
		}
		res.ElapsedNsSamples = append(res.ElapsedNsSamples, r.ElapsedNs)
		res.Check = r.Check
	}
	if ctx.Err() != nil {
		res.Status = status.Interrupted
		return res
	}
	res.Status = status.OK
	res.ElapsedNs = stats.Summarize(res.ElapsedNsSamples)
	res.ElapsedNsMedian = res.ElapsedNs.Median
	var rp, pp []int64
	for _, r := range res.Runs {
		if r.Reader.MemPeakKB != nil {
			rp = append(rp, *r.Reader.MemPeakKB)
		}
		if r.Producer != nil && r.Producer.MemPeakKB != nil {
			pp = append(pp, *r.Producer.MemPeakKB)
		}
	}
	if len(rp) > 0 {
		m := stats.Median(rp)
		res.ReaderMemPeakKB = &m
	}
	if len(pp) > 0 {
		m := stats.Median(pp)
		res.ProdMemPeakKB = &m
	}
	return res
}

func describe(r Run) string {
	if r.Status != status.OK {
		return r.Detail
	}
	s := fmt.Sprintf("%.2f ms, reader %s on cpus %s", float64(r.ElapsedNs)/1e6, termtext.ShortID(r.Reader.ContainerID), r.Reader.CPUsEffective)
	if r.Producer != nil {
		s += fmt.Sprintf(", producer %s on cpus %s", termtext.ShortID(r.Producer.ContainerID), r.Producer.CPUsEffective)
	}
	return s
}

// cpus puts the reader where the runner puts a one-thread bench and the
// producer on another CPU: the next one up, or CPU 0 (the orchestrator's)
// on a 2-CPU host. A 1-CPU host shares CPU 0.
func (p *Pair) cpus() (reader, producer string) {
	reader, _, err := runner.PlanCPUs(p.NCPU, 1)
	if err != nil {
		return "0", "0"
	}
	if p.NCPU >= 3 {
		return reader, "2"
	}
	return reader, "0"
}

// where is the image on cpus.
func (p *Pair) where(cpus string) runner.Where {
	return runner.Where{Lang: p.Lang, Image: p.Image, CPUs: cpus, Trusted: p.Trusted}
}

// job is one side's one sample of row's program unit.
func (p *Pair) job(row Row, unit, role, variant string, env []string) runner.Job {
	j := runner.Job{Unit: unit, Lang: row.Lang, Iters: 1, Timeout: p.Timeout, Env: env}
	if !row.Lang.XProcPerRole {
		j.Args = []string{role, variant}
	}
	return j
}

func (p *Pair) pair(ctx context.Context, row Row, variant string) Run {
	var r Run
	rc, pc := p.cpus()
	env := []string{
		"HALEBENCH_SHM_NAME=halebench_xproc_" + variant,
		"HALEBENCH_XPROC_TIMEOUT_MS=" + strconv.Itoa(readerTimeoutMs),
	}
	w := runner.PairWhere{Reader: p.where(rc), Producer: p.where(pc), ShmSize: ShmSize}
	ro, po := p.Sampler.SamplePair(ctx, w, p.job(row, row.ReaderUnit, "reader", variant, env), p.job(row, row.ProdUnit, "producer", variant, env))
	measured := p.side(ro, &r.Reader)
	if ctx.Err() != nil {
		return fail(r, status.Interrupted, "")
	}
	if po == nil {
		if ro.ContainerID == "" {
			return fail(r, status.RunFailed, ro.Detail)
		}
		return fail(r, status.ReaderFailed, fmt.Sprintf("the reader never said ready: %s %s", ro.Status, r.Reader.Detail))
	}
	r.Producer = &Side{}
	p.side(*po, r.Producer)
	if r.Reader.Status != status.OK {
		if measured.ExitCode == producerFailedExit && measured.Signal == "" || r.Producer.Status != status.OK {
			return fail(r, status.ProducerFailed, fmt.Sprintf("reader: %s; producer: %s %s", r.Reader.Detail, r.Producer.Status, r.Producer.Detail))
		}
		switch r.Reader.Status {
		case status.BadOutput, status.NoElapsed:
			return fail(r, r.Reader.Status, "the reader's output: "+r.Reader.Detail)
		case status.Timeout:
			return fail(r, status.Timeout, "the reader: "+r.Reader.Detail)
		}
		return fail(r, status.ReaderFailed, r.Reader.Detail)
	}
	return measuredRun(r, measured)
}

// measuredRun is a run whose side the sampler called ok: its elapsed time
// and check are the sampler's, read by the one parser of a bench's stdout
// (wire.ParseOutput), which the sampler held to its strict rules.
func measuredRun(r Run, s runner.Sample) Run {
	if s.Status != string(status.OK) || s.ElapsedNs <= 0 {
		return fail(r, status.NoElapsed, "the sampler measured no elapsed_ns")
	}
	r.Status, r.ElapsedNs, r.Check = status.OK, s.ElapsedNs, s.Check
	return r
}

func (p *Pair) inProcess(ctx context.Context, row Row, variant string) Run {
	var r Run
	// Two threads: the CPUs the runner gives a two-thread bench.
	cpus, _, err := runner.PlanCPUs(p.NCPU, 2)
	if err != nil {
		cpus = "0"
	}
	o := p.Sampler.Sample(ctx, p.where(cpus), p.job(row, row.ReaderUnit, "pair", variant, nil))
	measured := p.side(o, &r.Reader)
	if ctx.Err() != nil {
		return fail(r, status.Interrupted, "")
	}
	if r.Reader.Status != status.OK {
		return fail(r, r.Reader.Status, r.Reader.Detail)
	}
	return measuredRun(r, measured)
}

// side reads one side's outcome into side; it returns the side's sample.
func (p *Pair) side(o runner.Outcome, side *Side) runner.Sample {
	side.ContainerID, side.CPUs = o.ContainerID, o.CPUsAsked
	side.Status, side.Detail, side.CPUsEffective = o.Status, o.Detail, o.Env.Affinity
	if p.Env.MemPeakSource == "" {
		p.Env = o.Env
	}
	if o.BuildError != "" {
		side.Detail = "compile error: " + tail(o.BuildError, 300)
	}
	if len(o.Samples) == 0 {
		return runner.Sample{}
	}
	last := o.Samples[len(o.Samples)-1]
	side.MemPeakKB, side.MaxRSSKB = last.MemPeakKB, last.MaxRSSKB
	if last.StderrTail != "" && side.Status != status.OK {
		side.Detail += "; stderr: " + tail(last.StderrTail, 300)
	}
	return last
}

func fail(r Run, st status.Status, detail string) Run {
	r.Status, r.Detail = st, termtext.Clean(detail)
	return r
}

// tail is the end of a bench's text, safe for a terminal.
func tail(s string, n int) string {
	s = strings.TrimSpace(s)
	if len(s) > n {
		s = "…" + s[len(s)-n:]
	}
	return termtext.Clean(s)
}
