package evidence

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/hale-lang/halebench/orchestrator/engine"
	"github.com/hale-lang/halebench/orchestrator/harness"
	"github.com/hale-lang/halebench/orchestrator/image"
	"github.com/hale-lang/halebench/orchestrator/judge"
	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/session"
	"github.com/hale-lang/halebench/orchestrator/subject"
	"github.com/hale-lang/halebench/orchestrator/suite"
	"github.com/hale-lang/halebench/orchestrator/termtext"
)

// ReplayOptions say where the replay's own report goes.
type ReplayOptions struct {
	ResultsDir string
	Log        io.Writer
	// Notes is told when the bundle's report was made by another
	// halebench (NoteMaker); nil: Log is.
	Notes io.Writer
	// RunID names the replay's namespace, ReplayPrefix/<RunID> (lowercase
	// letters, digits, . _ -); "" picks one from the time and the process.
	RunID string
	// Partial, when set, is told by ReplayOn where the report goes (the
	// CLI's hard exit then says whether it was written).
	Partial *report.Partial
}

// ReplayOn is the replay verb on eng: in a session that builds nothing,
// the unpacked bundle u (Unpack: checked before the engine was dialled)
// replayed as Replay does and, when it ran, its medians written to w next
// to the recorded ones. Once the session is open, o.Partial is told where
// the replay's report goes.
func ReplayOn(ctx context.Context, eng engine.Driver, u *Unpacked, o ReplayOptions, w io.Writer) error {
	s, err := session.Open(ctx, session.Options{Kind: "replay", Engine: eng, Images: image.Options{NoBuild: true}, Log: o.Log})
	if err != nil {
		return err
	}
	defer s.Close()
	if o.Partial != nil {
		o.Partial.GoTo(o.ResultsDir)
	}
	now, err := u.replay(ctx, s.Eng, o)
	if now != nil {
		if werr := WriteComparison(w, u.Recorded, now); werr != nil && err == nil {
			err = werr
		}
	}
	return err
}

// Unpacked is a bundle extracted into a folder of its own (every file
// checked against its manifest) with its report, suite and baselines read
// and checked, and the run that replays it planned: all a replay's input,
// checked without an engine. Close removes the folder.
type Unpacked struct {
	Recorded *report.Report
	dir      string
	m        *Manifest
	ns       string
	plan     *harness.Plan
}

// Unpack extracts and checks the bundle for a replay (o's RunID names the
// namespace its images will be loaded under). Its errors are the bundle's.
func Unpack(bundle string, o ReplayOptions) (u *Unpacked, err error) {
	dir, err := os.MkdirTemp("", "halebench-replay-")
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			os.RemoveAll(dir)
		}
	}()
	m, err := Extract(bundle, dir)
	if err != nil {
		return nil, err
	}
	if o.RunID == "" {
		o.RunID = fmt.Sprintf("%d-%d", time.Now().Unix(), os.Getpid())
	}
	u = &Unpacked{dir: dir, m: m, ns: ReplayPrefix + "/" + o.RunID}
	if u.Recorded, err = ReadReport(filepath.Join(dir, "report.json")); err != nil {
		return nil, err
	}
	if o.Notes == nil {
		o.Notes = o.Log
	}
	NoteMaker(o.Notes, u.Recorded)
	if u.plan, err = replayPlan(u.Recorded, m, dir, u.ns, o); err != nil {
		return nil, err
	}
	return u, nil
}

// Close removes the unpacked bundle.
func (u *Unpacked) Close() { os.RemoveAll(u.dir) }

// Replay unpacks a bundle (Unpack), loads its images under a namespace of
// its own (see LoadImages), runs the same benches on them unprivileged with
// nothing built, and returns the recorded report and the new one. Nothing
// in the bundle is trusted: its images are foreign code, so they get no
// privilege and no existing tag.
func Replay(ctx context.Context, eng engine.Driver, bundle string, o ReplayOptions) (rec, now *report.Report, err error) {
	u, err := Unpack(bundle, o)
	if err != nil {
		return nil, nil, err
	}
	defer u.Close()
	now, err = u.replay(ctx, eng, o)
	return u.Recorded, now, err
}

// replay loads u's images and reruns its benches on them.
func (u *Unpacked) replay(ctx context.Context, eng engine.Driver, o ReplayOptions) (*report.Report, error) {
	if _, err := LoadImages(ctx, eng, u.m, filepath.Join(u.dir, "images.tar"), u.ns); err != nil {
		return nil, err
	}
	fmt.Fprintf(o.Log, "replay: %d images loaded as %s/…, every digest as the manifest says\n", len(u.m.Images), u.ns)
	res, err := harness.OnEngine(ctx, eng, u.plan)
	if res == nil || res.Report == nil {
		return nil, err
	}
	return res.Report, err
}

// replayPlan is the run the recorded report describes, on the images
// loaded under ns, unprivileged, building nothing.
func replayPlan(rec *report.Report, m *Manifest, dir, ns string, o ReplayOptions) (*harness.Plan, error) {
	suiteDir := filepath.Join(dir, "suite")
	bench, err := replayedBenches(rec, suiteDir)
	if err != nil {
		return nil, err
	}
	timeout, err := time.ParseDuration(rec.Settings.TimeoutPerSample)
	if err != nil {
		return nil, fmt.Errorf("the report's timeout_per_sample %q: %w", termtext.Line(rec.Settings.TimeoutPerSample), err)
	}
	plan, err := harness.Prepare(harness.Options{
		Suite: suiteDir, Bench: bench, Langs: strings.Join(rec.Settings.Languages, ","), Subject: rec.Subject,
		Timeout: timeout, Iters: rec.Iters, Warmup: rec.Warmup, OutCap: rec.Settings.OutputCapBytes, MemLimit: rec.Settings.MemLimitBytes,
		Alpha: judge.DefaultAlpha, ResultsDir: o.ResultsDir, Log: o.Log, Unprivileged: true,
		Images: image.Options{NoBuild: true, Prefix: ns, SourceDateEpoch: m.SourceDateEpoch, Subject: subject.Build{Src: filepath.Join(dir, "no-hale")}},
	})
	if err != nil {
		return nil, fmt.Errorf("the bundle's suite: %w", err)
	}
	return plan, nil
}

// replayedBenches is the --bench list that reruns the benches the report
// measured: "" (the whole suite) when it measured all the suite has.
func replayedBenches(rec *report.Report, dir string) (string, error) {
	s, err := suite.Load(dir)
	if err != nil {
		return "", fmt.Errorf("the bundle's suite: %w", err)
	}
	var names []string
	for _, b := range rec.Benches {
		if b.Category != "missing" {
			names = append(names, b.Name)
		}
	}
	if len(names) == 0 || len(names) >= len(s.All) {
		return "", nil
	}
	return strings.Join(names, ","), nil
}

// WriteComparison prints, per bench and language, the recorded median next
// to the replayed one, with both hosts named.
func WriteComparison(w io.Writer, rec, now *report.Report) error {
	// Every name here comes out of a report, the recorded one from a bundle
	// made elsewhere: each is cleaned to one inert line.
	host := func(r *report.Report) string {
		return termtext.Line(fmt.Sprintf("%s (%s, %d CPUs, engine %s), run %s", r.Host.Hostname, r.Host.CPUModel, r.Host.LogicalCPUs, r.Host.EngineVersion, r.RunID))
	}
	fmt.Fprintf(w, "recorded: %s\n", host(rec))
	fmt.Fprintf(w, "replayed: %s\n", host(now))
	nowBy := map[string]*report.Bench{}
	for _, b := range now.Benches {
		nowBy[b.Name] = b
	}
	cell := func(l *report.Lang) string {
		if l == nil {
			return "—"
		}
		if !l.Status.Measured() || l.ElapsedNsMedian == 0 {
			return termtext.Line(string(l.Status))
		}
		return fmt.Sprintf("%.3fms", float64(l.ElapsedNsMedian)/1e6)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "bench\tlang\trecorded\treplayed\treplayed/recorded\timage digest")
	for _, b := range rec.Benches {
		recLangs, nowLangs := b.Langs(rec.Subject), map[string]*report.Lang{}
		if nb := nowBy[b.Name]; nb != nil {
			nowLangs = nb.Langs(now.Subject)
		}
		for _, lang := range sortedKeys(recLangs) {
			r, n := recLangs[lang], nowLangs[lang]
			ratio := "—"
			if r != nil && n != nil && r.ElapsedNsMedian > 0 && n.ElapsedNsMedian > 0 {
				ratio = fmt.Sprintf("%.2f", float64(n.ElapsedNsMedian)/float64(r.ElapsedNsMedian))
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", termtext.Line(b.Name), termtext.Line(lang), cell(r), cell(n), ratio, termtext.Line(termtext.ShortID(rec.BenchImages[lang].Digest)))
		}
	}
	return tw.Flush()
}
