package report

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/stamp"
	"github.com/hale-lang/halebench/orchestrator/stats"
)

// Report is one run.
type Report struct {
	// Kind is the envelope's kind, "run" (package result); reports
	// written before it was added have none and read as run reports.
	Kind          string                `json:"kind,omitempty"`
	Schema        string                `json:"schema"`
	Halebench     *stamp.Tool           `json:"halebench,omitempty"` // which halebench wrote it; none before it was recorded
	GeneratedAt   string                `json:"generated_at"`
	RunID         string                `json:"run_id"`
	Status        outcome.Status        `json:"status"` // ok, regression, inconclusive, failed, interrupted
	Iters         int                   `json:"iters"`
	Warmup        int                   `json:"warmup"`
	Subject       string                `json:"subject"`
	SubjectStatus string                `json:"subject_status"`
	SubjectReason string                `json:"subject_reason,omitempty"`
	Host          Host                  `json:"host"`
	Settings      Settings              `json:"settings"`
	Base          Base                  `json:"base_image"`
	Images        map[string]Toolchain  `json:"images"`
	BenchImages   map[string]BenchImage `json:"bench_images"`
	SourcesDigest string                `json:"sources_digest"`
	SuiteLayout   string                `json:"suite_layout,omitempty"` // benches (benches/{micro,app,guards}) or seed (micro/, app/ at the suite's root)
	Baselines     string                `json:"baselines"`
	Gate          Gate                  `json:"gate"`
	Count         *Count                `json:"count,omitempty"`      // the count lane, when on
	FlaggedBy     []string              `json:"flagged_by,omitempty"` // metrics that regressed: time, memory, instructions
	Rebaseline    *Rebaseline           `json:"rebaseline,omitempty"`
	Shard         *Shard                `json:"shard,omitempty"` // run --shard, or a merge of shards
	Benches       []*Bench              `json:"benches"`
	Warnings      []string              `json:"warnings,omitempty"`
	Samplers      []Sampler             `json:"sampler_containers"`
	Categories    []Category            `json:"categories"`
}

// Gate is how the subject was judged.
type Gate struct {
	Alpha   float64 `json:"alpha"`
	Confirm int     `json:"confirm_samples"`
	Strict  bool    `json:"strict"`
	// Machine says whether the baseline's machine is this one: same,
	// unknown (a file that records none: it gates as the seed's did), or
	// what differs (then nothing gates unless AnyMachine).
	Machine    string `json:"machine"`
	AnyMachine bool   `json:"gate_any_machine,omitempty"`
}

// Rebaseline is what --update-baselines measured: N independent runs.
type Rebaseline struct {
	Runs int `json:"runs"`
	// HostDriftSigma is the median between-run drift over the file's
	// benches, which floors each bench's band.
	HostDriftSigma *float64                   `json:"host_drift_sigma,omitempty"`
	Benches        map[string]RebaselineBench `json:"benches"`
	Note           string                     `json:"note,omitempty"`
	// CountsRecorded names the benches whose count fields were written.
	CountsRecorded []string `json:"counts_recorded,omitempty"`
}

// RebaselineBench is one bench's figures over the runs.
type RebaselineBench struct {
	RunMedians []int64 `json:"run_medians"`
	Median     int64   `json:"median"`
	Noise      float64 `json:"noise"`
	DriftSigma float64 `json:"drift_sigma"`
	DriftRange float64 `json:"drift_range"`
	Band       float64 `json:"band"`
	MemKB      int64   `json:"mem_kb,omitempty"`
	MemBand    float64 `json:"mem_band,omitempty"`
}

// Category is a grid table: its title and bench order.
type Category struct {
	Name    string   `json:"name"`
	Title   string   `json:"title"`
	Benches []string `json:"benches"`
}

// Host is what decides whether two runs are comparable.
type Host struct {
	HostInfo
	Privilege         Privilege `json:"privilege"`
	PrivilegeRefusals []Attempt `json:"privilege_refusals,omitempty"`
	MemPeakSource     string    `json:"mem_peak_source"`
	MemPeakError      string    `json:"mem_peak_error,omitempty"`
	ContainerCgroup   string    `json:"container_cgroup_version,omitempty"`
	OrchestratorCPUs  string    `json:"orchestrator_cpus"`
	// ImageArch is the architecture of the images the benches ran in
	// (amd64, arm64); Emulated says how they ran under an emulator ("":
	// natively, on the engine's own architecture).
	ImageArch string `json:"image_arch,omitempty"`
	Emulated  string `json:"emulated,omitempty"`
	// Confinement is what the first sampler to answer measured.
	Confinement *Confinement `json:"confinement,omitempty"`
}

// Confinement is what a sampler container got and what its benches got.
type Confinement struct {
	Container *Privileges `json:"container"`
	Bench     *Privileges `json:"bench"`
	Errors    []string    `json:"errors,omitempty"`
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
	Status            outcome.Status   `json:"status"`
	ElapsedNsMedian   *int64           `json:"elapsed_ns_median"`
	ElapsedNsSamples  []int64          `json:"elapsed_ns_samples"`
	MaxRSSKBMedian    *int64           `json:"maxrss_kb_median"`
	MaxRSSKBSamples   []int64          `json:"maxrss_kb_samples"`
	MemPeakKBMedian   *int64           `json:"mem_peak_kb_median"`
	MemPeakKBSamples  []int64          `json:"mem_peak_kb_samples"`
	BaselineElapsedNs *int64           `json:"baseline_elapsed_ns"`
	BaselineMaxRSSKB  *int64           `json:"baseline_maxrss_kb"`
	Tolerance         *float64         `json:"tolerance,omitempty"` // the time band the subject was held to
	BandFrom          string           `json:"band_from,omitempty"`
	TimeVerdict       *Check           `json:"time_verdict,omitempty"`
	MemVerdict        *Check           `json:"mem_verdict,omitempty"`
	ConfirmSamples    int              `json:"confirm_samples,omitempty"` // samples re-measured on a suspect cell
	Verdict           string           `json:"verdict,omitempty"`         // why, in words, where it is not plain ok
	FlaggedBy         []string         `json:"flagged_by,omitempty"`      // the metrics that regressed
	CountVerdict      outcome.Status   `json:"count_verdict,omitempty"`   // the subject's count lane
	Note              *string          `json:"note"`
	Seed              int64            `json:"seed"`
	CPUsNeeded        int              `json:"cpus_needed"`
	Parity            string           `json:"parity"` // ok, mismatch, single, none
	Check             string           `json:"check,omitempty"`
	SubjectResult     *Lang            `json:"subject_result,omitempty"`
	Comparatives      map[string]*Lang `json:"comparatives"`

	// Metrics holds the subject's verdicts by the metrics declared beyond
	// time, memory and instructions, by name (judge's metric registry).
	Metrics map[string]*Check `json:"metrics,omitempty"`
}

// Langs is every language's result on the bench, the subject's included,
// by language name.
func (b *Bench) Langs(subject string) map[string]*Lang {
	m := map[string]*Lang{}
	for k, v := range b.Comparatives {
		m[k] = v
	}
	if b.SubjectResult != nil {
		m[subject] = b.SubjectResult
	}
	return m
}

// Lang is one language's result on a bench.
type Lang struct {
	Status           outcome.Status `json:"status"`
	Detail           string         `json:"detail,omitempty"`
	ElapsedNsMedian  int64          `json:"elapsed_ns_median,omitempty"`
	ElapsedNsSamples []int64        `json:"elapsed_ns_samples"`
	ElapsedNs        stats.Summary  `json:"elapsed_ns"`
	MaxRSSKBMedian   int64          `json:"maxrss_kb_median,omitempty"`
	MaxRSSKBSamples  []int64        `json:"maxrss_kb_samples"`
	MemPeakKBMedian  *int64         `json:"mem_peak_kb_median"`
	MemPeakKBSamples []int64        `json:"mem_peak_kb_samples"`
	RatioVsHale      *float64       `json:"ratio_vs_hale,omitempty"`
	RatioVsSubject   *float64       `json:"ratio_vs_subject,omitempty"`
	Comparable       bool           `json:"comparable"`
	Check            string         `json:"check,omitempty"`
	BuildError       string         `json:"build_error,omitempty"`
	CPUs             string         `json:"cpus,omitempty"`
	CPUsEffective    string         `json:"cpus_effective,omitempty"`
	CgroupCpuset     string         `json:"cgroup_cpuset,omitempty"`
	CPUsShared       bool           `json:"cpus_shared_with_orchestrator,omitempty"`
	Image            string         `json:"image,omitempty"`
	ContainerID      string         `json:"container_id,omitempty"`
	MemPeakSource    string         `json:"mem_peak_source,omitempty"`
	MemPeakError     string         `json:"mem_peak_error,omitempty"`
	CgroupVersion    string         `json:"cgroup_version,omitempty"`
	CPUModel         string         `json:"cpu_model,omitempty"`
	OverheadNs       int64          `json:"overhead_ns_per_sample,omitempty"`
	Confinement      *Confinement   `json:"confinement,omitempty"`
	JobNs            int64          `json:"job_ns,omitempty"`
	Samples          []Sample       `json:"samples,omitempty"`
	Count            *CountLane     `json:"count,omitempty"`

	// Metrics is the median of each metric declared beyond time, memory
	// and instructions, by name (judge's metric registry).
	Metrics map[string]int64 `json:"metrics,omitempty"`
	// Figures are the samples' figures beyond the schema's own
	// (elapsed_ns, maxrss_kb and mem_peak_kb keep their keys above), by
	// the wire's name: each with its median and every sample. SetFigures
	// and Cell are the one place that knows which is which.
	Figures map[string]Figure `json:"figures,omitempty"`
}

// Figure is one figure of a language's samples on a bench.
type Figure struct {
	Median  int64   `json:"median"`
	Samples []int64 `json:"samples"`
}

// Schema names this report format.
const Schema = "halebench-report/1"

// Kind is a run report's kind in the result envelope.
const Kind = "run"

// Write puts the report under dir as run-<UTC stamp>-<run id's tail>.json,
// atomically.
func Write(r *Report, dir string) (string, error) {
	return WriteUnder(dir, StampedName("run", r.GeneratedAt, r.RunID), r)
}

// WriteUnder writes v as the file name under dir (made if missing),
// atomically, and says its path.
func WriteUnder(dir, name string, v any) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("results folder %s: %w", dir, err)
	}
	path := filepath.Join(dir, name)
	return path, WriteFile(path, v)
}

// StampedName is the file name a verb's document is stored under:
// <verb>-<UTC stamp of at>-<run id's tail>.json (now, when at is no RFC
// 3339 time).
func StampedName(verb, at, runID string) string {
	t, err := time.Parse(time.RFC3339Nano, at)
	if err != nil {
		t = time.Now()
	}
	return fmt.Sprintf("%s-%s-%s.json", verb, t.UTC().Format("20060102T150405Z"), shortID(runID))
}

func shortID(id string) string {
	if len(id) > 6 {
		return id[len(id)-6:]
	}
	return id
}
