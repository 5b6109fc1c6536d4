package wire

import (
	"fmt"
	"strconv"
	"strings"
)

// The bench's side of the wire: what a bench program prints on its stdout
// for the sampler to read. The sampler is the one reader of it; whoever
// else needs a bench's figures (xproc's pairs) takes them from the
// sampler's Sample, which this parser filled.

// MaxCheck bounds a check= line: a workload digest is a few dozen bytes,
// and every sample's check goes into the report.
const MaxCheck = 256

// Output is what a bench's stdout says: StatusOK with its elapsed time and
// check, or StatusNoElapsed / StatusBadOutput and why.
type Output struct {
	Status    string
	Detail    string
	ElapsedNs int64
	Check     string
}

// ParseOutput reads a bench's stdout: exactly one elapsed_ns=N line with N
// a positive integer (an "ns" unit may follow it), at most one check= line
// of at most MaxCheck bytes. Output cut at the cap (dropped > 0 bytes) is
// bad output even when the line is there: the bench did not do what it
// says.
func ParseOutput(out []byte, dropped int64) Output {
	if dropped > 0 {
		return Output{Status: StatusBadOutput, Detail: fmt.Sprintf("stdout over the cap: %d bytes dropped", dropped)}
	}
	var elapsed []string
	var checks []string
	for _, line := range strings.Split(string(out), "\n") {
		line = strings.TrimRight(line, "\r")
		switch {
		case strings.HasPrefix(line, "elapsed_ns="):
			elapsed = append(elapsed, strings.TrimPrefix(line, "elapsed_ns="))
		case strings.HasPrefix(line, "check="):
			checks = append(checks, strings.TrimPrefix(line, "check="))
		}
	}
	if len(elapsed) == 0 {
		return Output{Status: StatusNoElapsed, Detail: "no elapsed_ns=N line on stdout"}
	}
	if len(elapsed) > 1 {
		return Output{Status: StatusBadOutput, Detail: fmt.Sprintf("%d elapsed_ns lines, want one", len(elapsed))}
	}
	n, ok := parseElapsed(elapsed[0])
	if !ok {
		return Output{Status: StatusBadOutput, Detail: fmt.Sprintf("elapsed_ns=%q is not a positive integer of nanoseconds", clip(elapsed[0], 40))}
	}
	if len(checks) > 1 {
		return Output{Status: StatusBadOutput, Detail: fmt.Sprintf("%d check lines, want at most one", len(checks))}
	}
	o := Output{Status: StatusOK, ElapsedNs: n}
	if len(checks) == 1 {
		o.Check = strings.TrimSpace(checks[0])
	}
	if len(o.Check) > MaxCheck {
		return Output{Status: StatusBadOutput, Detail: fmt.Sprintf("check line of %d bytes, want at most %d", len(o.Check), MaxCheck)}
	}
	return o
}

// parseElapsed reads the value of an elapsed_ns= line: digits, then
// optionally the unit "ns". Hale prints a Duration with its unit
// (`elapsed_ns=9373585ns`) and the seed's harness took the digits in front of
// it; any other unit (1.5ms, 2s) is not nanoseconds and is refused rather
// than converted.
func parseElapsed(v string) (int64, bool) {
	v = strings.TrimSuffix(strings.TrimSpace(v), "ns")
	if v == "" {
		return 0, false
	}
	for _, r := range v {
		if r < '0' || r > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n <= 0 {
		return 0, false
	}
	return n, true
}
