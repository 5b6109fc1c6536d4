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

	"github.com/hale-lang/halebench/images/sampler/wire"
	"github.com/hale-lang/halebench/orchestrator/termtext"

	"github.com/hale-lang/halebench/orchestrator/engine"
	"github.com/hale-lang/halebench/orchestrator/imagebuild"
	"github.com/hale-lang/halebench/orchestrator/runner"
	"github.com/hale-lang/halebench/orchestrator/stats"
	"github.com/hale-lang/halebench/orchestrator/status"
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

// Engine makes the containers of a pair.
type Engine interface {
	Create(ctx context.Context, s engine.Spec) (runner.Container, error)
}

// Pair runs the pair of one row iters times.
type Pair struct {
	Eng       Engine
	Image     string
	Trusted   string // imagebuild.TrustedArg of the image's BenchImage.Trusted
	Privilege engine.Privilege
	RunID     string
	NCPU      int
	Timeout   time.Duration
	Log       io.Writer
	// Env is what the first sampler to answer saw of its container.
	Env runner.Env
	// MemLimit bounds each side's container (0: 4 GiB), beyond the ring.
	MemLimit int64
	nonce    string
}

const shmSize = 256 << 20 // the large ring is ~82 MB; Docker's default /dev/shm is 64 MiB

// readerTimeoutMs is how long a reader waits for write_seq to move before it
// says producer_failed.
const readerTimeoutMs = 10000

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
	s := fmt.Sprintf("%.2f ms, reader %s on cpus %s", float64(r.ElapsedNs)/1e6, short(r.Reader.ContainerID), r.Reader.CPUsEffective)
	if r.Producer != nil {
		s += fmt.Sprintf(", producer %s on cpus %s", short(r.Producer.ContainerID), r.Producer.CPUsEffective)
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

func (p *Pair) samplerCmd(row Row, unit, role, variant string) []string {
	argv := []string{imagebuild.SamplerPath, "run", "--trusted", p.Trusted, "--iters", "1", "--warmup", "0", "--tee",
		"--timeout", p.Timeout.String(), "--build-failed", imagebuild.FailedPath(unit), "--"}
	argv = append(argv, row.Lang.Argv(imagebuild.BinPath(unit), imagebuild.SrcPath(unit, row.Lang.Ext))...)
	if !row.Lang.XProcPerRole {
		argv = append(argv, role, variant)
	}
	return argv
}

func (p *Pair) spec(row Row, cmd []string, cpus, role string, env []string) engine.Spec {
	if p.nonce == "" {
		p.nonce, _ = runner.NewNonce()
	}
	mem := p.MemLimit
	if mem <= 0 {
		mem = 4 << 30
	}
	// The sampler reads the nonce and removes it from what benches inherit;
	// only result lines carrying it are believed.
	env = append(append([]string{}, env...), "HALEBENCH_NONCE="+p.nonce)
	return engine.Spec{
		Image: p.Image, Cmd: cmd, Env: env, RunID: p.RunID, CPUs: cpus, Privilege: p.Privilege,
		Memory: mem + shmSize + 256<<20,
		Labels: map[string]string{"org.halebench.xproc": row.Name, "org.halebench.role": role},
	}
}

func (p *Pair) pair(ctx context.Context, row Row, variant string) Run {
	var r Run
	rc, pc := p.cpus()
	env := []string{
		"HALEBENCH_SHM_NAME=halebench_xproc_" + variant,
		"HALEBENCH_XPROC_TIMEOUT_MS=" + strconv.Itoa(readerTimeoutMs),
	}
	rs := p.spec(row, p.samplerCmd(row, row.ReaderUnit, "reader", variant), rc, "reader", env)
	rs.ShareShm, rs.ShmSize = true, shmSize
	reader, err := p.Eng.Create(ctx, rs)
	if err != nil {
		return fail(r, status.RunFailed, err.Error())
	}
	defer reader.Remove()
	r.Reader.ContainerID, r.Reader.CPUs = reader.Identity(), rc
	if err := reader.Start(ctx); err != nil {
		return fail(r, status.RunFailed, err.Error())
	}
	if !waitReady(ctx, reader) {
		if ctx.Err() != nil {
			return fail(r, status.Interrupted, "")
		}
		out, errOut, _ := reader.Output(context.Background(), 4096)
		return fail(r, status.ReaderFailed, "the reader never printed ready: "+tail(out+errOut, 400))
	}
	ps := p.spec(row, p.samplerCmd(row, row.ProdUnit, "producer", variant), pc, "producer", env)
	ps.ShmOf = reader.Identity()
	producer, err := p.Eng.Create(ctx, ps)
	if err != nil {
		return fail(r, status.RunFailed, err.Error())
	}
	defer producer.Remove()
	r.Producer = &Side{ContainerID: producer.Identity(), CPUs: pc}
	if err := producer.Start(ctx); err != nil {
		return fail(r, status.ProducerFailed, err.Error())
	}
	p.finish(ctx, producer, r.Producer)
	rres, measured := p.finish(ctx, reader, &r.Reader)
	if ctx.Err() != nil {
		return fail(r, status.Interrupted, "")
	}
	if r.Reader.Status != status.OK {
		if strings.Contains(rres, "status="+string(status.ProducerFailed)) || (r.Producer.Status != status.OK) {
			return fail(r, status.ProducerFailed, fmt.Sprintf("reader: %s; producer: %s %s", r.Reader.Detail, r.Producer.Status, r.Producer.Detail))
		}
		if r.Reader.Status == status.BadOutput || r.Reader.Status == status.NoElapsed {
			return fail(r, r.Reader.Status, "the reader's output: "+r.Reader.Detail)
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

// waitReady waits (at most a minute) for the reader to say it has the ring
// open.
func waitReady(ctx context.Context, reader runner.Container) bool {
	rctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	ready := false
	reader.FollowLines(rctx, func(line string) bool {
		if strings.TrimSpace(line) == "ready" {
			ready = true
			return false
		}
		return !strings.HasPrefix(line, wire.ResultPrefix)
	})
	return ready
}

func (p *Pair) inProcess(ctx context.Context, row Row, variant string) Run {
	var r Run
	// Two threads: the CPUs the runner gives a two-thread bench.
	cpus, _, err := runner.PlanCPUs(p.NCPU, 2)
	if err != nil {
		cpus = "0"
	}
	s := p.spec(row, p.samplerCmd(row, row.ReaderUnit, "pair", variant), cpus, "pair", nil)
	c, err := p.Eng.Create(ctx, s)
	if err != nil {
		return fail(r, status.RunFailed, err.Error())
	}
	defer c.Remove()
	r.Reader.ContainerID, r.Reader.CPUs = c.Identity(), cpus
	if err := c.Start(ctx); err != nil {
		return fail(r, status.RunFailed, err.Error())
	}
	_, measured := p.finish(ctx, c, &r.Reader)
	if r.Reader.Status != status.OK {
		return fail(r, r.Reader.Status, r.Reader.Detail)
	}
	return measuredRun(r, measured)
}

// finish waits for one side and reads the sampler's verdict into side; it
// returns the side's stdout and the sampler's last sample.
func (p *Pair) finish(ctx context.Context, c runner.Container, side *Side) (string, runner.Sample) {
	wctx, cancel := context.WithTimeout(ctx, p.Timeout+time.Minute)
	defer cancel()
	if _, err := c.Wait(wctx); err != nil {
		c.Kill(context.Background())
		side.Status, side.Detail = status.Timeout, err.Error()
		return "", runner.Sample{}
	}
	out, errOut, err := c.Output(context.Background(), 1<<20)
	if err != nil {
		side.Status, side.Detail = status.RunFailed, err.Error()
		return "", runner.Sample{}
	}
	res, err := runner.ParseResult(out, p.nonce)
	if err != nil {
		side.Status, side.Detail = status.RunFailed, "no sampler result: "+tail(errOut, 300)
		return out, runner.Sample{}
	}
	side.Status, side.Detail, side.CPUsEffective = status.Status(res.Status), termtext.Clean(res.Detail), res.Env.Affinity
	if p.Env.MemPeakSource == "" {
		p.Env = res.Env
	}
	if res.BuildError != "" {
		side.Detail = "compile error: " + tail(res.BuildError, 300)
	}
	var last runner.Sample
	if len(res.Samples) > 0 {
		last = res.Samples[len(res.Samples)-1]
		side.MemPeakKB, side.MaxRSSKB = last.MemPeakKB, last.MaxRSSKB
		if last.StderrTail != "" && side.Status != status.OK {
			side.Detail += "; stderr: " + tail(last.StderrTail, 300)
		}
	}
	return out, last
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

func short(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}
