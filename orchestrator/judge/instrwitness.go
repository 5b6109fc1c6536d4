package judge

import (
	"fmt"
	"strings"

	"github.com/hale-lang/halebench/images/sampler/wire"
	"github.com/hale-lang/halebench/orchestrator/outcome"
)

// The witness of a region's count. A region count is of the instructions
// between the program's own two clock reads, and the compiler under test
// places them: a counted build that reads the clock twice before the work
// and then does it prints the timed build's check= and counts ten
// instructions. The sampler counts the whole process once per count job
// (wire.InstructionsProcess: Callgrind collecting from the start, no
// clock gate), where the program cannot reach. An honest change to the
// region changes the process by as much; a region made to count less
// leaves its instructions in the process, outside the region.
//
// The rules, declared here once (ab asks OutsideInstrGrew too):
//   - a region counts no more than its process;
//   - a region retires at least MinInstrPerNs instructions per nanosecond
//     of its timed runs (MaxInstrPerNs, the time witness's, bounds it
//     from above);
//   - against a baseline, the instructions outside the region grow by no
//     more than OutsideInstrTolerance of the baseline's and
//     OutsideInstrFloor.
//
// A count that breaks one is unwitnessed: it does not gate, and says why.

// MinInstrPerNs is the fewest instructions per nanosecond of timed region
// an honest region counts. A count is of user instructions only: a region
// that spends its time in the kernel (page faults on fresh memory, a
// wait) counts few. The recorded baselines (baselines.json, hale,
// instructions over elapsed_ns per bench) go from 0.009 per ns
// (form_vec_get: 87,581 instructions in 9.6 ms) to 28.9, the whole
// catalogue counted and timed on 2026-12-07 from 0.045 (the same bench in
// C) to 38; the floor is a ninth of the least, while a region whose clock reads were placed before
// the work (tens of instructions over milliseconds) is under it by a
// factor of hundreds (docs/security.md).
const MinInstrPerNs = 0.001

// The tolerance of the instructions outside the region against a
// baseline's. Counts are deterministic (two honest runs agree to the
// instruction), so the A/A spread is 0; what may still move them honestly
// is the compiler's startup and teardown code, a new runtime's init or a
// libc's. OutsideInstrTolerance (half as many again) and OutsideInstrFloor
// (2 M, a Go runtime's start is about 1 M) leave room for that; a region
// that moved its work out moves all of it, its whole region count.
const (
	OutsideInstrTolerance = 0.5
	OutsideInstrFloor     = 2_000_000
)

// OutsideInstrKey is the instruction witness's key in a baselines entry:
// the whole process's instructions minus the region's, recorded with the
// counts. An entry recorded before the witness has none: its counts gate
// with no witness check, as the verdict says.
const OutsideInstrKey = "outside_instr"

// InstrWitnessFields declares the key; the count lane writes it
// (Fields.Counts) where the counts it records carried a witness.
var InstrWitnessFields = &Fields{
	Metric: "instructions witness",
	Keys:   []string{OutsideInstrKey},
	Check:  checkInstrWitness,
	Counts: func(c Counted) map[string]any {
		if c.Scope != wire.ScopeRegion || c.Process < c.Instructions || c.Process == 0 {
			return nil
		}
		return map[string]any{OutsideInstrKey: c.Process - c.Instructions}
	},
}

func init() { Declare(InstrWitnessFields) }

func checkInstrWitness(where string, e *Entry) string {
	var n int64
	if _, err := e.Figure(OutsideInstrKey, &n); err != nil {
		return where + "field " + OutsideInstrKey + " must be an integer"
	}
	if n > MaxInstructions {
		return fmt.Sprintf("%sfield %s is beyond %d: not a count halebench recorded", where, OutsideInstrKey, uint64(MaxInstructions))
	}
	return nonNegative(where, []namedInt{{OutsideInstrKey, n}})
}

// outsideInstrBase is the entry's outside instructions, false where it
// records none.
func outsideInstrBase(e *Entry) (uint64, bool) {
	var n int64
	if e == nil {
		return 0, false
	}
	if has, err := e.Figure(OutsideInstrKey, &n); !has || err != nil || n < 0 {
		return 0, false
	}
	return uint64(n), true
}

// InstrWitness holds a cell's counts n to their witness: the process's
// count, the region's timed median timedNs (0: not timed) and, against
// entry e (nil: none), the instructions outside the region. Why is ""
// where the witness agrees; Note says what could not be checked. Only a
// region count of stable runs is held: a process count is its own
// witness.
func InstrWitness(n Counts, timedNs int64, e *Entry) WitnessCheck {
	if n.Status != outcome.OK || n.Scope != wire.ScopeRegion || n.Median == 0 {
		return WitnessCheck{}
	}
	if n.Process == 0 {
		return WitnessCheck{Note: "no instruction witness: the counted runs carry no whole-process count (counted before the witness)"}
	}
	if n.Median > n.Process {
		return WitnessCheck{Why: fmt.Sprintf("the region counted %d instructions, more than its whole process's %d: the region count is not the process's, so it is not taken", n.Median, n.Process)}
	}
	if why := InstrPerNsFloor(n.Median, timedNs); why != "" {
		return WitnessCheck{Why: why}
	}
	var notes []string
	if timedNs <= 0 {
		notes = append(notes, "no timed region to hold the count to (not timed)")
	}
	if e.HasCounts() {
		base, ok := outsideInstrBase(e)
		if !ok {
			notes = append(notes, "no instruction witness against the baseline: it records no "+OutsideInstrKey+" (recorded before the witness; re-record it with --update-baselines --count=only)")
		} else if why := OutsideInstrGrew(n.Process-n.Median, base); why != "" {
			return WitnessCheck{Why: why}
		}
	}
	return WitnessCheck{Note: strings.Join(notes, "; ")}
}

// InstrPerNsFloor says why a region of instr instructions over timedNs of
// its timed runs retired fewer per nanosecond than any CPU does ("" where
// it did not, or there is no time).
func InstrPerNsFloor(instr uint64, timedNs int64) string {
	if timedNs <= 0 {
		return ""
	}
	rate := float64(instr) / float64(timedNs)
	if rate >= MinInstrPerNs {
		return ""
	}
	return fmt.Sprintf("the region counted %d instructions in %s of timed region: fewer than any CPU retires (%.3g per ns, under %.2g), so its count is not the work that was timed and is not taken",
		instr, FormatNs(timedNs), rate, MinInstrPerNs)
}

// OutsideInstrGrew says why the instructions outside the region (here)
// grew past the witness's tolerance and floor over base's; "" where not.
func OutsideInstrGrew(here, base uint64) string {
	lim := float64(base)*(1+OutsideInstrTolerance) + OutsideInstrFloor
	if float64(here) <= lim {
		return ""
	}
	return fmt.Sprintf("the instructions outside the counted region grew from %d to %d (over the witness's %s and %s): the region does not explain its process's count, so the region count is not taken",
		base, here, PctBand(OutsideInstrTolerance), FormatCount(OutsideInstrFloor))
}
