package render

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strconv"

	"github.com/hale-lang/halebench/orchestrator/judge"
	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/result"
)

// Run is one stored report and the gate's optional verdict fields per
// bench.
type Run struct {
	Path   string
	Report *report.Report
	Gate   map[string]Gate // by bench name
}

// Gate holds the verdict fields a report may carry beyond the bench's
// status: reports written before the noise-derived gate have none of them,
// newer ones some. Each is shown only when present.
type Gate struct {
	Status   outcome.Status // the verdict's own status, when it differs from the bench's
	Band     string         // as written: a fraction, an interval, …
	BandFrac float64        // the band as a fraction of the baseline, when it is one number
	PValue   *float64       // the significance test's p
	// Metrics are the other gated metrics' verdicts (memory, and any
	// declared beyond it), in the registry's order.
	Metrics []MetricGate
}

// MetricGate is one more metric's verdict on a bench: its name, status
// and band.
type MetricGate struct {
	Name   string
	Status outcome.Status
	Band   string
}

// Any says whether the gate has anything to show.
func (g Gate) Any() bool {
	return g.Status != "" || g.Band != "" || g.PValue != nil || len(g.Metrics) > 0
}

// Load reads one run report.
func Load(path string) (*Run, error) {
	r, err := result.ReadRun(path, "report")
	if err != nil {
		return nil, err
	}
	return RunOf(path, r), nil
}

// RunOf is report r, written at path, as the page draws it.
func RunOf(path string, r *report.Report) *Run {
	run := &Run{Path: path, Report: r, Gate: map[string]Gate{}}
	for _, b := range r.Benches {
		if g := gateOf(b); g.Any() {
			run.Gate[b.Name] = g
		}
	}
	return run
}

// gateOf is what the gate's checks say of a bench beyond its status: the
// headline metric's verdict (time's, when it differs from the bench's
// own), its band and p, and each other metric's verdict with its band.
// Reports from before the checks have none of them.
func gateOf(b *report.Bench) Gate {
	var g Gate
	for _, m := range judge.All() {
		c := b.CheckOf(m)
		switch {
		case c == nil:
		case m.Headline:
			if c.Status != b.Status {
				g.Status = c.Status
			}
			g.Band, g.BandFrac, g.PValue = bandText(c.Band), c.Band, c.P
		default:
			g.Metrics = append(g.Metrics, MetricGate{Name: m.Name, Status: c.Status, Band: bandText(c.Band)})
		}
	}
	return g
}

// bandText writes a relative band: 0.12 → "±12.0%".
func bandText(f float64) string {
	return "±" + strconv.FormatFloat(f*100, 'f', 1, 64) + "%"
}

// loadRun reads one run report; among several files, an ab result or an
// xproc report is refused saying that its page draws it alone.
func loadRun(path string, several bool) (*Run, error) {
	d, err := result.Read(path)
	if err != nil {
		return nil, err
	}
	if d.Kind != result.Run && several {
		return nil, fmt.Errorf("%s is %s: its page draws it alone; give it as report's only file (several files, or --history, are run reports for the trends)", path, d.Kind.What())
	}
	if err := d.Want("report", result.Run); err != nil {
		return nil, err
	}
	return RunOf(path, d.Run), nil
}

// Source is what one page draws: run reports (the newest, the others for
// its trends), or one ab result or xproc report (Doc).
type Source struct {
	Runs []*Run
	Doc  *result.Doc
}

// LoadPage reads what report draws: one file of any kind, or run reports
// (the files given and every run-*.json under historyDir, as LoadAll).
func LoadPage(paths []string, historyDir string, progress io.Writer) (Source, error) {
	if len(paths) == 1 && historyDir == "" {
		d, err := result.Read(paths[0])
		if err != nil {
			return Source{}, err
		}
		if d.Kind != result.Run {
			return Source{Doc: d}, nil
		}
		return Source{Runs: []*Run{RunOf(paths[0], d.Run)}}, nil
	}
	runs, err := LoadAll(paths, historyDir, progress)
	return Source{Runs: runs}, err
}

// Render writes the source's page: an ab result's, an xproc report's, or
// the newest run's with the others' trends.
func (s Source) Render(w io.Writer) error {
	if s.Doc != nil {
		switch s.Doc.Kind {
		case result.AB:
			return ABPage(w, s.Doc.AB)
		case result.Xproc:
			return XprocPage(w, s.Doc.Xproc)
		case result.Run:
			return Render(w, []*Run{RunOf(s.Doc.File, s.Doc.Run)})
		}
		return fmt.Errorf("%s: no page for %s", s.Doc.File, s.Doc.Kind.What())
	}
	return Render(w, s.Runs)
}

// what names the source in report's log line.
func (s Source) what() string {
	if s.Doc != nil {
		return s.Doc.Kind.What()
	}
	return fmt.Sprintf("%d report(s)", len(s.Runs))
}

// LoadAll reads the files given and every run-*.json under historyDir,
// each once, oldest first. With more than a few files it says on progress
// how far it is.
func LoadAll(paths []string, historyDir string, progress io.Writer) ([]*Run, error) {
	if len(paths) == 0 && historyDir == "" {
		return nil, errors.New("give at least one report (results/run-*.json) or --history=results/")
	}
	all := append([]string(nil), paths...)
	if historyDir != "" {
		found, err := filepath.Glob(filepath.Join(historyDir, "run-*.json"))
		if err != nil {
			return nil, err
		}
		if len(found) == 0 {
			return nil, fmt.Errorf("no run-*.json under %s: give the results folder a run wrote", historyDir)
		}
		all = append(all, found...)
	}
	seen := map[string]bool{}
	var runs []*Run
	for i, p := range all {
		abs, _ := filepath.Abs(p)
		if seen[abs] {
			continue
		}
		seen[abs] = true
		if progress != nil && len(all) > 3 {
			fmt.Fprintf(progress, "reading report %d/%d: %s\n", i+1, len(all), p)
		}
		run, err := loadRun(p, len(all) > 1)
		if err != nil {
			if historyDir != "" && i >= len(paths) {
				// A history folder may hold an xproc or a half-written
				// file: skip it, say so.
				if progress != nil {
					fmt.Fprintf(progress, "skipping %s: %v\n", p, err)
				}
				continue
			}
			return nil, err
		}
		runs = append(runs, run)
	}
	if len(runs) == 0 {
		return nil, fmt.Errorf("no run report to render")
	}
	sort.SliceStable(runs, func(i, j int) bool { return runs[i].Report.GeneratedAt < runs[j].Report.GeneratedAt })
	return runs, nil
}
