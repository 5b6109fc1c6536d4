package harness

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math/rand"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/hale-lang/halebench/orchestrator/baseline"
	"github.com/hale-lang/halebench/orchestrator/catalogue"
	"github.com/hale-lang/halebench/orchestrator/engine"
	"github.com/hale-lang/halebench/orchestrator/imagebuild"
	"github.com/hale-lang/halebench/orchestrator/judge"
	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/runner"
	"github.com/hale-lang/halebench/orchestrator/stats"
	"github.com/hale-lang/halebench/orchestrator/toolchain"
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
	Updated    []string // baselines rewritten by --update-baselines
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

	runID := newRunID()
	o.Images.RunID = runID
	if err := removeOrphans(ctx, eng, o.Log); err != nil {
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
	for _, c := range suite.Categories {
		rep.Categories = append(rep.Categories, report.Category{Name: c.Name, Title: c.Title, Benches: c.Benches})
	}
	rep.SourcesDigest, err = sourcesDigest(suite)
	if err != nil {
		return nil, err
	}

	// Images.
	var bk interface{ Close() error }
	var builder *imagebuild.Builder
	if o.Images.NoBuild {
		builder = imagebuild.New(eng, nil, o.Log, o.Images)
	} else {
		c, err := eng.BuildKit(ctx)
		if err != nil {
			return nil, err
		}
		bk = c
		builder = imagebuild.New(eng, c, o.Log, o.Images)
	}
	if bk != nil {
		defer bk.Close()
	}
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
				res = runOne(ctx, servers, o, rep, b, l, benchImages, info.LogicalCPUs, rb.Seed, runID)
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
		res.Updated, err = updateBaselines(o, rep, subjTC)
		if err != nil {
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

func runOne(ctx context.Context, servers *pool, o Options, rep *report.Report, b *catalogue.Bench, l toolchain.Language,
	images map[string]imagebuild.BenchImage, ncpu int, seed int64, runID string) *report.Lang {
	res := &report.Lang{Comparable: b.Comparable(l.Name), ElapsedNsSamples: []int64{}, MaxRSSKBSamples: []int64{}, MemPeakKBSamples: []int64{}}
	tc := rep.Images[l.Name]
	if tc.Status != imagebuild.Available {
		res.Status, res.Detail = "unavailable", tc.Reason
		return res
	}
	bi, ok := images[l.Name]
	if !ok {
		res.Status, res.Detail = "unavailable", "no bench image"
		return res
	}
	cpus, shared, err := runner.PlanCPUs(ncpu, b.CPUs)
	if err != nil {
		res.Status, res.Detail = "skipped", err.Error()
		return res
	}
	res.CPUs, res.CPUsShared, res.Image = cpus, shared, bi.Ref
	var env []string
	for k, v := range b.Env {
		env = append(env, k+"="+v)
	}
	sort.Strings(env)
	srv, err := servers.get(ctx, l.Name, bi.Ref, cpus)
	if err != nil {
		res.Status, res.Detail = runner.StatusRunFailed, err.Error()
		return res
	}
	out := srv.Run(ctx, runner.Job{Env: env,
		Bench: b.Name, Unit: b.Name, Lang: l, Image: bi.Ref, CPUs: cpus,
		Iters: o.Iters, Warmup: o.Warmup, Timeout: o.Timeout, Seed: seed,
		MemLimit: o.MemLimit, OutCap: o.OutCap, RunID: runID,
	})
	res.Status, res.Detail, res.BuildError = out.Status, out.Detail, out.BuildError
	res.CPUsEffective, res.CgroupCpuset = out.Env.Affinity, out.Env.CgroupCpuset
	res.ContainerID, res.ContainerNs = out.ContainerID, out.ContainerNs
	res.Samples = out.Samples
	res.MemPeakSource, res.MemPeakError = out.Env.MemPeakSource, out.Env.MemPeakError
	res.CgroupVersion, res.CPUModel = out.Env.CgroupVersion, out.Env.CPUModel
	if res.Status == "build_failed" {
		res.Detail = "compile error: " + firstLines(out.BuildError, 3)
	}
	if res.Status != runner.StatusOK {
		return res
	}
	var el, rss, peak, over []int64
	checks := map[string]bool{}
	for _, s := range out.Samples {
		el = append(el, s.ElapsedNs)
		rss = append(rss, s.MaxRSSKB)
		if s.MemPeakKB != nil {
			peak = append(peak, *s.MemPeakKB)
		}
		if d := s.WallNs - s.ElapsedNs; d > 0 {
			over = append(over, d)
		}
		checks[s.Check] = true
		res.Check = s.Check
	}
	if len(checks) > 1 {
		// The same program printed different checks from sample to sample.
		res.Status, res.Detail = "parity_mismatch", "check differs between samples of the same program"
	}
	res.ElapsedNsSamples, res.MaxRSSKBSamples = el, rss
	if peak != nil {
		res.MemPeakKBSamples = peak
		m := stats.Median(peak)
		res.MemPeakKBMedian = &m
	}
	res.ElapsedNs = stats.Summarize(el)
	res.ElapsedNsMedian = res.ElapsedNs.Median
	res.MaxRSSKBMedian = stats.Median(rss)
	res.OverheadNs = stats.Median(over)
	return res
}

// judgeBench sets parity, ratios and the subject's gate status.
func judgeBench(rb *report.Bench, subject string, e *baseline.Entry) {
	checks := map[string]string{}
	for name, res := range langMap(rb, subject) {
		if res.Status == runner.StatusOK {
			checks[name] = res.Check
		}
	}
	verdict, mismatched, agreed := judge.Parity(checks)
	rb.Parity, rb.Check = verdict, agreed
	for _, l := range mismatched {
		res := langMap(rb, subject)[l]
		res.Status = "parity_mismatch"
		res.Detail = fmt.Sprintf("check %q differs from the siblings' %q", res.Check, agreed)
	}
	subj := rb.SubjectResult
	measured := func(r *report.Lang) bool {
		return r != nil && (r.Status == runner.StatusOK || r.Status == "parity_mismatch") && r.ElapsedNsMedian > 0
	}
	for name, res := range rb.Comparatives {
		if !measured(res) {
			continue
		}
		if measured(subj) {
			r := stats.Ratio(res.ElapsedNsMedian, subj.ElapsedNsMedian)
			res.RatioVsSubject = &r
			if subject == "hale" {
				res.RatioVsHale = &r
			}
		}
		_ = name
	}
	if subj == nil {
		rb.Status = "no_subject_source"
		return
	}
	if !measured(subj) {
		rb.Status = subj.Status
		if subj.Status == "unavailable" {
			rb.Status = "subject_unavailable"
		}
		return
	}
	m, rss := subj.ElapsedNsMedian, subj.MaxRSSKBMedian
	rb.ElapsedNsMedian, rb.ElapsedNsSamples = &m, subj.ElapsedNsSamples
	rb.MaxRSSKBMedian, rb.MaxRSSKBSamples = &rss, subj.MaxRSSKBSamples
	rb.MemPeakKBMedian, rb.MemPeakKBSamples = subj.MemPeakKBMedian, subj.MemPeakKBSamples
	if subj.Status == "parity_mismatch" {
		rb.Status = "parity_mismatch"
		return
	}
	rb.Status = judge.Gate(m, e)
	if rb.Status == judge.GateRegression {
		subj.Status = "regression"
		subj.Detail = fmt.Sprintf("median %d ns > baseline %d ns × (1 + %.2f)", m, e.ElapsedNs, e.Tol())
	}
}

func langMap(rb *report.Bench, subject string) map[string]*report.Lang {
	m := map[string]*report.Lang{}
	for k, v := range rb.Comparatives {
		m[k] = v
	}
	if rb.SubjectResult != nil {
		m[subject] = rb.SubjectResult
	}
	return m
}

func allLangs(rb *report.Bench) []*report.Lang {
	var out []*report.Lang
	if rb.SubjectResult != nil {
		out = append(out, rb.SubjectResult)
	}
	keys := make([]string, 0, len(rb.Comparatives))
	for k := range rb.Comparatives {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		out = append(out, rb.Comparatives[k])
	}
	return out
}

func buildImages(ctx context.Context, b *imagebuild.Builder, suite *catalogue.Suite, langs []toolchain.Language, subject string, rep *report.Report, log io.Writer) (map[string]imagebuild.BenchImage, error) {
	start := time.Now()
	goLang, _ := toolchain.ByName("go")
	goTC, err := b.Toolchain(ctx, goLang)
	if err != nil {
		return nil, err
	}
	if goTC.Status != imagebuild.Available {
		return nil, fmt.Errorf("the go toolchain image (which builds the sampler) is %s: %s", goTC.Status, goTC.Reason)
	}
	if base, err := b.Base(ctx); err == nil {
		rep.Base = base
	}
	out := map[string]imagebuild.BenchImage{}
	for _, l := range langs {
		var srcs []imagebuild.Source
		for _, bench := range suite.Benches {
			if p := bench.Sources[l.Name]; p != "" {
				srcs = append(srcs, imagebuild.Source{Unit: bench.Name, Path: p})
			}
		}
		if len(srcs) == 0 && l.Name != subject {
			continue
		}
		tc := goTC
		if l.Name != "go" {
			if tc, err = b.Toolchain(ctx, l); err != nil {
				return nil, err
			}
		}
		rep.Images[l.Name] = tc
		if tc.Status != imagebuild.Available {
			fmt.Fprintf(log, "images: %s %s: %s\n", l.Name, tc.Status, tc.Reason)
			continue
		}
		if len(srcs) == 0 {
			continue
		}
		bi, err := b.BenchImage(ctx, l, tc, goTC, srcs)
		if err != nil {
			return nil, err
		}
		rep.BenchImages[l.Name] = bi
		out[l.Name] = bi
		fmt.Fprintf(log, "images: %-6s %s (%s); benches %s: %d steps run, %d cached\n", l.Name, tc.Version, short(tc.ID), short(bi.ID), bi.Executed, bi.Cached)
	}
	if _, ok := rep.Images["go"]; !ok {
		rep.Images["go"] = goTC
	}
	fmt.Fprintf(log, "images: ready in %.1fs\n", time.Since(start).Seconds())
	return out, nil
}

func updateBaselines(o Options, rep *report.Report, tc imagebuild.Toolchain) ([]string, error) {
	m := map[string]baseline.Measured{}
	for _, rb := range rep.Benches {
		if rb.ElapsedNsMedian == nil || rb.Status == "parity_mismatch" {
			continue
		}
		v := baseline.Measured{Kind: rb.Kind, ElapsedNs: *rb.ElapsedNsMedian, MaxRSSKB: *rb.MaxRSSKBMedian}
		if rb.MemPeakKBMedian != nil {
			v.MemPeakKB = *rb.MemPeakKBMedian
		}
		m[rb.Name] = v
	}
	if len(m) == 0 {
		fmt.Fprintf(o.Log, "baselines: no %s result to record; %s unchanged\n", rep.Subject, o.Baselines)
		return nil, nil
	}
	host := fmt.Sprintf("%s, %d CPUs, kernel %s", rep.Host.CPUModel, rep.Host.LogicalCPUs, rep.Host.Kernel)
	names, err := baseline.Update(o.Baselines, m, baseline.Provenance{Subject: rep.Subject, Toolchain: tc.Version, Host: host}, time.Now())
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(o.Log, "baselines: %d benches of %s rewritten in %s\n", len(names), rep.Subject, o.Baselines)
	return names, nil
}

func finishInterrupted(rep *report.Report, o Options) (*Result, error) {
	rep.Status = "interrupted"
	path, err := report.Write(rep, o.ResultsDir)
	if err != nil {
		return nil, err
	}
	return &Result{Report: rep, ReportPath: path}, ErrInterrupted
}

// removeOrphans removes containers that a halebench run on this host left
// when it was killed: their owner process is gone.
func removeOrphans(ctx context.Context, eng *engine.Engine, log io.Writer) error {
	n, err := eng.RemoveOrphans(ctx)
	if err != nil {
		return err
	}
	if n > 0 {
		fmt.Fprintf(log, "cleanup: removed %d containers left by a killed halebench run\n", n)
	}
	return nil
}

func sourcesDigest(s *catalogue.Suite) (string, error) {
	h := sha256.New()
	var paths []string
	for _, b := range s.Benches {
		for _, p := range b.Sources {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			return "", err
		}
		sum := sha256.Sum256(data)
		fmt.Fprintf(h, "%s %x\n", p, sum)
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), nil
}

func progressLine(r *report.Lang) string {
	if r.Status != runner.StatusOK {
		d := r.Detail
		if len(d) > 100 {
			d = d[:100] + "…"
		}
		return r.Status + ": " + d
	}
	peak := "n/a"
	if r.MemPeakKBMedian != nil {
		peak = fmt.Sprintf("%d KiB", *r.MemPeakKBMedian)
	}
	return fmt.Sprintf("median %s (cv %.1f%%), peak %s, cpus %s", report.FormatNs(r.ElapsedNsMedian), r.ElapsedNs.CV*100, peak, r.CPUsEffective)
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
