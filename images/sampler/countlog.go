//go:build linux

package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/hale-lang/halebench/images/sampler/wire"
)

// The events a counted run's summary must carry, in Callgrind's order with
// --cache-sim=yes, and without it.
var (
	cacheSimEvents = []string{"Ir", "Dr", "Dw", "I1mr", "D1mr", "D1mw", "ILmr", "DLmr", "DLmw"}
	irEvents       = []string{"Ir"}
)

// parseCountLog reads Callgrind's totals from Valgrind's own log of one run
// (the first connection to the sampler's log socket, never the bench's
// stdout or stderr). Only lines that Valgrind itself writes for process pid
// ("==pid== ") count; a client request's lines ("**pid** ") do not. It wants
// exactly one "Events :" line naming every event of countEvents and exactly
// one "Collected :" line of at most as many unsigned numbers (Callgrind
// leaves out trailing zeros): none, two, or a malformed one is an error that
// says which.
func parseCountLog(log string, pid int, cacheSim bool) (wire.Count, error) {
	want := irEvents
	if cacheSim {
		want = cacheSimEvents
	}
	var c wire.Count
	prefix := "==" + strconv.Itoa(pid) + "== "
	var events, collected []string
	nEvents, nCollected := 0, 0
	for _, line := range strings.Split(log, "\n") {
		rest, ok := strings.CutPrefix(line, prefix)
		if !ok {
			continue
		}
		key, val, ok := strings.Cut(rest, ":")
		if !ok {
			continue
		}
		switch strings.TrimSpace(key) {
		case "Events":
			nEvents++
			events = strings.Fields(val)
		case "Collected":
			nCollected++
			collected = strings.Fields(val)
		}
	}
	switch {
	case nEvents == 0 || nCollected == 0:
		return c, fmt.Errorf("valgrind's log has no Callgrind summary (Events %d, Collected %d lines): %s", nEvents, nCollected, tail(log, 600))
	case nEvents > 1 || nCollected > 1:
		return c, fmt.Errorf("valgrind's log has %d Events and %d Collected lines, want one of each: a count cannot be told from a forged one", nEvents, nCollected)
	case len(collected) == 0 || len(collected) > len(events):
		return c, fmt.Errorf("callgrind's summary names %d events but gives %d totals", len(events), len(collected))
	}
	got, err := countTotals(events, collected)
	if err != nil {
		return c, err
	}
	for _, name := range want {
		if _, ok := got[name]; !ok {
			return c, fmt.Errorf("callgrind's summary lacks %s (events: %s): was the cache simulation on?", name, strings.Join(events, " "))
		}
	}
	c = wire.Count{Status: wire.CountOK, Ir: got["Ir"], Instrument: instrumentOf(cacheSim)}
	if cacheSim {
		c.Dr, c.Dw, c.I1mr, c.D1mr, c.D1mw = got["Dr"], got["Dw"], got["I1mr"], got["D1mr"], got["D1mw"]
		c.ILmr, c.DLmr, c.DLmw = got["ILmr"], got["DLmr"], got["DLmw"]
		c.EstCycles = c.EstimatedCycles()
	}
	return c, nil
}

// countTotals pairs Callgrind's event names with its totals; it leaves
// out the trailing totals that are zero, so a name without one is 0.
func countTotals(events, collected []string) (map[string]uint64, error) {
	got := map[string]uint64{}
	for i, name := range events {
		if i >= len(collected) {
			got[name] = 0
			continue
		}
		n, err := strconv.ParseUint(collected[i], 10, 64)
		if err != nil {
			return nil, fmt.Errorf("callgrind's total of %s is %q, not a count", name, collected[i])
		}
		got[name] = n
	}
	return got, nil
}

// gateVerdict reads what the clock gate said on Valgrind's log of a region
// run: "" when the region was delimited (exactly one "region closed" and no
// "not delimited"), else why it was not.
func gateVerdict(log string, pid int) string {
	prefix := "**" + strconv.Itoa(pid) + "** " + wire.ClockGateLine
	closed := 0
	for _, line := range strings.Split(log, "\n") {
		rest, ok := strings.CutPrefix(line, prefix)
		if !ok {
			continue
		}
		if why, ok := strings.CutPrefix(rest, "region not delimited: "); ok {
			return "the region is not delimited: " + strings.TrimSpace(why)
		}
		if strings.TrimSpace(rest) == "region closed" {
			closed++
		}
	}
	switch closed {
	case 0:
		return "the region is not delimited: the program did not read CLOCK_MONOTONIC twice through libc"
	case 1:
		return ""
	}
	return fmt.Sprintf("the region is not delimited: it closed %d times", closed)
}
