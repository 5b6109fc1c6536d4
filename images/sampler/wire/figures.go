package wire

// A sample's figures are named: each name below is declared here once,
// with its unit, and every reader after the sampler (the runner, the
// report, the metric registry in orchestrator/judge) takes a figure by
// its name. A new figure is one more line here and the sampler's measuring
// of it; the registry says what a metric reads of it.
const (
	// ElapsedNs is the bench's own timed region, as it printed it.
	ElapsedNs = "elapsed_ns"
	// WallNs is the sampler's clock from the start of the bench to the
	// last holder of its output.
	WallNs = "wall_ns"
	// MaxRSSKB is the kernel's peak resident set of the bench's largest
	// process (rusage).
	MaxRSSKB = "maxrss_kb"
	// MemPeakKB is the bench's cgroup memory peak, where the host gives
	// one.
	MemPeakKB = "mem_peak_kb"
	// CPUNs is the CPU time the bench used, user plus system, over its
	// whole process tree that it waited for (the rusage of its reaping).
	CPUNs = "cpu_ns"
)

// The figures a count carries beside Callgrind's events (Count.Figures).
const (
	// InstructionsProcess is the instruction count of the whole process of
	// the counted build (Callgrind collecting from the start, no clock
	// gate, no cache simulation), taken once per count job beside its
	// region runs: the witness of the region's count, measured where the
	// program cannot reach (docs/security.md).
	InstructionsProcess = "instructions_process"
)

// Figure is a declared figure: its name and its unit.
type Figure struct {
	Name string
	Unit string
}

// Declared is every figure a sample may carry, in the order a reader lists
// them.
var Declared = []Figure{
	{ElapsedNs, "ns"},
	{WallNs, "ns"},
	{MaxRSSKB, "KiB"},
	{MemPeakKB, "KiB"},
	{CPUNs, "ns"},
}

// CountDeclared is every figure a count may carry (Count.Figures).
var CountDeclared = []Figure{
	{InstructionsProcess, "instructions"},
}

// UnitOf is the unit of the figure called name ("" for an undeclared name).
func UnitOf(name string) string {
	for _, f := range append(Declared[:len(Declared):len(Declared)], CountDeclared...) {
		if f.Name == name {
			return f.Unit
		}
	}
	return ""
}

// Figures are a sample's figures by name; a figure the sampler could not
// measure (a host without a cgroup peak) is absent, not zero.
type Figures map[string]int64

// Get is the figure called name and whether the sample carries it.
func (f Figures) Get(name string) (int64, bool) {
	v, ok := f[name]
	return v, ok
}

// Set records the figure called name.
func (s *Sample) Set(name string, v int64) {
	if s.Figures == nil {
		s.Figures = Figures{}
	}
	s.Figures[name] = v
}

// Fig is the figure called name, 0 when the sample does not carry it.
func (s Sample) Fig(name string) int64 { return s.Figures[name] }

// Fig is the count's figure called name, 0 when it does not carry it.
func (c Count) Fig(name string) int64 { return c.Figures[name] }

// Set records the count's figure called name.
func (c *Count) Set(name string, v int64) {
	if c.Figures == nil {
		c.Figures = Figures{}
	}
	c.Figures[name] = v
}
