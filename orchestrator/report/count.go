package report

import (
	"github.com/hale-lang/halebench/images/sampler/wire"
	"github.com/hale-lang/halebench/orchestrator/outcome"
)

// CountLane is one language's count lane on a bench: every counted run,
// what they cover, the cell's figures and the count verdict. For the
// subject it is held to the baseline's counts; a comparative's is
// reported, never gated.
type CountLane struct {
	Runs      []CountRunResult `json:"runs"`
	Scope     string           `json:"scope,omitempty"` // region (the timed region) or process
	Ir        uint64           `json:"ir,omitempty"`    // the cell's instructions
	EstCycles uint64           `json:"est_cycles,omitempty"`
	Spread    float64          `json:"spread"` // (max − min) / min of the runs' instructions
	Verdict   outcome.Status   `json:"count_verdict"`
	Reason    string           `json:"reason,omitempty"`
	Baseline  uint64           `json:"baseline_ir,omitempty"`
	Delta     *int64           `json:"delta_ir,omitempty"` // exact: ir − baseline_ir
	Band      float64          `json:"count_band,omitempty"`
	Target    string           `json:"target,omitempty"`
	Valgrind  string           `json:"valgrind,omitempty"`
	// Instrument is what counted: callgrind-cachesim (the default, with
	// the fixed cache model that gives est_cycles) or callgrind.
	Instrument string `json:"instrument,omitempty"`
	// Process is the whole process's instructions, the witness of a
	// region count (wire.InstructionsProcess); Witness says what of the
	// witness could not be checked.
	Process uint64 `json:"instructions_process,omitempty"`
	Witness string `json:"witness,omitempty"`
	WallNs  int64  `json:"wall_ns,omitempty"` // what counting this cell cost
	CPUs    string `json:"cpus,omitempty"`    // the CPU it was counted on
	// TimeoutNs bounds its first counted run: the instrument's slowdown
	// over the program's native run, with a margin (later runs: over the
	// first counted run's time).
	TimeoutNs int64 `json:"timeout_ns,omitempty"`
}

// CountRunResult is one counted run.
type CountRunResult struct {
	Status     string `json:"status"`
	Detail     string `json:"detail,omitempty"`
	Scope      string `json:"scope,omitempty"`
	Ir         uint64 `json:"ir"`
	EstCycles  uint64 `json:"est_cycles,omitempty"`
	Instrument string `json:"instrument,omitempty"`
	WallNs     int64  `json:"wall_ns"`
	// Figures are the run's named figures (wire.CountDeclared).
	Figures wire.Figures `json:"figures,omitempty"`
}

// Count is how the run counted: --count's mode, the languages counted,
// runs per cell, the budget and what it left out, the cost, and the
// parallel jobs that counted (one per CPU listed).
type Count struct {
	Mode        string   `json:"mode"` // auto, off or only
	Languages   []string `json:"languages,omitempty"`
	Runs        int      `json:"runs"`
	Budget      string   `json:"budget,omitempty"`
	OverBudget  []string `json:"over_budget,omitempty"` // benches left uncounted once the budget was spent
	Valgrind    string   `json:"valgrind,omitempty"`
	NoCacheSim  bool     `json:"no_cache_sim,omitempty"` // --count-cache-sim=false: Callgrind without its cache simulation
	Target      string   `json:"target,omitempty"`
	CostSeconds float64  `json:"cost_seconds"` // every count job's time, summed
	Cells       int      `json:"cells_counted"`
	Jobs        int      `json:"jobs"`           // count jobs run at once
	CPUs        []string `json:"cpus,omitempty"` // the CPU of each
	WallSeconds float64  `json:"wall_seconds"`   // the count lane's wall time
	Guards      bool     `json:"guards_counted"` // --count-guards
}
