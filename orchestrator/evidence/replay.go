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

	"github.com/hale-lang/halebench/orchestrator/catalogue"
	"github.com/hale-lang/halebench/orchestrator/engine"
	"github.com/hale-lang/halebench/orchestrator/harness"
	"github.com/hale-lang/halebench/orchestrator/imagebuild"
	"github.com/hale-lang/halebench/orchestrator/report"
)

// ReplayOptions say where the replay's own report goes.
type ReplayOptions struct {
	ResultsDir string
	Log        io.Writer
}

// Replay unpacks a bundle (checking every digest), runs the same benches on
// its images with nothing built, and returns the recorded report and the new
// one.
func Replay(ctx context.Context, eng *engine.Engine, bundle string, o ReplayOptions) (rec, now *report.Report, err error) {
	dir, err := os.MkdirTemp("", "halebench-replay-")
	if err != nil {
		return nil, nil, err
	}
	defer os.RemoveAll(dir)
	m, err := Unpack(ctx, eng, bundle, dir)
	if err != nil {
		return nil, nil, err
	}
	fmt.Fprintf(o.Log, "replay: %d images loaded, every digest as the manifest says\n", len(m.Images))
	rec, err = ReadReport(filepath.Join(dir, "report.json"))
	if err != nil {
		return nil, nil, err
	}
	langs := rec.Settings.Languages
	suite := filepath.Join(dir, "suite")
	bench, err := replayedBenches(rec, suite)
	if err != nil {
		return nil, nil, err
	}
	timeout, err := time.ParseDuration(rec.Settings.TimeoutPerSample)
	if err != nil {
		return nil, nil, fmt.Errorf("the report's timeout_per_sample %q: %w", rec.Settings.TimeoutPerSample, err)
	}
	plan, err := harness.Prepare(harness.Options{
		Suite: suite, Bench: bench, Langs: strings.Join(langs, ","), Subject: rec.Subject,
		Timeout: timeout, Iters: rec.Iters, Warmup: rec.Warmup, OutCap: rec.Settings.OutputCapBytes, MemLimit: rec.Settings.MemLimitBytes,
		Baselines: filepath.Join(suite, "baselines.json"), ResultsDir: o.ResultsDir, Log: o.Log,
		Images: imagebuild.Options{NoBuild: true, SourceDateEpoch: m.SourceDateEpoch, HaleSrc: filepath.Join(dir, "no-hale")},
	})
	if err != nil {
		return rec, nil, fmt.Errorf("the bundle's suite: %w", err)
	}
	res, err := harness.OnEngine(ctx, eng, plan)
	if res == nil || res.Report == nil {
		return rec, nil, err
	}
	return rec, res.Report, err
}

// replayedBenches is the --bench list that reruns the benches the report
// measured: "" (the whole suite) when it measured all the suite has.
func replayedBenches(rec *report.Report, suite string) (string, error) {
	s, err := catalogue.Load(suite)
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
	fmt.Fprintf(w, "recorded: %s (%s, %d CPUs, engine %s), run %s\n", rec.Host.Hostname, rec.Host.CPUModel, rec.Host.LogicalCPUs, rec.Host.EngineVersion, rec.RunID)
	fmt.Fprintf(w, "replayed: %s (%s, %d CPUs, engine %s), run %s\n", now.Host.Hostname, now.Host.CPUModel, now.Host.LogicalCPUs, now.Host.EngineVersion, now.RunID)
	nowBy := map[string]*report.Bench{}
	for _, b := range now.Benches {
		nowBy[b.Name] = b
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "bench\tlang\trecorded\treplayed\treplayed/recorded\timage digest")
	for _, b := range rec.Benches {
		nb := nowBy[b.Name]
		for _, lang := range sortedKeys(langsOf(b, rec.Subject)) {
			r := langsOf(b, rec.Subject)[lang]
			var n *report.Lang
			if nb != nil {
				n = langsOf(nb, now.Subject)[lang]
			}
			cell := func(l *report.Lang) string {
				if l == nil {
					return "—"
				}
				if l.Status != "ok" || l.ElapsedNsMedian == 0 {
					return string(l.Status)
				}
				return fmt.Sprintf("%.3fms", float64(l.ElapsedNsMedian)/1e6)
			}
			ratio := "—"
			if r != nil && n != nil && r.ElapsedNsMedian > 0 && n.ElapsedNsMedian > 0 {
				ratio = fmt.Sprintf("%.2f", float64(n.ElapsedNsMedian)/float64(r.ElapsedNsMedian))
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", b.Name, lang, cell(r), cell(n), ratio, short(rec.BenchImages[lang].Digest))
		}
	}
	return tw.Flush()
}

func langsOf(b *report.Bench, subject string) map[string]*report.Lang {
	m := map[string]*report.Lang{}
	for k, v := range b.Comparatives {
		m[k] = v
	}
	if b.SubjectResult != nil {
		m[subject] = b.SubjectResult
	}
	return m
}
