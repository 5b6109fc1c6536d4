package wire

import "strings"

// BenchEnvPrefixes are what a bench's env (catalogue.json) may name: LOTUS_
// (the Hale runtime's knobs) and BENCH_ (a bench's own). Nothing else a suite
// file sets reaches a job (orchestrator/suite refuses it), and a counted
// run takes from a job's env only these and the HALEBENCH_ names the
// orchestrator sets, before its own fixed environment.
var BenchEnvPrefixes = []string{"LOTUS_", "BENCH_"}

// MaxBenchEnvName bounds a variable's name.
const MaxBenchEnvName = 64

// BenchEnvRefused says why a bench's env may not set name ("" when it may).
func BenchEnvRefused(name string) string {
	if len(name) > MaxBenchEnvName {
		return "a name over 64 bytes"
	}
	for _, r := range name {
		if !(r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_') {
			return "a name of capital letters, digits and _ only"
		}
	}
	for _, p := range BenchEnvPrefixes {
		if strings.HasPrefix(name, p) && len(name) > len(p) {
			return ""
		}
	}
	return "not a bench knob"
}
