package xproc

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/hale-lang/halebench/orchestrator/collect"
	"github.com/hale-lang/halebench/orchestrator/engine"
	"github.com/hale-lang/halebench/orchestrator/image"
	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/plan"
	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/session"
	"github.com/hale-lang/halebench/orchestrator/stamp"
	"github.com/hale-lang/halebench/orchestrator/suite"
)

// Options are an xproc run's settings (the CLI's flags).
type Options struct {
	Suite      string
	Langs      []suite.Language
	Subject    string
	Variants   []string
	Iters      int
	Timeout    time.Duration // per run, of each side
	ResultsDir string
	Images     image.Options
	Log        io.Writer
	// Shard is this xproc's part of a sharded xproc (N 0: unsharded).
	Shard plan.Spec
}

// Settle completes o from what the flags give in their own forms and
// checks it (CheckOptions), before any engine is needed: the variants
// (variant "": both), and the shard asked for, K/N read from the CI said on
// o.Log. xproc balances its pairs by their rows, so no --shard-costs.
func (o *Options) Settle(variant string, shard plan.Asked, getenv func(string) string) error {
	o.Variants = []string{"small", "large"}
	if variant != "" {
		o.Variants = []string{variant}
	}
	if shard.Costs != "" {
		return fmt.Errorf("--shard-costs=%s: xproc balances its pairs by their rows; no report records what a pair costs", shard.Costs)
	}
	var err error
	if o.Shard, err = shard.Resolve(getenv, o.Log); err != nil {
		return err
	}
	return CheckOptions(*o)
}

// CheckOptions refuses bad settings before any engine is needed.
func CheckOptions(o Options) error {
	if o.Iters < 1 {
		return fmt.Errorf("--iters=%d: need at least 1 run", o.Iters)
	}
	if o.Timeout <= 0 {
		return fmt.Errorf("--timeout=%s: must be positive", o.Timeout)
	}
	for _, v := range o.Variants {
		if _, ok := Variants[v]; !ok {
			return fmt.Errorf("--variant=%s: want small or large", v)
		}
	}
	return suite.CheckXproc(o.Suite)
}

// RunOnEngine measures every row of every variant, each run of a pair a job
// on each of its two sampler containers (kept for the session), inside one
// session on eng (dialled by the caller); it writes the report
// and returns it
// with its path. A cancelled ctx still writes what was measured, and the
// error is session.ErrInterrupted.
func RunOnEngine(ctx context.Context, eng engine.Driver, o Options) (*Report, string, error) {
	if err := CheckOptions(o); err != nil {
		return nil, "", err
	}
	if o.Log == nil {
		o.Log = io.Discard
	}
	sel, part, err := selectShard(o)
	if err != nil {
		return nil, "", err
	}
	if part != nil {
		o.Langs = langsOf(o, sel)
	}
	rep, err := newReport(o, part)
	if err != nil {
		return nil, "", err
	}
	s, err := session.Open(ctx, session.Options{Kind: "xproc", Engine: eng, Images: o.Images, Log: o.Log, MemLimit: MemLimit})
	if err != nil {
		return nil, "", err
	}
	defer s.Close()
	if err := runnable(s); err != nil {
		return nil, "", err
	}
	rep.GeneratedAt, rep.RunID, rep.Host = time.Now().UTC().Format(time.RFC3339Nano), s.RunID, report.Host{HostInfo: collect.HostInfo(s.Host)}
	images, err := buildImages(ctx, s.Builder, o, rep)
	if err != nil {
		return nil, "", err
	}
	if len(images) == 0 && len(o.Langs) > 0 {
		return nil, "", errors.New("no language has both a toolchain and an xproc program")
	}
	sp, err := s.Ready(ctx)
	if err != nil {
		return nil, "", err
	}
	priv, refused := sp.Privilege()
	rep.Host.Privilege, rep.Host.PrivilegeRefusals = collect.Privilege(priv), collect.Attempts(refused)
	measureAll(ctx, sp, s.Host.LogicalCPUs, o, rep, images, sel)
	started := sp.CloseSamplers()
	rep.Samplers = collect.Samplers(started)
	fmt.Fprintf(o.Log, "xproc: %d sampler containers started\n", len(started))
	rep.Status = outcome.OK
	if ctx.Err() != nil {
		rep.Status = outcome.Interrupted
	}
	path, err := report.WriteJSON(rep, o.ResultsDir)
	if err != nil {
		return rep, "", err
	}
	if ctx.Err() != nil {
		return rep, path, session.ErrInterrupted
	}
	return rep, path, nil
}

// newReport is the report's head as the options give it, before any
// engine (the session fills in its time, run id and host): the sources digest of the languages measured (part: this
// shard's partition, nil unsharded) read from their programs.
func newReport(o Options, part *report.Shard) (*Report, error) {
	digest, err := plan.Digest(sources(o))
	if err != nil {
		return nil, err
	}
	return &Report{
		Kind: report.XprocKind, Schema: report.XprocSchema, Halebench: stamp.This(),
		Iters: o.Iters, Subject: o.Subject, SourcesDigest: digest,
		Images: map[string]report.Toolchain{}, BenchImages: map[string]report.BenchImage{},
		Sharing: report.Sharing, Notes: report.Notes, Variants: map[string][]*Result{}, Shard: part,
	}, nil
}

// runnable refuses an engine xproc cannot measure on: one that cannot put
// a reader and a producer on one /dev/shm, or one that would emulate the
// images' programs.
func runnable(s *session.Session) error {
	if err := s.Features.Need("xproc's pairs (a reader and a producer on one /dev/shm)", engine.FeatSharedIPC); err != nil {
		return err
	}
	if pl := session.PlatformOf(s.Host, s.Builder.Arch()); pl.Emulated != "" {
		return fmt.Errorf("xproc --platform=linux/%s: %s; run xproc on a %s host", pl.Arch, pl.Emulated, pl.Arch)
	}
	return nil
}

// buildImages makes each language's toolchain and an image of its xproc
// programs (session.BuildImages); it returns the image of each language
// that has one.
func buildImages(ctx context.Context, b session.Builder, o Options, rep *Report) (map[string]image.BenchImage, error) {
	built, err := session.BuildImages(ctx, b, session.Need{
		Langs:   o.Langs,
		Sources: func(l suite.Language) []image.Source { return Sources(o.Suite, l) },
	}, o.Log)
	if err != nil {
		return nil, err
	}
	if built.Base != nil {
		rep.Base = collect.Base(*built.Base)
	}
	for name, tc := range built.Toolchains {
		rep.Images[name] = collect.Toolchain(tc)
	}
	rep.SubjectBuild = rep.Images[o.Subject].Hale
	for name, bi := range built.Benches {
		rep.BenchImages[name] = collect.BenchImage(bi)
	}
	return built.Benches, nil
}

// measureAll runs every row of every variant until done or cancelled,
// a variant's rows side by side in rounds (MeasureRows). sel, on a
// sharded xproc, is what this shard measures: its units, and its
// reference rows, marked as such.
func measureAll(ctx context.Context, sp *session.Sampling, ncpu int, o Options, rep *Report, images map[string]image.BenchImage, sel *selection) {
	for _, v := range o.Variants {
		var results []*Result
		var rows []Row
		var pairs []*Pair
		var at []int // where each measured row's result goes
		for _, row := range Rows(v, o.Langs) {
			measure, ref := sel.measures(v, row)
			if !measure {
				continue
			}
			bi, ok := images[row.Lang.Name]
			if !ok {
				results = append(results, &Result{Row: row.Name, Title: row.Title, Status: outcome.Unavailable, Detail: noImageWhy(rep, row.Lang), ElapsedNsSamples: []int64{}, Reference: ref})
				continue
			}
			results = append(results, &Result{Reference: ref}) // its place; MeasureRows gives the rest
			rows, at = append(rows, row), append(at, len(results)-1)
			pairs = append(pairs, &Pair{Sampler: sp, Lang: row.Lang.Name, Image: bi.Ref, Trusted: image.TrustedArg(bi.Trusted), NCPU: ncpu, Timeout: o.Timeout, Log: o.Log})
		}
		if results == nil {
			continue // a shard without this variant
		}
		for i, res := range MeasureRows(ctx, pairs, rows, v, o.Iters) {
			res.Reference = results[at[i]].Reference
			*results[at[i]] = res
			collect.NoteSampler(&rep.Host, pairs[i].Env)
		}
		Ratios(results, o.Subject)
		rep.Variants[v] = results
		if ctx.Err() != nil {
			return
		}
	}
}

// noImageWhy says why a language has no image of xproc programs: its
// toolchain's reason, or that the suite holds no xproc program in it.
func noImageWhy(rep *Report, l suite.Language) string {
	if why := rep.Images[l.Name].Reason; why != "" {
		return why
	}
	if l.XProcPerRole {
		return "no xproc program in this language: the suite has no xproc/" + l.Name + "/*." + l.Ext
	}
	return "no xproc program in this language: the suite has no xproc/xproc." + l.Ext
}
