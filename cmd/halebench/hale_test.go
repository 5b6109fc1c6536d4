package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/enginetest"
	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/xproc"
)

// Hale as the subject for real, through the binary: built from a pinned
// tag with a vendor dir, every Hale cell ok and parity agreeing with C and
// Go; a forged baseline makes it regress (exit 1), --update-baselines takes
// its real medians, the rerun passes; then xproc's two Hale rows.
func TestSlowHaleSubjectEndToEnd(t *testing.T) {
	enginetest.Connect(t)
	git, vendor := enginetest.HaleInputs(t)
	dir := t.TempDir()
	baselines := filepath.Join(dir, "baselines.json")
	benches := []string{"fn_call", "stream_aggregator"}
	// A wide band pinned by hand (it survives the update): the rerun after
	// --update-baselines checks the mechanism, not that two runs on a busy
	// 2-CPU host land within a measured band.
	forged := `{"updated_at": "2026-01-01T00:00:00Z", "subject": "hale", "benches": {` +
		`"fn_call": {"kind": "micro", "elapsed_ns": 1, "maxrss_kb": 1, "tolerance_override": 1, "note": "forged"},` +
		`"stream_aggregator": {"kind": "app", "elapsed_ns": 1, "maxrss_kb": 1, "tolerance_override": 1, "note": "forged"}}}`
	if err := os.WriteFile(baselines, []byte(forged), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"run", "--suite=../..", "--bench=" + strings.Join(benches, ","), "--lang=hale,c,go", "--iters=2",
		"--hale-git=" + git, "--hale-vendor=" + vendor, "--baselines=" + baselines, "--results=" + filepath.Join(dir, "results"), "--json"}
	runJSON := func(wantCode int, extra ...string) *report.Report {
		t.Helper()
		code, out, errOut := run(t, nil, append(args, extra...)...)
		if code != wantCode {
			t.Fatalf("%v: exit %d, want %d\nstderr:\n%s", extra, code, wantCode, errOut)
		}
		var r report.Report
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("stdout is not the JSON report: %v\n%s", err, out)
		}
		return &r
	}

	// The forged file records no machine: its times do not gate unless
	// --gate-any-machine asks, as the seed's file does not.
	if r := runJSON(0); r.Benches[0].Status != "incomparable_machine" {
		t.Fatalf("a file without a machine gated %s: %s", r.Benches[0].Name, r.Benches[0].Status)
	}
	r := runJSON(1, "--gate-any-machine")
	hale := r.Images["hale"]
	if r.SubjectStatus != "available" || hale.Version != "hale 0.17.0" || hale.Hale == nil || hale.Hale.ReleaseCheck != "agrees" || hale.Hale.CargoLockSHA256 == "" {
		t.Fatalf("hale toolchain %+v, build %+v", hale, hale.Hale)
	}
	for _, b := range r.Benches {
		if b.SubjectResult == nil || b.SubjectResult.Status != "regression" || b.Status != "regression" {
			t.Fatalf("%s: status %q, subject %+v; want a regression against the forged baseline", b.Name, b.Status, b.SubjectResult)
		}
		if b.Parity != "ok" {
			t.Fatalf("%s: parity %q (hale check %q)", b.Name, b.Parity, b.Check)
		}
		for lang, c := range b.Comparatives {
			if c.Status != "ok" || c.RatioVsSubject == nil {
				t.Fatalf("%s %s: %+v", b.Name, lang, c)
			}
		}
	}

	runJSON(0, "--update-baselines", "--runs=2")
	data, _ := os.ReadFile(baselines)
	if strings.Contains(string(data), `"elapsed_ns": 1,`) || !strings.Contains(string(data), `"note": "forged"`) {
		t.Fatalf("baselines after --update-baselines:\n%s", data)
	}
	r = runJSON(0)
	for _, b := range r.Benches {
		if b.Status != "ok" || b.Parity != "ok" || b.BaselineElapsedNs == nil || *b.BaselineElapsedNs <= 1 {
			t.Fatalf("%s after the update: status %q parity %q", b.Name, b.Status, b.Parity)
		}
	}

	code, out, errOut := run(t, nil, "xproc", "--suite=../..", "--lang=hale,c", "--iters=1", "--variant=small",
		"--hale-git="+git, "--hale-vendor="+vendor, "--results="+filepath.Join(dir, "results"), "--json")
	if code != 0 {
		t.Fatalf("xproc: exit %d\n%s", code, errOut)
	}
	var xr xproc.Report
	if err := json.Unmarshal([]byte(out), &xr); err != nil {
		t.Fatalf("xproc stdout: %v\n%s", err, out)
	}
	rows := map[string]*xproc.Result{}
	for _, res := range xr.Variants["small"] {
		rows[res.Row] = res
	}
	for _, name := range []string{"hale", "hale_drain", "c"} {
		res := rows[name]
		if res == nil || res.Status != "ok" || res.ElapsedNsMedian <= 0 {
			t.Fatalf("xproc row %s: %+v", name, res)
		}
		if res.Check != rows["c"].Check {
			t.Fatalf("xproc row %s check %q, c's %q", name, res.Check, rows["c"].Check)
		}
	}
}
