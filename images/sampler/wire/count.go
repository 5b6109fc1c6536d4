package wire

// The count lane: a bench run under Valgrind's Callgrind (with a fixed cache
// model unless CountJob.NoCacheSim), whose instruction count is a function of the program and its
// inputs, not of the host's load. The runner asks for it with Job.Count; the
// sampler answers with Result.Counts (one per counted run) and the Valgrind
// version in Result.Env.Valgrind.

// Count statuses, per counted run. Whether the counts of a cell agree
// (count_unstable) is the judge's call, not the sampler's.
const (
	CountOK     = "ok"
	CountFailed = "count_failed"
)

// What a count covers: the bench's timed region (between its two monotonic
// clock reads) or, where that cannot be delimited, the whole process.
const (
	ScopeRegion  = "region"
	ScopeProcess = "process"
)

// CountJob asks the sampler to count a bench's program Runs times.
type CountJob struct {
	// Argv runs the counted build of the bench (built for a fixed CPU
	// target, not for the host's).
	Argv []string `json:"argv"`
	Runs int      `json:"runs"`
	// Region: delimit the count by the program's monotonic clock reads;
	// otherwise count the whole process.
	Region    bool  `json:"region"`
	TimeoutNs int64 `json:"timeout_ns"`
	// BuildFailed is the file whose presence means the counted build
	// failed (its text is the compiler's message).
	BuildFailed string `json:"build_failed,omitempty"`
	// NoWitness leaves out the whole-process run that witnesses a region
	// count (InstructionsProcess): a later job of a cell whose first job
	// took it.
	NoWitness bool `json:"no_witness,omitempty"`
	// NoCacheSim leaves out Callgrind's cache simulation (a fixed model,
	// for the misses and est_cycles): --count-cache-sim=false. Its Ir is
	// not the same as with it (IrComparable), so it is not the default.
	NoCacheSim bool `json:"no_cache_sim,omitempty"`
}

// What counted a run: Callgrind with its cache simulation (the default),
// or Callgrind alone. IrComparable says which instruments a baseline may
// be held to.
const (
	InstrumentCallgrind         = "callgrind"
	InstrumentCallgrindCacheSim = "callgrind-cachesim"
)

// IrComparable says whether Ir counted by instrument a may be held to Ir
// counted by b: only by the same instrument. "" is a baseline recorded
// before instruments were named: those were all counted by
// callgrind-cachesim, so they compare with it and with nothing else.
// Callgrind without the simulation does not count the same Ir: measured
// on the 18 held C benches (valgrind-3.19.0, gcc, on the host), a region
// count is 11 instructions more on every one (where collection is
// toggled) and a whole-process count some 480 more; a band would hide
// that, an exact count must not.
func IrComparable(a, b string) bool {
	return irClass(a) == irClass(b)
}

func irClass(instrument string) string {
	if instrument == "" {
		return InstrumentCallgrindCacheSim
	}
	return instrument
}

// Count is one counted run: Callgrind's event totals over the scope.
type Count struct {
	Status string `json:"status"`
	Detail string `json:"detail,omitempty"`
	Scope  string `json:"scope"`
	// Instructions executed (Callgrind's Ir).
	Ir uint64 `json:"ir"`
	// Data reads and writes, and the fixed cache model's misses: first level
	// (I1, D1 read, D1 write) and last level (LL instruction, read, write).
	Dr   uint64 `json:"dr,omitempty"`
	Dw   uint64 `json:"dw,omitempty"`
	I1mr uint64 `json:"i1mr,omitempty"`
	D1mr uint64 `json:"d1mr,omitempty"`
	D1mw uint64 `json:"d1mw,omitempty"`
	ILmr uint64 `json:"ilmr,omitempty"`
	DLmr uint64 `json:"dlmr,omitempty"`
	DLmw uint64 `json:"dlmw,omitempty"`
	// EstCycles = Ir + 10·(I1mr+D1mr+D1mw) + 100·(ILmr+DLmr+DLmw).
	EstCycles uint64 `json:"est_cycles,omitempty"`
	WallNs    int64  `json:"wall_ns"`
	// Threads: the program started a second thread, so its count depends
	// on how the threads interleaved; two runs that agree prove nothing
	// and the judge never gates it (count_unstable).
	Threads bool `json:"threads,omitempty"`
	// Instrument is what counted the run (InstrumentCallgrind or
	// InstrumentCallgrindCacheSim).
	Instrument string `json:"instrument,omitempty"`
	// Figures are the count's named figures (CountDeclared): the whole
	// process's instructions, the region count's witness, on a region
	// run of a job that took it.
	Figures Figures `json:"figures,omitempty"`
}

// CountSeed is the HALEBENCH_SEED of every counted run, whatever the
// job's: a bench whose work depends on its seed (how many digits a number
// has, a hash map's layout) counts the same work on every run and host.
const CountSeed = "1"

// GateThreads ends the clock gate's "region not delimited" reason when the
// program started a second thread (images/count/clockgate.c).
const GateThreads = "a second thread"

// EstimatedCycles is the README's formula over c's events; 0 for a run
// counted without the cache simulation, which has no misses to weigh.
func (c Count) EstimatedCycles() uint64 {
	if c.Instrument == InstrumentCallgrind {
		return 0
	}
	return c.Ir + 10*(c.I1mr+c.D1mr+c.D1mw) + 100*(c.ILmr+c.DLmr+c.DLmw)
}

// ClockGatePath is where a bench image holds the LD_PRELOAD library that
// delimits a region count (images/count/clockgate.c), in the images of the
// languages counted by region.
const ClockGatePath = "/bench/lib/halebench-clockgate.so"

// ClockGateLine starts the lines the clock gate writes on Valgrind's log:
// ClockGateLine+"region closed" when the region was delimited, or
// ClockGateLine+"region not delimited: <why>".
const ClockGateLine = "halebench-clockgate: "
