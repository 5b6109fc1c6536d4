package plan

import "fmt"

// Work is what a run does with each of its benches, for the cost model:
// the languages it runs each in (its cells), how many of those it counts,
// the timed samples per cell (warm-up and iterations; 0 with
// --count=only) and the counted runs per counted cell.
type Work struct {
	Cells     map[string]int // every bench of the run, even with 0 cells
	Counted   map[string]int
	Samples   int
	CountRuns int
}

// The cost model of a bench from its baseline figures, in nanoseconds of
// wall time on a runner like this repository's CI (measured on its 2-vCPU
// host; only their ratios matter for the balance): a counted run pays
// Valgrind's start and the process outside the timed region besides its
// instructions at Callgrind's pace; a timed sample pays a round trip
// besides its elapsed time.
const (
	CountRunStartNs = 700_000_000
	CountNsPerInstr = 35
	SampleOverNs    = 20_000_000
)

// ByCells costs each bench by its cells: all alike, as no record says
// otherwise.
func ByCells(w Work) Costs {
	c := Costs{Of: map[string]int64{}, By: "cells (no recorded cost)"}
	for name, n := range w.Cells {
		c.Of[name] = int64(n)
	}
	return c
}

// Recorded is what a baselines file records of one bench that predicts
// its cost: its counted instructions and its median elapsed time.
type Recorded struct {
	Instructions uint64
	ElapsedNs    int64
}

// FromBaselines costs each bench by the baselines' figures (path names the
// file, rec holds its figures by bench): the recorded instructions for the
// counted cells and the recorded median for the timed ones, through the
// model above. A bench the file has no figure for costs the mean of those
// it has; a file with none leaves the run to ByCells.
func FromBaselines(path string, rec map[string]Recorded, w Work) Costs {
	c := Costs{Of: map[string]int64{}}
	var missing []string
	for name, cells := range w.Cells {
		if cells == 0 { // nothing runs: a row that says so
			c.Of[name] = 0
			continue
		}
		e, ok := rec[name]
		v, ok := modelled(e, ok, name, w)
		if !ok {
			missing = append(missing, name)
			continue
		}
		c.Of[name] = v
	}
	return c.fill(missing, fmt.Sprintf("%s: the recorded instructions and medians", path), w)
}

// modelled is a bench's modelled cost, if its entry has the figures the
// run's work needs.
func modelled(e Recorded, has bool, name string, w Work) (int64, bool) {
	if !has {
		return 0, false
	}
	var ns int64
	if n := int64(w.Counted[name]); n > 0 {
		if e.Instructions == 0 {
			return 0, false
		}
		ns += n * int64(w.CountRuns) * (CountRunStartNs + CountNsPerInstr*int64(e.Instructions))
	}
	if w.Samples > 0 && w.Cells[name] > 0 {
		if e.ElapsedNs <= 0 {
			return 0, false
		}
		ns += int64(w.Cells[name]) * int64(w.Samples) * (e.ElapsedNs + SampleOverNs)
	}
	return ns, true
}

// FromReport costs each bench by what an earlier report (path) recorded
// it took (took, by bench: every language's job round trips and counted
// runs, in ns). A bench the report lacks costs the mean of those it has;
// a report with none leaves the run to ByCells.
func FromReport(path string, took map[string]int64, w Work) Costs {
	c := Costs{Of: map[string]int64{}}
	var missing []string
	for name, cells := range w.Cells {
		if v := took[name]; v > 0 || cells == 0 {
			c.Of[name] = v
		} else {
			missing = append(missing, name)
		}
	}
	return c.fill(missing, fmt.Sprintf("%s: the recorded job and count times", path), w)
}

// fill gives the benches missing the mean of the known costs, and says so
// in By; with no known cost at all, the run is balanced ByCells. The mean,
// not the median: a bench without a figure is mostly one counts cannot
// gate (threaded, counted whole-process), which costs more than most —
// on the C stand-in, its three such benches took 5.3 s on average, the
// mean of the others 4.8 s, their median 1.8 s.
func (c Costs) fill(missing []string, by string, w Work) Costs {
	var sum, n int64
	for _, v := range c.Of {
		if v > 0 {
			sum, n = sum+v, n+1
		}
	}
	if n == 0 {
		return ByCells(w)
	}
	c.By = by
	if len(missing) == 0 {
		return c
	}
	for _, name := range missing {
		c.Of[name] = sum / n
	}
	c.By += fmt.Sprintf(" (%d benches without one at the mean)", len(missing))
	return c
}
