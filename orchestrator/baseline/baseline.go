package baseline

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/hale-lang/halebench/orchestrator/stats"
	"golang.org/x/sys/unix"
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
	UpdatedAt   string   `json:"updated_at"`
	Subject     string   `json:"subject,omitempty"`
	Toolchain   string   `json:"toolchain,omitempty"`
	HaleVersion string   `json:"hale_version,omitempty"`
	Host        string   `json:"host,omitempty"`
	Machine     *Machine `json:"machine,omitempty"`
	// HostDriftSigma is the median of the benches' drift_sigma: the
	// movement between runs that the host gives every bench. It floors each
	// bench's own drift (see Entry.Drift).
	HostDriftSigma *float64          `json:"host_drift_sigma,omitempty"`
	Benches        map[string]*Entry `json:"benches"`
	extra          map[string]json.RawMessage
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
type Machine struct {
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
func (m *Machine) Differences(o Machine) []string {
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

	// driftFloor is the host's drift (File.HostDriftSigma), set when the
	// file is read: five runs of one bench give a rough σ, and one that
	// happened to move little must not claim the host is quieter for it.
	driftFloor float64
	extra      map[string]json.RawMessage
}

// Drift is the between-run σ the entry is judged with: its own, floored by
// its file's host drift; 0 where neither was measured.
func (e *Entry) Drift() float64 {
	return math.Max(deref(e.DriftSigma), e.driftFloor)
}

// SubjectOf names the language a file's medians belong to: its subject
// field, or hale for a file written before that field (the seed suite's);
// "" for a file with no bench yet, which fits any subject.
func (f *File) SubjectOf() string {
	if f.Subject != "" {
		return f.Subject
	}
	if len(f.Benches) > 0 {
		return "hale"
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
		return stats.Band(deref(e.Noise), e.Drift(), BandFloor, BandCeil)
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

func deref(p *float64) float64 {
	if p == nil {
		return 0
	}
	return *p
}

// Limit is the largest median that is not a regression.
func (e *Entry) Limit() int64 {
	return int64(float64(e.ElapsedNs) * (1 + e.Tol()))
}

// Regressed says whether a subject median is over the entry's band.
// Faster than the baseline is never a regression.
func (e *Entry) Regressed(median int64) bool {
	return median > e.Limit()
}

// InvalidError says what is wrong with a baselines file.
type InvalidError struct {
	Path string
	Msg  string
}

func (e *InvalidError) Error() string {
	return fmt.Sprintf("baselines %s: %s (fix or remove the file; it was left untouched)", e.Path, e.Msg)
}

// Load reads a baselines file. A missing file is an empty one.
func Load(path string) (*File, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return &File{Benches: map[string]*Entry{}}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading baselines %s: %w", path, err)
	}
	return Parse(path, data)
}

// Parse checks and decodes a baselines document.
func Parse(path string, data []byte) (*File, error) {
	var f File
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&f); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			line, col := position(data, se.Offset)
			return nil, &InvalidError{path, fmt.Sprintf("not valid JSON at line %d, column %d: %v", line, col, se)}
		case errors.As(err, &te):
			return nil, &InvalidError{path, fmt.Sprintf("field %s holds a %s, want %s", te.Field, te.Value, te.Type)}
		default:
			return nil, &InvalidError{path, err.Error()}
		}
	}
	if f.Benches == nil {
		return nil, &InvalidError{path, `no "benches" object`}
	}
	for name, e := range f.Benches {
		switch {
		case e == nil:
			return nil, &InvalidError{path, fmt.Sprintf("bench %s: null entry", name)}
		case e.ElapsedNs <= 0:
			return nil, &InvalidError{path, fmt.Sprintf("bench %s: elapsed_ns must be a positive integer", name)}
		case e.MaxRSSKB < 0:
			return nil, &InvalidError{path, fmt.Sprintf("bench %s: maxrss_kb must not be negative", name)}
		case e.Tolerance != nil && (*e.Tolerance < 0 || *e.Tolerance > 100):
			return nil, &InvalidError{path, fmt.Sprintf("bench %s: tolerance %v out of range 0..100", name, *e.Tolerance)}
		}
	}
	f.floorDrift()
	return &f, nil
}

func position(data []byte, off int64) (line, col int) {
	line, col = 1, 1
	for i := int64(0); i < off && i < int64(len(data)); i++ {
		if data[i] == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return
}

// Measured is one bench's new subject figures: medians and, from several
// runs, their noise and drift.
type Measured struct {
	Kind       string
	ElapsedNs  int64
	MaxRSSKB   int64
	MemPeakKB  int64
	Noise      float64
	DriftSigma float64
	DriftRange float64
	Runs       int
	RunMedians []int64
	Samples    []int64
	MemSource  string
	MemKB      int64
	MemBand    float64
	MemSamples []int64
}

// Provenance is who measured the new figures, and where.
type Provenance struct {
	Subject   string
	Toolchain string
	Host      string
	Machine   *Machine
}

// Update merges new figures into the file at path under its lock: each
// bench keeps its tolerance, override, note and every key halebench does
// not know; the file records the machine. It is rewritten atomically and
// returns the file as written and the names it changed.
func Update(path string, m map[string]Measured, p Provenance, now time.Time) (*File, []string, error) {
	unlock, err := lock(path)
	if err != nil {
		return nil, nil, err
	}
	defer unlock()
	f, err := Load(path)
	if err != nil {
		return nil, nil, err
	}
	var names []string
	for name, v := range m {
		e := f.Benches[name]
		if e == nil {
			e = &Entry{}
			f.Benches[name] = e
		}
		if v.Kind != "" {
			e.Kind = v.Kind
		}
		e.ElapsedNs, e.MaxRSSKB, e.MemPeakKB = v.ElapsedNs, v.MaxRSSKB, v.MemPeakKB
		if v.Runs > 0 {
			noise, sigma, rng := v.Noise, v.DriftSigma, v.DriftRange
			e.Noise, e.DriftSigma, e.DriftRange = &noise, &sigma, &rng
			e.Runs, e.RunMedians, e.Samples = v.Runs, v.RunMedians, v.Samples
		}
		if v.MemKB > 0 {
			mb := math.Max(v.MemBand, MemBandFloor)
			e.MemSource, e.MemKB, e.MemTolerance, e.MemSamples = v.MemSource, v.MemKB, &mb, v.MemSamples
		}
		names = append(names, name)
	}
	sort.Strings(names)
	// The host's drift over every bench now in the file floors each new
	// band; a band from a single run (no drift measured) is left a guess.
	if h := f.hostDrift(); h > 0 {
		f.HostDriftSigma = &h
	}
	f.floorDrift()
	for _, name := range names {
		if v := m[name]; v.Runs > 0 {
			e := f.Benches[name]
			band := stats.Band(v.Noise, e.Drift(), BandFloor, BandCeil)
			e.Band = &band
		}
	}
	f.UpdatedAt = now.UTC().Format(time.RFC3339)
	f.Subject, f.Toolchain, f.Host = p.Subject, p.Toolchain, p.Host
	if p.Machine != nil {
		f.Machine = p.Machine
	}
	if p.Subject == "hale" {
		f.HaleVersion = p.Toolchain
	}
	data, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return nil, nil, err
	}
	return f, names, writeAtomic(path, append(data, '\n'))
}

// lock takes an exclusive lock beside path, waiting for another updater.
func lock(path string) (func(), error) {
	lf, err := os.OpenFile(path+".lock", os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("locking baselines %s: %w", path, err)
	}
	if err := unix.Flock(int(lf.Fd()), unix.LOCK_EX); err != nil {
		lf.Close()
		return nil, fmt.Errorf("locking baselines %s: %w", path, err)
	}
	return func() {
		unix.Flock(int(lf.Fd()), unix.LOCK_UN)
		lf.Close()
	}, nil
}

func writeAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("writing baselines %s: %w", path, err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("writing baselines %s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("writing baselines %s: %w", path, err)
	}
	return nil
}
