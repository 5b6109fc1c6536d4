package xproc

import (
	"context"
	"fmt"
	"github.com/hale-lang/halebench/images/sampler/wire"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/hale-lang/halebench/orchestrator/image"
	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/plan"
	"github.com/hale-lang/halebench/orchestrator/runner"
	"github.com/hale-lang/halebench/orchestrator/stats"
	"github.com/hale-lang/halebench/orchestrator/suite"
	"github.com/hale-lang/halebench/orchestrator/termtext"
)

// Row is one line of an xproc table: a language and, for Hale, a reader kind.
type Row struct {
	Name       string // report key: hale, hale_drain, go, …
	Title      string
	Lang       suite.Language
	ReaderUnit string
	ProdUnit   string
	Args       []string // after the program, per role: role and variant are added
	InProcess  bool     // Node: both sides in one process (†)
}

// Rows lists the rows of a variant for the given languages, in table order.
func Rows(variant string, langs []suite.Language) []Row {
	var rows []Row
	for _, l := range langs {
		for _, r := range l.XProcRows(variant) {
			rows = append(rows, Row{Name: r.Key, Title: r.Title, Lang: l, ReaderUnit: r.Reader, ProdUnit: r.Producer, InProcess: r.InProcess})
		}
	}
	return rows
}

// Sources lists the xproc programs of a language in the suite
// (suite.XprocUnits), sorted by unit.
func Sources(dir string, l suite.Language) []image.Source {
	var out []image.Source
	for unit, p := range suite.XprocUnits(dir, l) {
		out = append(out, image.Source{Unit: unit, Path: p})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Unit < out[j].Unit })
	return out
}

// Expected checks.
var expected = map[string]string{
	"small": "n:200000,last_px:199999,last_sz:200000",
	"large": "n:20000,sum:105011200000",
}

// Pair runs the pair of one row iters times, each run a job on the
// reader's and one on the producer's long-lived sampler container
// (runner.Pool.SamplePair), or, in process, one job on one.
type Pair struct {
	Sampler plan.Sampler
	Lang    string // the image's language
	Image   string
	Trusted string // image.TrustedArg of the image's BenchImage.Trusted
	NCPU    int
	Timeout time.Duration
	Log     io.Writer
	// Env is what the first sampler to answer saw of its container.
	Env runner.Env
}

// ShmSize is the reader's /dev/shm: the large ring is ~82 MB, and
// Docker's default /dev/shm is 64 MiB.
const ShmSize = 256 << 20

// MemLimit bounds each side's container, beyond the ring, and each of its
// samples.
const MemLimit = 4 << 30

// OutCap is how much of a side's stdout its sampler keeps, as for run and ab.
const OutCap = 1 << 20

// readerTimeoutMs is how long a reader waits for write_seq to move before it
// says producer_failed.
const readerTimeoutMs = 10000

// producerFailedExit is how every reader exits when the producer stopped
// (status=producer_failed on its stdout; xproc/*).
const producerFailedExit = 3

// Measure runs one row iters times and summarises (MeasureRows of one).
func (p *Pair) Measure(ctx context.Context, row Row, variant string, iters int) Result {
	return MeasureRows(ctx, []*Pair{p}, []Row{row}, variant, iters)[0]
}

// MeasureRows runs rows (each on its pair, pairs[i] for rows[i], all on
// one sampler) iters times on one executor: each round one run of every
// row still live, in order, as run takes a bench's languages, so that a
// machine drifting during a variant moves every row alike and their
// ratios stay honest. A row's first run that fails ends that row.
func MeasureRows(ctx context.Context, pairs []*Pair, rows []Row, variant string, iters int) []Result {
	res := make([]Result, len(rows))
	units := make([][]plan.Job, len(rows))
	for i, row := range rows {
		res[i] = Result{Row: row.Name, Title: row.Title, Comparable: !row.InProcess, ElapsedNsSamples: []int64{}}
		units[i] = []plan.Job{pairs[i].planJob(row, variant)}
	}
	if len(rows) == 0 {
		return res
	}
	e := &plan.Exec{Sampler: pairs[0].Sampler, Schedule: plan.RoundRobin{N: iters}, Units: units,
		Take: func(round int, s plan.Step, pr plan.Result) bool {
			return pairs[s.Unit].take(ctx, rows[s.Unit], variant, round, pr, &res[s.Unit])
		}}
	e.Run(ctx)
	for i := range res {
		summarise(ctx, &res[i])
	}
	return res
}

// take reads one run of row into res; true when it failed, which ends the
// row.
func (p *Pair) take(ctx context.Context, row Row, variant string, round int, pr plan.Result, res *Result) bool {
	r := p.read(ctx, row, pr)
	if r.Status == outcome.OK && r.Check != expected[variant] {
		r.Status, r.Detail = outcome.BadChecksum, fmt.Sprintf("check %q, want %q", r.Check, expected[variant])
	}
	res.Runs = append(res.Runs, r)
	fmt.Fprintf(p.Log, "  %s %s #%d: %s %s\n", variant, row.Name, round, r.Status, describe(r))
	if r.Status != outcome.OK {
		res.Status, res.Detail = r.Status, r.Detail
		return true
	}
	res.ElapsedNsSamples = append(res.ElapsedNsSamples, r.ElapsedNs)
	res.Check = r.Check
	return false
}

// summarise gives a row that ran to its end its status and medians.
func summarise(ctx context.Context, res *Result) {
	if res.Status != "" { // a run failed
		return
	}
	if ctx.Err() != nil {
		res.Status = outcome.Interrupted
		return
	}
	res.Status = outcome.OK
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
}

func describe(r Run) string {
	if r.Status != outcome.OK {
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

// job is one side's one sample of row's program unit, placed as every
// verb's jobs are (runner.PlaceUnit). No xproc program reads the seed.
func (p *Pair) job(row Row, unit, role, variant string, env map[string]string) runner.Job {
	j := runner.PlaceUnit(unit, env, row.Lang, 0, runner.Limits{Timeout: p.Timeout, MemLimit: MemLimit, OutCap: OutCap})
	j.Iters = 1
	if !row.Lang.XProcPerRole {
		j.Args = []string{role, variant}
	}
	return j
}

// planJob is one run of row: its reader's job with the producer's
// (runner.Pool.SamplePair), or, in process, one job on the CPUs the
// runner gives a two-thread bench.
func (p *Pair) planJob(row Row, variant string) plan.Job {
	cell := plan.Cell{Bench: Unit(variant, row.Name), Lang: row.Lang.Name}
	if row.InProcess {
		cpus, _, err := runner.PlanCPUs(p.NCPU, 2)
		if err != nil {
			cpus = "0"
		}
		return plan.Job{Cell: cell, Side: "pair", Where: p.where(cpus), Job: p.job(row, row.ReaderUnit, "pair", variant, nil)}
	}
	rc, pc := p.cpus()
	env := map[string]string{
		"HALEBENCH_SHM_NAME":         "halebench_xproc_" + variant,
		"HALEBENCH_XPROC_TIMEOUT_MS": strconv.Itoa(readerTimeoutMs),
	}
	return plan.Job{Cell: cell, Side: "reader", Where: p.where(rc), Job: p.job(row, row.ReaderUnit, "reader", variant, env),
		Producer: &plan.Producer{Where: p.where(pc), Job: p.job(row, row.ProdUnit, "producer", variant, env), ShmSize: ShmSize}}
}

// read is one run of row from what its job produced.
func (p *Pair) read(ctx context.Context, row Row, pr plan.Result) Run {
	if row.InProcess {
		return p.readInProcess(ctx, pr.Outcome)
	}
	return p.readPair(ctx, pr.Outcome, pr.Producer)
}

// readPair reads a pair's two outcomes (po nil: the producer was never
// sent) into a run: whose side failed, and why.
func (p *Pair) readPair(ctx context.Context, ro runner.Outcome, po *runner.Outcome) Run {
	var r Run
	measured := p.side(ro, &r.Reader)
	if ctx.Err() != nil {
		return fail(r, outcome.Interrupted, "")
	}
	if po == nil {
		if ro.ContainerID == "" {
			return fail(r, outcome.RunFailed, ro.Detail)
		}
		return fail(r, outcome.ReaderFailed, fmt.Sprintf("the reader never said ready: %s %s", ro.Status, r.Reader.Detail))
	}
	r.Producer = &Side{}
	p.side(*po, r.Producer)
	if r.Reader.Status != outcome.OK {
		return readerFailed(r, measured)
	}
	return measuredRun(r, measured)
}

// readerFailed is a run whose reader did not end ok: the producer's fault
// when the reader said so (or the producer failed too), else the reader's.
func readerFailed(r Run, measured runner.Sample) Run {
	if measured.ExitCode == producerFailedExit && measured.Signal == "" || r.Producer.Status != outcome.OK {
		return fail(r, outcome.ProducerFailed, fmt.Sprintf("reader: %s; producer: %s %s", r.Reader.Detail, r.Producer.Status, r.Producer.Detail))
	}
	switch r.Reader.Status {
	case outcome.BadOutput, outcome.NoElapsed:
		return fail(r, r.Reader.Status, "the reader's output: "+r.Reader.Detail)
	case outcome.Timeout:
		return fail(r, outcome.Timeout, "the reader: "+r.Reader.Detail)
	}
	return fail(r, outcome.ReaderFailed, r.Reader.Detail)
}

// measuredRun is a run whose side the sampler called ok: its elapsed time
// and check are the sampler's, read by the one parser of a bench's stdout
// (wire.ParseOutput), which the sampler held to its strict rules.
func measuredRun(r Run, s runner.Sample) Run {
	if s.Status != string(outcome.OK) || s.Fig(wire.ElapsedNs) <= 0 {
		return fail(r, outcome.NoElapsed, "the sampler measured no elapsed_ns")
	}
	r.Status, r.ElapsedNs, r.Check = outcome.OK, s.Fig(wire.ElapsedNs), s.Check
	return r
}

// readInProcess reads the one outcome of an in-process pair into a run.
func (p *Pair) readInProcess(ctx context.Context, o runner.Outcome) Run {
	var r Run
	measured := p.side(o, &r.Reader)
	if ctx.Err() != nil {
		return fail(r, outcome.Interrupted, "")
	}
	if r.Reader.Status != outcome.OK {
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
	if v, ok := last.Figures.Get(wire.MemPeakKB); ok {
		side.MemPeakKB = &v
	}
	side.MaxRSSKB = last.Fig(wire.MaxRSSKB)
	if last.StderrTail != "" && side.Status != outcome.OK {
		side.Detail += "; stderr: " + tail(last.StderrTail, 300)
	}
	return last
}

func fail(r Run, st outcome.Status, detail string) Run {
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
