package judge

import (
	"encoding/json"
	"fmt"
	"math"

	"github.com/hale-lang/halebench/orchestrator/stamp"
	"github.com/hale-lang/halebench/orchestrator/stats"
	"github.com/hale-lang/halebench/orchestrator/suite"
)

// DefaultTolerance is the band a bench gets when its entry names none and
// records no noise to derive one from (the seed's fixed 0.30).
const DefaultTolerance = 0.30

// Bounds of a band derived from measurement, and the memory band's floor.
const (
	BandFloor    = 0.05
	BandCeil     = 0.35
	MemBandFloor = 0.05
)

// File is baselines.json. Every key halebench does not know (upstream's
// recorded_with, or anything newer) is kept as it was through a rewrite.
type File struct {
	// Halebench is which halebench last wrote the file (Update,
	// UpdateCounts), as every document halebench writes records it; nil
	// in a file written before it was recorded, or by another tool.
	Halebench   *stamp.Tool      `json:"halebench,omitempty"`
	UpdatedAt   string           `json:"updated_at"`
	Subject     string           `json:"subject,omitempty"`
	Toolchain   string           `json:"toolchain,omitempty"`
	HaleVersion string           `json:"hale_version,omitempty"`
	Host        string           `json:"host,omitempty"`
	Machine     *BaselineMachine `json:"machine,omitempty"`
	// Arch is the architecture of the images its figures were taken in
	// (arm64); "" in a file that holds figures is amd64, where every
	// figure was taken before architectures were named.
	Arch string `json:"arch,omitempty"`
	// HostDriftSigma is the median of the benches' drift_sigma: the
	// movement between runs that the host gives every bench. It floors each
	// bench's own drift (see Entry.Drift).
	HostDriftSigma *float64          `json:"host_drift_sigma,omitempty"`
	Benches        map[string]*Entry `json:"benches"`
	// CountsUpdatedAt is when the count fields were last recorded
	// (UpdateCounts); UpdatedAt stays the time figures'.
	CountsUpdatedAt string `json:"counts_updated_at,omitempty"`
	extra           map[string]json.RawMessage
}

// MinHostDriftBenches is how many benches with a measured drift a file
// needs before their median floors the others'.
const MinHostDriftBenches = 3

// hostDrift is the median drift_sigma over the file's benches that
// recorded one; 0 with fewer than MinHostDriftBenches of them.
func (f *File) hostDrift() float64 {
	var ds []float64
	for _, e := range f.Benches {
		if e.DriftSigma != nil {
			ds = append(ds, *e.DriftSigma)
		}
	}
	if len(ds) < MinHostDriftBenches {
		return 0
	}
	return stats.MedianFloat(ds)
}

// floorDrift gives every entry the file's host drift as its floor.
func (f *File) floorDrift() {
	h := f.hostDrift()
	if f.HostDriftSigma != nil && *f.HostDriftSigma > h {
		h = *f.HostDriftSigma
	}
	for _, e := range f.Benches {
		e.driftFloor = h
	}
}

// Machine is where a file's medians were measured: what must match for
// them to gate another run.
type BaselineMachine struct {
	CPUModel           string            `json:"cpu_model"`
	LogicalCPUs        int               `json:"logical_cpus"`
	Kernel             string            `json:"kernel,omitempty"`
	CgroupVersion      string            `json:"cgroup_version"`
	Privilege          string            `json:"privilege"`
	EngineVersion      string            `json:"engine_version,omitempty"`
	Cpusets            map[string]string `json:"cpusets,omitempty"` // bench -> the subject's cpuset
	SubjectToolchain   string            `json:"subject_toolchain,omitempty"`
	SubjectImageDigest string            `json:"subject_image_digest,omitempty"`
	HaleVersion        string            `json:"hale_version,omitempty"`
}

// Differences names what differs between the machine m recorded and
// another, among what decides whether medians compare: CPU model, logical
// CPUs, privilege and cgroup version.
func (m *BaselineMachine) Differences(o BaselineMachine) []string {
	var d []string
	add := func(what string, a, b any) {
		if a != b {
			d = append(d, fmt.Sprintf("%s %v here, %v in the baseline", what, b, a))
		}
	}
	add("CPU", m.CPUModel, o.CPUModel)
	add("logical CPUs", m.LogicalCPUs, o.LogicalCPUs)
	add("privilege", m.Privilege, o.Privilege)
	add("cgroup", m.CgroupVersion, o.CgroupVersion)
	return d
}

// Entry is one bench's accepted figures. Unknown keys are kept.
type Entry struct {
	Kind      string   `json:"kind"`
	ElapsedNs int64    `json:"elapsed_ns"`
	MaxRSSKB  int64    `json:"maxrss_kb"`
	MemPeakKB int64    `json:"mem_peak_kb,omitempty"`
	Tolerance *float64 `json:"tolerance,omitempty"`
	Note      string   `json:"note,omitempty"`

	// From several independent runs (--update-baselines --runs=N):
	// relative figures (0.02 = 2 % of the median).
	Noise             *float64 `json:"noise,omitempty"`       // within-run standard error of the median
	DriftSigma        *float64 `json:"drift_sigma,omitempty"` // between-run σ of the median: range / d2(N)
	DriftRange        *float64 `json:"drift_range,omitempty"` // range of the run medians
	Runs              int      `json:"runs,omitempty"`
	Band              *float64 `json:"band,omitempty"` // clamp(4 × max(noise, drift_sigma), 0.05, 0.35)
	ToleranceOverride *float64 `json:"tolerance_override,omitempty"`
	RunMedians        []int64  `json:"run_medians,omitempty"`
	Samples           []int64  `json:"samples,omitempty"` // every run's samples, for the significance test

	// Memory, gated on its own band: the cgroup peak where the host gave
	// one, maxrss otherwise (MemSource says which).
	MemSource    string   `json:"mem_source,omitempty"` // mem_peak_kb or maxrss_kb
	MemKB        int64    `json:"mem_kb,omitempty"`
	MemTolerance *float64 `json:"mem_tolerance,omitempty"`
	MemSamples   []int64  `json:"mem_samples,omitempty"`

	// The count lane (UpdateCounts writes these alone): instructions of
	// the counted build over its scope, Callgrind's estimated cycles, the
	// relative spread of the counted runs and the band derived from it,
	// and what must match for the counts to gate another run: scope, CPU
	// target, Valgrind version and instrument. CountInstrument is
	// callgrind-cachesim or callgrind; an entry without one was recorded
	// before instruments were named, by callgrind-cachesim, and is held to
	// that instrument's counts only (wire.IrComparable). CountedDigest names
	// the image that held the counted binary.
	Instructions    uint64   `json:"instructions,omitempty"`
	EstCycles       uint64   `json:"est_cycles,omitempty"`
	CountSpread     *float64 `json:"count_spread,omitempty"`
	CountBand       *float64 `json:"count_band,omitempty"`
	CountScope      string   `json:"count_scope,omitempty"`
	CountTarget     string   `json:"count_target,omitempty"`
	ValgrindVersion string   `json:"valgrind_version,omitempty"`
	CountInstrument string   `json:"count_instrument,omitempty"`
	CountedDigest   string   `json:"counted_digest,omitempty"`

	// driftFloor is the host's drift (File.HostDriftSigma), set when the
	// file is read: five runs of one bench give a rough σ, and one that
	// happened to move little must not claim the host is quieter for it.
	driftFloor float64
	extra      map[string]json.RawMessage
}

// Drift is the between-run σ the entry is judged with: its own, floored by
// its file's host drift; 0 where neither was measured.
func (e *Entry) Drift() float64 {
	return math.Max(baselineDeref(e.DriftSigma), e.driftFloor)
}

// SubjectOf names the language a file's medians belong to: its subject
// field, or the seed's subject (hale) for a file written before that field
// (the seed suite's);
// "" for a file with no bench yet, which fits any subject.
// ArchOf is the architecture a file's figures were taken on ("": it holds none).
func (f *File) ArchOf() string {
	switch {
	case f.Arch != "":
		return f.Arch
	case len(f.Benches) > 0:
		return "amd64"
	}
	return ""
}

func (f *File) SubjectOf() string {
	if f.Subject != "" {
		return f.Subject
	}
	if len(f.Benches) > 0 {
		return suite.Seed().Name
	}
	return ""
}

// Tol is the entry's time band: a hand-pinned tolerance_override first,
// then the band derived from its recorded noise and drift, then its
// tolerance, then the default.
func (e *Entry) Tol() float64 {
	switch {
	case e.ToleranceOverride != nil:
		return *e.ToleranceOverride
	case e.Band != nil:
		return math.Max(*e.Band, e.floorBand())
	case e.Noise != nil || e.DriftSigma != nil:
		return stats.Band(baselineDeref(e.Noise), e.Drift(), BandFloor, BandCeil)
	case e.Tolerance != nil:
		return *e.Tolerance
	}
	return DefaultTolerance
}

// TolSource says where Tol comes from.
func (e *Entry) TolSource() string {
	switch {
	case e.ToleranceOverride != nil:
		return "tolerance_override"
	case e.Band != nil, e.Noise != nil || e.DriftSigma != nil:
		return "measured"
	case e.Tolerance != nil:
		return "tolerance"
	}
	return "default"
}

// MemTol is the memory band, nil where the entry has no memory baseline
// halebench recorded (the seed's maxrss figures do not gate).
func (e *Entry) MemTol() *float64 {
	if e.MemKB <= 0 || e.MemTolerance == nil {
		return nil
	}
	t := math.Max(*e.MemTolerance, MemBandFloor)
	return &t
}

// floorBand is the least band the host's drift allows; 0 without one.
func (e *Entry) floorBand() float64 {
	if e.driftFloor <= 0 {
		return 0
	}
	return stats.Band(0, e.driftFloor, BandFloor, BandCeil)
}

func baselineDeref(p *float64) float64 {
	if p == nil {
		return 0
	}
	return *p
}

// Measured is one bench's new subject figures: its kind, and what writes
// its metrics' keys into its entry (metric.Record: each metric's own
// record of the runs' samples).
type Measured struct {
	Kind   string
	Record func(*Entry)
}

// Provenance is who measured the new figures, and where.
type Provenance struct {
	Subject   string
	Toolchain string
	Host      string
	Machine   *BaselineMachine
	Arch      string // the images' architecture; amd64 is left unwritten
}
