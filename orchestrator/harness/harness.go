package harness

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand"
	"os"
	"strings"
	"time"

	"github.com/hale-lang/halebench/orchestrator/baseline"
	"github.com/hale-lang/halebench/orchestrator/catalogue"
	"github.com/hale-lang/halebench/orchestrator/engine"
	"github.com/hale-lang/halebench/orchestrator/imagebuild"
	"github.com/hale-lang/halebench/orchestrator/judge"
	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/runner"
	"github.com/hale-lang/halebench/orchestrator/toolchain"
	bkclient "github.com/moby/buildkit/client"
)

// Options are a run's settings (the CLI's flags).
type Options struct {
	Suite           string
	Bench           string
	Langs           string
	Subject         string
	NoComparative   bool
	Iters           int
	Warmup          int
	Timeout         time.Duration
	MemLimit        int64
	OutCap          int
	Baselines       string
	ResultsDir      string
	UpdateBaselines bool
	RequireSubject  bool
	Unprivileged    bool
	Images          imagebuild.Options
	Log             io.Writer // progress and warnings
	Live            bool      // Log is a terminal: show what is sampling now on a line redrawn in place
}

// Errors the CLI maps to exit codes.
var (
	ErrRegression  = errors.New("regression")
	ErrInterrupted = errors.New("interrupted")
)

// UsageError marks a run that could not be made because of its input.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

// Result is a finished (or interrupted) run.
type Result struct {
	Report     *report.Report
	ReportPath string
}

// Run runs the suite. The error is ErrRegression when the subject regressed,
// ErrInterrupted when ctx was cancelled (the partial report is written
// either way), or what stopped the run from being made.
func Run(ctx context.Context, eng *engine.Engine, o Options) (*Result, error) {
	if o.Log == nil {
		o.Log = io.Discard
	}
	if o.Iters < 1 {
		return nil, &UsageError{fmt.Sprintf("--iters=%d: need at least 1 sample", o.Iters)}
	}
	suite, err := catalogue.Load(o.Suite)
	if err != nil {
		return nil, &UsageError{err.Error()}
	}
	if err := suite.Select(o.Bench); err != nil {
		return nil, &UsageError{err.Error()}
	}
	langs, err := toolchain.Parse(o.Langs)
	if err != nil {
		return nil, &UsageError{err.Error()}
	}
	subject, ok := toolchain.ByName(o.Subject)
	if !ok {
		return nil, &UsageError{fmt.Sprintf("--subject=%s: unknown language (known: %s)", o.Subject, toolchain.Names())}
	}
	if o.NoComparative {
		langs = []toolchain.Language{subject}
	} else if !hasLang(langs, subject.Name) {
		langs, _ = toolchain.Parse(joinNames(append(langs, subject)))
	}
	base, err := baseline.Load(o.Baselines)
	if err != nil {
		return nil, &UsageError{err.Error()}
	}
	// Medians of one language never gate, or get overwritten by, another's.
	var baseWarning string
	if bs := base.SubjectOf(); bs != "" && bs != subject.Name {
		if o.UpdateBaselines {
			return nil, &UsageError{fmt.Sprintf("--update-baselines: %s holds %s's medians and this run's subject is %s; give --baselines=PATH for a %s file (a missing file starts empty)", o.Baselines, bs, subject.Name, subject.Name)}
		}
		baseWarning = fmt.Sprintf("baselines %s hold %s's medians, not %s's: nothing gates this run", o.Baselines, bs, subject.Name)
		fmt.Fprintf(o.Log, "warning: %s\n", baseWarning)
		base = &baseline.File{Benches: map[string]*baseline.Entry{}}
	}

	runID := newRunID()
	o.Images.RunID = runID
	if err := RemoveOrphans(ctx, eng, o.Log); err != nil {
		return nil, err
	}
	info, err := eng.Info(ctx)
	if err != nil {
		return nil, err
	}

	rep := &report.Report{
		Schema:      report.Schema,
		GeneratedAt: time.Now().UTC().Format(time.RFC3339Nano),
		RunID:       runID,
		Iters:       o.Iters,
		Warmup:      o.Warmup,
		Subject:     subject.Name,
		Host:        report.Host{HostInfo: info},
		Settings: report.Settings{
			TimeoutPerSample: o.Timeout.String(), MemLimitBytes: o.MemLimit, OutputCapBytes: o.OutCap,
			Languages: names(langs),
		},
		Images:      map[string]imagebuild.Toolchain{},
		BenchImages: map[string]imagebuild.BenchImage{},
		Baselines:   o.Baselines,
		Benches:     []*report.Bench{},
	}
	if baseWarning != "" {
		rep.Warnings = append(rep.Warnings, baseWarning)
	}
	for _, c := range suite.Categories {
		rep.Categories = append(rep.Categories, report.Category{Name: c.Name, Title: c.Title, Benches: c.Benches})
	}
	rep.SourcesDigest, err = sourcesDigest(suite)
	if err != nil {
		return nil, err
	}

	// Images; with --no-build nothing is built, so BuildKit is not dialled.
	var bk *bkclient.Client
	if !o.Images.NoBuild {
		if bk, err = eng.BuildKit(ctx); err != nil {
			return nil, err
		}
		defer bk.Close()
	}
	builder := imagebuild.New(eng, bk, o.Log, o.Images)
	benchImages, err := buildImages(ctx, builder, suite, langs, subject.Name, rep, o.Log)
	if err != nil {
		if ctx.Err() != nil {
			return finishInterrupted(rep, o)
		}
		return nil, err
	}
	subjTC := rep.Images[subject.Name]
	rep.SubjectStatus, rep.SubjectReason = subjTC.Status, subjTC.Reason
	if subjTC.Status != imagebuild.Available {
		msg := fmt.Sprintf("%s: %s (%s)", subject.Name, subjTC.Status, subjTC.Reason)
		rep.Warnings = append(rep.Warnings, msg+"; nothing gates this run")
		fmt.Fprintf(o.Log, "warning: %s; measuring the other languages, nothing gates\n", msg)
		if o.RequireSubject {
			return nil, &UsageError{msg + " and --require-subject was given"}
		}
	}
	for _, w := range subjTC.Warnings { // hale's release rule
		rep.Warnings = append(rep.Warnings, subject.Name+": "+w)
		if o.RequireSubject {
			return nil, &UsageError{subject.Name + ": " + w + " and --require-subject was given"}
		}
	}

	// Privilege: the most the host grants, probed once.
	var probeImg string
	for _, bi := range benchImages {
		probeImg = bi.Ref
		break
	}
	if probeImg == "" {
		return nil, &UsageError{"no language has a toolchain and a bench to run"}
	}
	priv, refused, err := eng.ProbePrivilege(ctx, probeImg, runID, o.Unprivileged)
	if err != nil {
		return nil, err
	}
	rep.Host.Privilege, rep.Host.PrivilegeRefusals = priv, refused
	if priv.Mode != engine.ModePrivileged {
		fmt.Fprintf(o.Log, "privilege: running %s (%d stronger modes refused by the engine; see host.privilege_refusals)\n", priv, len(refused))
	}

	// CPUs: one run at a time samples on this host.
	release, err := LockCPUs(ctx, o.Log)
	if err != nil {
		if ctx.Err() != nil {
			return finishInterrupted(rep, o)
		}
		return nil, err
	}
	defer release()
	if info.LogicalCPUs > 1 {
		rep.Host.OrchestratorCPUs = "0"
	} else {
		rep.Host.OrchestratorCPUs = "0 (shared)"
	}

	servers := newPool(eng, priv, runID, o.MemLimit, o.Log)
	defer servers.closeAll()
	rng := rand.New(rand.NewSource(time.Now().UnixNano()))
	total := 0
	for _, b := range suite.Benches {
		for _, l := range langs {
			if b.Sources[l.Name] != "" {
				total++
			}
		}
	}
	done := 0
	interrupted := false
	for _, b := range suite.Benches {
		rb := &report.Bench{
			Name: b.Name, Kind: b.Kind, Category: b.Category, CPUsNeeded: b.CPUs,
			Seed:             rng.Int63n(1 << 31),
			Comparatives:     map[string]*report.Lang{},
			ElapsedNsSamples: []int64{}, MaxRSSKBSamples: []int64{}, MemPeakKBSamples: []int64{},
		}
		if b.Note != "" {
			n := b.Note
			rb.Note = &n
		}
		if e := base.Benches[b.Name]; e != nil {
			v, m := e.ElapsedNs, e.MaxRSSKB
			rb.BaselineElapsedNs, rb.BaselineMaxRSSKB = &v, &m
			tol := e.Tol()
			rb.Tolerance = &tol
			if rb.Note == nil && e.Note != "" {
				n := e.Note
				rb.Note = &n
			}
		}
		rep.Benches = append(rep.Benches, rb)
		for _, l := range langs {
			if b.Sources[l.Name] == "" {
				continue
			}
			var res *report.Lang
			if interrupted || ctx.Err() != nil {
				interrupted = true
				res = &report.Lang{Status: runner.StatusInterrupted, Comparable: b.Comparable(l.Name)}
			} else {
				done++
				if o.Live {
					fmt.Fprintf(o.Log, "\r\033[K[%d/%d] %-28s %-6s sampling: %d warm-up + %d samples…", done, total, b.Name, l.Name, o.Warmup, o.Iters)
				}
				res = runOne(ctx, servers, o, rep, b, l, benchImages, info.LogicalCPUs, rb.Seed)
				if o.Live {
					fmt.Fprint(o.Log, "\r\033[K")
				}
				fmt.Fprintf(o.Log, "[%d/%d] %-28s %-6s %s\n", done, total, b.Name, l.Name, progressLine(res))
			}
			if l.Name == subject.Name {
				rb.SubjectResult = res
			} else {
				rb.Comparatives[l.Name] = res
			}
		}
		judgeBench(rb, subject.Name, base.Benches[b.Name])
	}
	servers.closeAll()
	rep.Samplers = servers.started
	if interrupted || ctx.Err() != nil {
		return finishInterrupted(rep, o)
	}

	// Memory-peak evidence, from what the first container that ran said.
	for _, rb := range rep.Benches {
		for _, res := range allLangs(rb) {
			if rep.Host.MemPeakSource == "" && res.MemPeakSource != "" {
				rep.Host.MemPeakSource, rep.Host.MemPeakError = res.MemPeakSource, res.MemPeakError
				rep.Host.ContainerCgroup = res.CgroupVersion
				if rep.Host.CPUModel == "" {
					rep.Host.CPUModel = res.CPUModel
				}
			}
		}
	}

	res := &Result{Report: rep}
	regressed := false
	for _, rb := range rep.Benches {
		if rb.Status == judge.GateRegression {
			regressed = true
		}
	}
	rep.Status = "ok"
	if regressed {
		rep.Status = "regression"
	}
	if o.UpdateBaselines {
		if err := updateBaselines(o, rep, subjTC); err != nil {
			return nil, err
		}
	}
	res.ReportPath, err = report.Write(rep, o.ResultsDir)
	if err != nil {
		return res, err
	}
	if regressed && !o.UpdateBaselines {
		return res, ErrRegression
	}
	return res, nil
}

func finishInterrupted(rep *report.Report, o Options) (*Result, error) {
	rep.Status = "interrupted"
	path, err := report.Write(rep, o.ResultsDir)
	if err != nil {
		return nil, err
	}
	return &Result{Report: rep, ReportPath: path}, ErrInterrupted
}

func newRunID() string {
	return fmt.Sprintf("%s-%d-%04x", time.Now().UTC().Format("20060102T150405"), os.Getpid(), rand.Intn(1<<16))
}

func hasLang(ls []toolchain.Language, name string) bool {
	for _, l := range ls {
		if l.Name == name {
			return true
		}
	}
	return false
}

func names(ls []toolchain.Language) []string {
	var out []string
	for _, l := range ls {
		out = append(out, l.Name)
	}
	return out
}

func joinNames(ls []toolchain.Language) string { return strings.Join(names(ls), ",") }

func short(id string) string {
	id = strings.TrimPrefix(id, "sha256:")
	if len(id) > 12 {
		return id[:12]
	}
	return id
}

func firstLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, " | ")
}
