package harness_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/hale-lang/halebench/images/sampler/wire"
	"os"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/harness"
	"github.com/hale-lang/halebench/orchestrator/judge"
	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/render"
	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/stats"
)

// toyNs is a fourth metric, declared in this file alone: each sample's
// elapsed time again, recorded in the baseline as half the runs' median
// (its own key, toy_ns, a positive integer), so a run the time metric
// passes regresses on it, held to the entry's time band.
var toyNs = &judge.Metric{
	Name: "toy_ns", Unit: "ns",
	Of: wire.ElapsedNs,
	Fields: &judge.Fields{Metric: "toy_ns", Keys: []string{"toy_ns"},
		Check: func(where string, e *judge.Entry) string {
			if _, ok := toyBase(e); !ok && e.Has("toy_ns") {
				return where + "field toy_ns must be a positive integer"
			}
			return ""
		}},
	Record: func(m *judge.Metric, e *judge.Entry, runs []judge.MetricCell) {
		var all []int64
		for _, r := range runs {
			all = append(all, m.Read(r).Samples...)
		}
		if err := e.SetFigure("toy_ns", stats.Median(all)/2); err != nil {
			panic(err)
		}
	},
	Baseline: func(e *judge.Entry) (judge.Base, bool) {
		ns, ok := toyBase(e)
		return judge.Base{Median: ns, Band: e.Tol(), BandFrom: "toy: half the runs' median"}, ok
	},
	Judge: func(c judge.Values, b judge.Base, _ float64) judge.MetricCheck {
		v := judge.MetricCheck{Status: outcome.OK, Median: c.Median, Baseline: b.Median, Band: b.Band, BandFrom: b.BandFrom}
		v.Ratio = float64(c.Median) / float64(b.Median)
		if v.Ratio > 1+v.Band {
			v.Status, v.Why = outcome.Regression, fmt.Sprintf("toy_ns %s the baseline", judge.Pct(v.Ratio))
		}
		return v
	},
	Regressed: outcome.Regression,
	Column:    "toy_ns",
	Format:    report.FormatNs,
}

// A metric declared in one file is gated, written in the JSON and shown
// in the grid and the JUnit file: the same run passes without it and fails
// on it.
func TestFakeToyMetricDeclaredOnce(t *testing.T) {
	o := fakeOptions(t, "c", "c", "count")
	eng := func() *fakeEngine {
		return &fakeEngine{elapsed: map[string]int64{"c": 1}, check: map[string]string{"c": "n:1"}, timeOf: jittered(100_000)}
	}
	rebaseline(t, o, eng())
	res, err := runFake(t, context.Background(), fakeEnv(fakeImages{}, eng(), 2), o)
	if err != nil || res.Report.Status != outcome.OK || strings.Contains(readFile(t, res.ReportPath), `"metrics"`) {
		t.Fatalf("without the toy metric: err %v status %s", err, res.Report.Status)
	}

	// Declared, the toy is recorded by --update-baselines, read back and
	// checked with the file, and gated against.
	t.Cleanup(judge.Register(toyNs))
	f := rebaseline(t, o, eng())
	e := f.Benches["count"]
	if ns, ok := toyBase(e); !ok || ns != e.ElapsedNs/2 || !strings.Contains(readFile(t, o.Baselines), `"toy_ns": `) {
		t.Fatalf("baseline: toy_ns %d %v, elapsed_ns %d", ns, ok, e.ElapsedNs)
	}
	res, err = runFake(t, context.Background(), fakeEnv(fakeImages{}, eng(), 2), o)
	b := bench(res.Report, "count")
	if !errors.Is(err, harness.ErrRegression) || res.Report.Status != outcome.Regression || b.Status != outcome.Regression ||
		strings.Join(res.Report.FlaggedBy, ",") != "toy_ns" || b.TimeVerdict == nil || b.TimeVerdict.Status != outcome.OK {
		t.Fatalf("gate: err %v status %s bench %s flagged %v time %+v", err, res.Report.Status, b.Status, res.Report.FlaggedBy, b.TimeVerdict)
	}

	var doc struct {
		Benches []struct {
			Metrics map[string]report.Check `json:"metrics"`
			Subject struct {
				Metrics map[string]int64 `json:"metrics"`
			} `json:"subject_result"`
		} `json:"benches"`
	}
	if err := json.Unmarshal([]byte(readFile(t, res.ReportPath)), &doc); err != nil || len(doc.Benches) != 1 {
		t.Fatalf("report: %v", err)
	}
	jb := doc.Benches[0]
	if c := jb.Metrics["toy_ns"]; c.Status != outcome.Regression || c.Baseline != *b.BaselineElapsedNs/2 || c.Median != *b.ElapsedNsMedian || jb.Subject.Metrics["toy_ns"] != *b.ElapsedNsMedian {
		t.Fatalf("JSON: verdict %+v, subject's median %v", c, jb.Subject.Metrics)
	}

	var grid strings.Builder
	report.Grid(&grid, res.Report)
	cell := report.FormatNs(*b.ElapsedNsMedian) + " REGRESSION"
	for _, want := range []string{"C toy_ns", cell, "gate: regression (flagged by toy_ns)", "toy_ns +"} {
		if !strings.Contains(grid.String(), want) {
			t.Fatalf("grid lacks %q:\n%s", want, grid.String())
		}
	}

	// A toy_ns no Record wrote is refused on read, by its name.
	forged := strings.Replace(readFile(t, o.Baselines), `"toy_ns": `, `"toy_ns": -`, 1)
	if _, err := judge.Parse("forged.json", []byte(forged)); err == nil || !strings.Contains(err.Error(), "bench count: field toy_ns must be a positive integer") {
		t.Fatalf("forged toy_ns: %v", err)
	}

	var junit strings.Builder
	if err := render.JUnit(&junit, res.Report); err != nil || !strings.Contains(junit.String(), "toy_ns median "+report.FormatNs(*b.ElapsedNsMedian)) {
		t.Fatalf("JUnit lacks the toy's figures: %v\n%s", err, junit.String())
	}
}

// toyBase is an entry's toy_ns; false where it holds none, or not a
// positive integer.
func toyBase(e *judge.Entry) (int64, bool) {
	var ns int64
	if e == nil {
		return 0, false
	}
	ok, err := e.Figure("toy_ns", &ns)
	return ns, ok && err == nil && ns > 0
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
