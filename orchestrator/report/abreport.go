package report

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"

	"github.com/hale-lang/halebench/orchestrator/judge"
	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/stamp"
)

// Bench is one bench's A/B comparison in one language.
type ABBench struct {
	Name    string         `json:"name"`
	Lang    string         `json:"lang"`
	Verdict outcome.Status `json:"verdict"`
	// MedianA and MedianB are each side's median of the result's metric,
	// in its unit (Result.Metric, Result.Unit).
	MedianA float64 `json:"median_a"`
	MedianB float64 `json:"median_b"`
	// Ratio is B/A (the Hodges–Lehmann estimate of the paired log-ratios,
	// back to a ratio); RatioLow and RatioHigh its interval at Level.
	Ratio     float64 `json:"ratio"`
	RatioLow  float64 `json:"ratio_low"`
	RatioHigh float64 `json:"ratio_high"`
	Level     float64 `json:"level"`
	// HalfWidth is the resolution reached: half the interval's width, as a
	// fraction of 1 (0.01: ±1 %). 0 when unbounded.
	HalfWidth float64 `json:"half_width"`
	Rounds    int     `json:"rounds"`
	// Instructions where the count lane counts the language, each side's
	// median counted run (exact: no interval); 0 and a "not counted" detail
	// otherwise. CountStatus is the count lane's verdict on the pair, by
	// run's rule: ok, count_unstable (a side's runs disagree: threads,
	// clock-driven work), count_failed or not_counted; InstrRatio is set
	// only when it is ok.
	InstrA      uint64         `json:"instructions_a,omitempty"`
	InstrB      uint64         `json:"instructions_b,omitempty"`
	InstrRatio  float64        `json:"instructions_ratio,omitempty"`
	CountStatus outcome.Status `json:"count_status,omitempty"`
	Detail      string         `json:"detail,omitempty"`
	// SamplesA and SamplesB are the paired samples of the metric, round
	// by round.
	SamplesA []int64 `json:"samples_a,omitempty"`
	SamplesB []int64 `json:"samples_b,omitempty"`
}

type plainABBench ABBench

// UnmarshalJSON reads a bench, and the keys of a result stored before ab
// named its metric (median_a_ns ...: time's, in ns).
func (b *ABBench) UnmarshalJSON(data []byte) error {
	var v struct {
		plainABBench
		OldMedianA  float64 `json:"median_a_ns"`
		OldMedianB  float64 `json:"median_b_ns"`
		OldSamplesA []int64 `json:"samples_a_ns"`
		OldSamplesB []int64 `json:"samples_b_ns"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	*b = ABBench(v.plainABBench)
	if b.MedianA == 0 && b.MedianB == 0 && b.SamplesA == nil && b.SamplesB == nil {
		b.MedianA, b.MedianB, b.SamplesA, b.SamplesB = v.OldMedianA, v.OldMedianB, v.OldSamplesA, v.OldSamplesB
	}
	return nil
}

// MetricOf is the metric the result's medians and ratios are of: the one
// it names, time for a result stored before ab named its metric.
func (r *Result) MetricOf() *judge.Metric {
	if m, ok := judge.ByName(r.Metric); ok {
		return m
	}
	return judge.MetricTime
}

// Figure is a median of the result's metric as the text shows it: time as
// ab always wrote it (Dur), another metric in its format.
func (r *Result) Figure(v float64) string {
	m := r.MetricOf()
	if m == judge.MetricTime || v == 0 {
		return Dur(v)
	}
	return m.Formatted(int64(math.Round(v)))
}

// Schema names the ab result format.
const ABSchema = "halebench-ab/1"

// Kind is an ab result's kind in the result envelope.
const ABKind = "ab"

// Result is one ab run: the comparison and the same evidence a run report
// carries (the host, what the samplers were granted, every image of each
// side with its digest and provenance, each side's subject build).
type Result struct {
	// Kind is the envelope's kind, "ab" (package result).
	Kind        string      `json:"kind,omitempty"`
	Schema      string      `json:"schema"`
	Halebench   *stamp.Tool `json:"halebench,omitempty"` // which halebench wrote it
	GeneratedAt string      `json:"generated_at"`
	RunID       string      `json:"run_id"`
	Subject     string      `json:"subject"`
	A           string      `json:"a"` // what side A is (a suite folder, an image, a ref)
	B           string      `json:"b"`
	SameSides   bool        `json:"a_equals_b,omitempty"` // an A/A: nothing should differ
	Threshold   float64     `json:"threshold"`
	Confidence  float64     `json:"confidence"` // overall, split over the looks
	LookLevel   float64     `json:"look_level"` // each look's level
	Looks       []int       `json:"looks"`      // the rounds at which the verdicts were looked at
	Seed        int64       `json:"seed"`       // of the order of benches and sides in each round
	Rounds      int         `json:"rounds"`     // the most any bench took
	StoppedBy   string      `json:"stopped_by"` // resolved, max-rounds, budget or interrupted
	// Metric is what the medians and ratios are of (a name in judge's
	// registry: time, memory, instructions, ...) and Unit its unit; ""
	// in a result stored before ab named it: time, in ns.
	Metric    string `json:"metric,omitempty"`
	Unit      string `json:"unit,omitempty"`
	ElapsedNs int64  `json:"elapsed_ns"`
	// Host is the engine's host and the privilege the samplers got (and
	// were refused), as a run report records it.
	Host Host `json:"host"`
	// Sides are A then B: what each ran.
	Sides []Side `json:"sides"`
	// SourcesDigest is the digest of both sides' programs of the benches
	// compared (plan.Digest; absent in a result stored before ab recorded
	// it): two results of one digest compared the same sources.
	SourcesDigest string `json:"sources_digest,omitempty"`
	// Shard is the partition and this result's part (ab --shard=K/N).
	Shard    *Shard    `json:"shard,omitempty"`
	Benches  []ABBench `json:"benches"`
	Warnings []string  `json:"warnings,omitempty"`
}

// Side is one side's evidence: what it is, the images it ran (each with
// its digest and provenance) and how its subject was built.
type Side struct {
	Name        string                `json:"name"` // A or B
	What        string                `json:"what"`
	Base        Base                  `json:"base_image"`
	Images      map[string]Toolchain  `json:"images"`
	BenchImages map[string]BenchImage `json:"bench_images"`
	// SubjectBuild is how the subject's toolchain was built on this side
	// (hale's commit, source tree or image), when halebench built it.
	SubjectBuild *HaleBuild `json:"subject_build,omitempty"`
}

// Write stores the result under dir as ab-<UTC stamp>-<run id's tail>.json,
// atomically, as run stores its report, and says its path.
func ABWrite(r *Result, dir string) (string, error) {
	return WriteUnder(dir, StampedName("ab", r.GeneratedAt, r.RunID), r)
}

// HostLine is the host and privilege in one line, "" when the result
// records no host.
func (r *Result) HostLine() string {
	h := r.Host
	if h.LogicalCPUs == 0 && h.CPUModel == "" {
		return ""
	}
	return fmt.Sprintf("%s, %d CPUs, cgroup %s, %s; privilege %s", h.CPUModel, h.LogicalCPUs, h.CgroupVersion, h.StorageDriver, h.Privilege)
}

// Slower says whether any bench is slower in B.
func (r *Result) Slower() bool {
	for _, b := range r.Benches {
		if b.Verdict == outcome.Slower {
			return true
		}
	}
	return false
}

// ErrSlower is what a caller returns when a bench is slower in B and it
// was asked to fail on that (exit 1).
var ErrSlower = errors.New("a bench is slower in B")
