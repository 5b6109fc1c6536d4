package judge

import (
	"fmt"
	"strings"

	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/stats"
)

// Values is one metric's figures in one cell: the median the verdict is
// about and every sample it came from.
type Values struct {
	Median  int64
	Samples []int64
}

// MetricCell is what a cell's samples carry, as the metrics read it: each
// figure by its wire name (images/sampler/wire: elapsed_ns, maxrss_kb,
// mem_peak_kb, ...), with its median and every sample. A figure the host
// did not give (a cgroup peak) is absent.
type MetricCell map[string]Values

// CellOf is the cell of samples' figures: each figure with every sample
// that carries it, and their median.
func CellOf(samples []map[string]int64) MetricCell {
	c := MetricCell{}
	for _, s := range samples {
		for name, v := range withOutside(s) {
			f := c[name]
			f.Samples = append(f.Samples, v)
			c[name] = f
		}
	}
	for name, f := range c {
		f.Median = stats.Median(f.Samples)
		c[name] = f
	}
	return c
}

// SampleCell is one sample as a metric reads it.
func SampleCell(figures map[string]int64) MetricCell {
	return CellOf([]map[string]int64{figures})
}

// Base is a metric's figures in a baselines entry: the median and samples
// it is held to, the relative band and where the band comes from, and the
// between-run drift and within-run noise the entry measured (0: none).
type Base struct {
	Median   int64
	Samples  []int64
	Band     float64
	BandFrom string
	Drift    float64
	Noise    float64
}

// Check is one gated metric's verdict on the subject.
type MetricCheck struct {
	Status   outcome.Status `json:"status"`
	Median   int64          `json:"median"`
	Baseline int64          `json:"baseline"`
	Ratio    float64        `json:"ratio"`     // median / baseline
	Band     float64        `json:"band"`      // the relative band it was held to
	BandFrom string         `json:"band_from"` // where the band comes from
	Noise    float64        `json:"noise"`     // this run's relative standard error of the median
	P        *float64       `json:"p,omitempty"`
	Why      string         `json:"why,omitempty"`
}

// Rule is a metric's verdict: this run's values against the baseline's,
// at significance level alpha.
type Rule func(here Values, base Base, alpha float64) MetricCheck

// Metric is one measured quantity, declared once.
type Metric struct {
	Name string // as flagged_by, the grid and bisect's --metric say it
	Unit string
	// Of is the figure of the samples it reads (a wire name); "" for a
	// metric the samples do not carry (instructions: the count lane does,
	// under its own determinism rule, and hands Judge its exact count).
	// OrElse is the figure read where a cell has no Of (memory: maxrss
	// where the host gave no cgroup peak).
	Of     string
	OrElse string
	// Baseline reads its figures from an entry; false: the entry does not
	// gate it.
	Baseline func(*Entry) (Base, bool)
	// Fields are its keys in a baselines entry and their ranges, checked
	// on every read and write of a file; Record writes them from a
	// bench's cells in independent runs (--update-baselines). A metric the
	// samples do not carry has no Record: its Fields say how the count
	// lane's counts set its keys (Fields.Counts, UpdateCounts).
	Fields *Fields
	Record func(m *Metric, e *Entry, runs []MetricCell) // m: itself, to read its figures
	Judge  Rule
	// Regressed is the status a regression of it gives the subject.
	Regressed outcome.Status
	// Verdict is the report's key of its verdict on a bench ("": under
	// the bench's "metrics", by name, and each language's median under its
	// "metrics").
	Verdict string
	// Column titles its grid column beside each language's time ("": no
	// column), and, for a metric the count lane carries, its column of
	// the HTML page's count table; Format writes a median in it.
	Column string
	Format func(int64) string
	// Headline: its figures are shown whatever its verdict (time, the
	// grid's cell); another metric's where its verdict needs a reader.
	Headline bool
	// Compared: ab measures it on both sides, so bisect can walk by it.
	Compared bool
}

// Sampled says whether the samples carry it (the gate judges it from them).
func (m *Metric) Sampled() bool { return m.Of != "" }

// Read is its figures in cell c.
func (m *Metric) Read(c MetricCell) Values {
	v, _ := m.ReadFrom(c)
	return v
}

// ReadFrom is its figures in cell c and the figure they are (Of, or
// OrElse where c has no Of; "" where c has neither).
func (m *Metric) ReadFrom(c MetricCell) (Values, string) {
	for _, name := range []string{m.Of, m.OrElse} {
		if v, ok := c[name]; ok && name != "" {
			return v, name
		}
	}
	return Values{}, ""
}

// Formatted is v in its format (its unit after the number where it
// declares none).
func (m *Metric) Formatted(v int64) string {
	if m.Format != nil {
		return m.Format(v)
	}
	return fmt.Sprintf("%d %s", v, m.Unit)
}

var registry = []*Metric{MetricTime, MetricMemory, Instructions, CPU}

// The registry's metrics declare their baseline fields: every read of a
// file checks them.
func init() {
	for _, m := range registry {
		if m.Fields != nil {
			Declare(m.Fields)
		}
	}
}

// All is every declared metric, time, memory and instructions first.
func All() []*Metric { return append([]*Metric(nil), registry...) }

// ByName is the metric called name.
func ByName(name string) (*Metric, bool) {
	for _, m := range registry {
		if m.Name == name {
			return m, true
		}
	}
	return nil, false
}

// Named is the metric called name, or an error that lists the names to
// give (for a --metric flag).
func Named(name string) (*Metric, error) {
	if m, ok := ByName(name); ok {
		return m, nil
	}
	return nil, fmt.Errorf("--metric=%s: give one of %s", name, strings.Join(Names(), ", "))
}

// Names is every declared metric's name, in order.
func Names() []string {
	var out []string
	for _, m := range registry {
		out = append(out, m.Name)
	}
	return out
}

// SampledNames are the names of the metrics the samples carry (those
// compare can set side by side), in order, comma-separated.
func SampledNames() string {
	var names []string
	for _, m := range registry {
		if m.Sampled() {
			names = append(names, m.Name)
		}
	}
	return strings.Join(names, ", ")
}

// Register declares one more metric (say est_cycles, or a GC count), and
// its baseline fields, and returns what takes them back out: a test's t.Cleanup. Registering is for
// a program's start (an init) or a test; a run reads the registry as it is.
func Register(m *Metric) (unregister func()) {
	if _, dup := ByName(m.Name); dup {
		panic("metric: " + m.Name + " declared twice")
	}
	undeclare := func() {}
	if m.Fields != nil {
		undeclare = Declare(m.Fields)
	}
	registry = append(registry, m)
	return func() {
		undeclare()
		for i, r := range registry {
			if r == m {
				registry = append(registry[:i:i], registry[i+1:]...)
				return
			}
		}
	}
}

// Record writes every declared metric's baseline keys into e from a
// bench's cells in independent runs: what --update-baselines records.
func Record(e *Entry, runs []MetricCell) {
	for _, m := range registry {
		if m.Record != nil {
			m.Record(m, e, runs)
		}
	}
	recordWitness(e, runs)
}

// Compared is every metric ab measures on both sides: what bisect can
// walk by.
func Compared() []*Metric {
	var out []*Metric
	for _, m := range registry {
		if m.Compared {
			out = append(out, m)
		}
	}
	return out
}

// Walked is the metric bisect walks by when asked for name: one that ab
// compares, or for "" the default rule — instructions where the subject's
// counts compare (counted), time where they do not.
func Walked(name string, counted bool) (*Metric, error) {
	switch m, ok := ByName(name); {
	case name == "" && counted:
		return Instructions, nil
	case name == "":
		return MetricTime, nil
	case ok && m.Compared:
		return m, nil
	}
	var names []string
	for _, m := range Compared() {
		names = append(names, m.Name)
	}
	return nil, fmt.Errorf("--metric=%s: give one of %s", name, strings.Join(names, ", "))
}
