package htmlreport

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/hale-lang/halebench/orchestrator/report"
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
	Status    string   // the verdict's own status, when it differs from the bench's
	Band      string   // as written: a fraction, an interval, …
	BandFrac  float64  // the band as a fraction of the baseline, when it is one number
	PValue    *float64 // the significance test's p
	MemStatus string
	MemBand   string
}

// Any says whether the gate has anything to show.
func (g Gate) Any() bool {
	return g.Status != "" || g.Band != "" || g.PValue != nil || g.MemStatus != "" || g.MemBand != ""
}

// Load reads one run report.
func Load(path string) (*Run, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading report: %w", err)
	}
	var head struct {
		Schema string `json:"schema"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, fmt.Errorf("%s is not a JSON report: %w", path, err)
	}
	if head.Schema != report.Schema {
		return nil, fmt.Errorf("%s has schema %q; the HTML report reads run reports (%s)", path, head.Schema, report.Schema)
	}
	var r report.Report
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var raw struct {
		Benches []map[string]json.RawMessage `json:"benches"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	run := &Run{Path: path, Report: &r, Gate: map[string]Gate{}}
	for _, b := range raw.Benches {
		var name string
		json.Unmarshal(b["name"], &name)
		if g := gateOf(b); g.Any() {
			run.Gate[name] = g
		}
	}
	return run, nil
}

// gateOf finds the verdict fields in a bench: inside a "verdict" object
// when there is one, else beside the bench's own fields.
func gateOf(bench map[string]json.RawMessage) Gate {
	src := bench
	if v, ok := bench["verdict"]; ok {
		var obj map[string]json.RawMessage
		if json.Unmarshal(v, &obj) == nil {
			src = obj
		}
	}
	var g Gate
	if _, nested := bench["verdict"]; nested {
		json.Unmarshal(src["status"], &g.Status)
		var benchStatus string
		json.Unmarshal(bench["status"], &benchStatus)
		if g.Status == benchStatus {
			g.Status = ""
		}
	}
	g.Band, g.BandFrac = bandText(src["band"])
	var p float64
	if raw, ok := src["p_value"]; ok && json.Unmarshal(raw, &p) == nil {
		g.PValue = &p
	}
	json.Unmarshal(src["mem_status"], &g.MemStatus)
	g.MemBand, _ = bandText(src["mem_band"])
	return g
}

// bandText writes a band however it was recorded: a fraction (0.12 →
// "±12.0%"), an interval [lo, hi], or anything else as its JSON.
func bandText(raw json.RawMessage) (string, float64) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", 0
	}
	var f float64
	if json.Unmarshal(raw, &f) == nil {
		return "±" + strconv.FormatFloat(f*100, 'f', 1, 64) + "%", f
	}
	var pair []float64
	if json.Unmarshal(raw, &pair) == nil && len(pair) == 2 {
		return fmt.Sprintf("[%s, %s]", report.FormatRatio(pair[0]), report.FormatRatio(pair[1])), 0
	}
	return strings.TrimSpace(string(raw)), 0
}

// LoadAll reads the files given and every run-*.json under historyDir,
// each once, oldest first. With more than a few files it says on progress
// how far it is.
func LoadAll(paths []string, historyDir string, progress io.Writer) ([]*Run, error) {
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
		run, err := Load(p)
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
