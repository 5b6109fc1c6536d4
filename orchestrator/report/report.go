package report

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/hale-lang/halebench/orchestrator/engine"
	"github.com/hale-lang/halebench/orchestrator/imagebuild"
	"github.com/hale-lang/halebench/orchestrator/runner"
	"github.com/hale-lang/halebench/orchestrator/stats"
)

// Report is one run.
type Report struct {
	Schema        string                           `json:"schema"`
	GeneratedAt   string                           `json:"generated_at"`
	RunID         string                           `json:"run_id"`
	Status        string                           `json:"status"` // ok, regression, interrupted
	Iters         int                              `json:"iters"`
	Warmup        int                              `json:"warmup"`
	Subject       string                           `json:"subject"`
	SubjectStatus string                           `json:"subject_status"`
	SubjectReason string                           `json:"subject_reason,omitempty"`
	Host          Host                             `json:"host"`
	Settings      Settings                         `json:"settings"`
	Base          imagebuild.Base                  `json:"base_image"`
	Images        map[string]imagebuild.Toolchain  `json:"images"`
	BenchImages   map[string]imagebuild.BenchImage `json:"bench_images"`
	SourcesDigest string                           `json:"sources_digest"`
	Baselines     string                           `json:"baselines"`
	Benches       []*Bench                         `json:"benches"`
	Warnings      []string                         `json:"warnings,omitempty"`
	Samplers      []SamplerContainer               `json:"sampler_containers"`
	Categories    []Category                       `json:"categories"`
}

// SamplerContainer is one long-lived container that took the samples of a
// language on a cpuset, and what starting it cost.
type SamplerContainer struct {
	Lang        string `json:"lang"`
	CPUs        string `json:"cpus"`
	ContainerID string `json:"container_id"`
	StartNs     int64  `json:"start_ns"`
}

// Category is a grid table: its title and bench order.
type Category struct {
	Name    string   `json:"name"`
	Title   string   `json:"title"`
	Benches []string `json:"benches"`
}

// Host is what decides whether two runs are comparable.
type Host struct {
	engine.HostInfo
	Privilege         engine.Privilege `json:"privilege"`
	PrivilegeRefusals []engine.Attempt `json:"privilege_refusals,omitempty"`
	MemPeakSource     string           `json:"mem_peak_source"`
	MemPeakError      string           `json:"mem_peak_error,omitempty"`
	ContainerCgroup   string           `json:"container_cgroup_version,omitempty"`
	OrchestratorCPUs  string           `json:"orchestrator_cpus"`
	// Confinement is what the first sampler to answer measured.
	Confinement *Confinement `json:"confinement,omitempty"`
}

// Confinement is what a sampler container got and what its benches got.
type Confinement struct {
	Container *runner.Privileges `json:"container"`
	Bench     *runner.Privileges `json:"bench"`
	Errors    []string           `json:"errors,omitempty"`
}

// ConfinementOf reads it from a sampler's environment (nil when the
// sampler did not say).
func ConfinementOf(e runner.Env) *Confinement {
	if e.ContainerPrivileges == nil && e.BenchPrivileges == nil {
		return nil
	}
	return &Confinement{Container: e.ContainerPrivileges, Bench: e.BenchPrivileges, Errors: e.ConfinementErrors}
}

// Settings are the knobs the run used.
type Settings struct {
	TimeoutPerSample string   `json:"timeout_per_sample"`
	MemLimitBytes    int64    `json:"memory_limit_bytes"`
	OutputCapBytes   int      `json:"output_cap_bytes"`
	Languages        []string `json:"languages"`
}

// Bench is one bench: the subject's figures at the top (the seed's
// schema), the other languages under comparatives.
type Bench struct {
	Name              string           `json:"name"`
	Kind              string           `json:"kind"`
	Category          string           `json:"category"`
	Status            string           `json:"status"`
	ElapsedNsMedian   *int64           `json:"elapsed_ns_median"`
	ElapsedNsSamples  []int64          `json:"elapsed_ns_samples"`
	MaxRSSKBMedian    *int64           `json:"maxrss_kb_median"`
	MaxRSSKBSamples   []int64          `json:"maxrss_kb_samples"`
	MemPeakKBMedian   *int64           `json:"mem_peak_kb_median"`
	MemPeakKBSamples  []int64          `json:"mem_peak_kb_samples"`
	BaselineElapsedNs *int64           `json:"baseline_elapsed_ns"`
	BaselineMaxRSSKB  *int64           `json:"baseline_maxrss_kb"`
	Tolerance         *float64         `json:"tolerance,omitempty"`
	Note              *string          `json:"note"`
	Seed              int64            `json:"seed"`
	CPUsNeeded        int              `json:"cpus_needed"`
	Parity            string           `json:"parity"` // ok, mismatch, single, none
	Check             string           `json:"check,omitempty"`
	SubjectResult     *Lang            `json:"subject_result,omitempty"`
	Comparatives      map[string]*Lang `json:"comparatives"`
}

// Lang is one language's result on a bench.
type Lang struct {
	Status           string          `json:"status"`
	Detail           string          `json:"detail,omitempty"`
	ElapsedNsMedian  int64           `json:"elapsed_ns_median,omitempty"`
	ElapsedNsSamples []int64         `json:"elapsed_ns_samples"`
	ElapsedNs        stats.Summary   `json:"elapsed_ns"`
	MaxRSSKBMedian   int64           `json:"maxrss_kb_median,omitempty"`
	MaxRSSKBSamples  []int64         `json:"maxrss_kb_samples"`
	MemPeakKBMedian  *int64          `json:"mem_peak_kb_median"`
	MemPeakKBSamples []int64         `json:"mem_peak_kb_samples"`
	RatioVsHale      *float64        `json:"ratio_vs_hale,omitempty"`
	RatioVsSubject   *float64        `json:"ratio_vs_subject,omitempty"`
	Comparable       bool            `json:"comparable"`
	Check            string          `json:"check,omitempty"`
	BuildError       string          `json:"build_error,omitempty"`
	CPUs             string          `json:"cpus,omitempty"`
	CPUsEffective    string          `json:"cpus_effective,omitempty"`
	CgroupCpuset     string          `json:"cgroup_cpuset,omitempty"`
	CPUsShared       bool            `json:"cpus_shared_with_orchestrator,omitempty"`
	Image            string          `json:"image,omitempty"`
	ContainerID      string          `json:"container_id,omitempty"`
	MemPeakSource    string          `json:"mem_peak_source,omitempty"`
	MemPeakError     string          `json:"mem_peak_error,omitempty"`
	CgroupVersion    string          `json:"cgroup_version,omitempty"`
	CPUModel         string          `json:"cpu_model,omitempty"`
	OverheadNs       int64           `json:"overhead_ns_per_sample,omitempty"`
	Confinement      *Confinement    `json:"confinement,omitempty"`
	JobNs            int64           `json:"job_ns,omitempty"`
	Samples          []runner.Sample `json:"samples,omitempty"`
}

// Schema names this report format.
const Schema = "halebench-report/1"

// Write puts the report under dir as run-<UTC stamp>.json, atomically.
func Write(r *Report, dir string) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("results folder %s: %w", dir, err)
	}
	t, err := time.Parse(time.RFC3339Nano, r.GeneratedAt)
	if err != nil {
		t = time.Now()
	}
	name := fmt.Sprintf("run-%s-%s.json", t.UTC().Format("20060102T150405Z"), shortID(r.RunID))
	path := filepath.Join(dir, name)
	return path, WriteFile(path, r)
}

// WriteFile writes v as indented JSON to path through a temporary file
// renamed over it, so a reader never sees half a report.
func WriteFile(path string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("writing report: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("writing report: %w", err)
	}
	return nil
}

func shortID(id string) string {
	if len(id) > 6 {
		return id[len(id)-6:]
	}
	return id
}
