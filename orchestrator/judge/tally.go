package judge

import (
	"errors"
	"sort"
	"strconv"

	"github.com/hale-lang/halebench/orchestrator/outcome"
)

// Errors a run's gate gives, which the CLI maps to exit code 1 (package
// harness names them too): the gate said no.
var (
	ErrRegression   = errors.New("regression")
	ErrFailed       = errors.New("the subject failed on a bench")
	ErrInconclusive = errors.New("a bench was inconclusive and --strict was given")
)

// ErrUnmeasured says the subject was not measured at all (its toolchain
// could not be had: no source, an unreachable release, a clone or build
// that failed): there is no evidence to gate on, which is neither a
// regression (1) nor a run that could not be made (2) — the CLI gives it an
// exit code of its own (3), so CI fails on it and says which fix is needed.
// A run returns it where the caller asked for evidence (CI); ab and bisect,
// which have nothing to compare without the subject, always do.
var ErrUnmeasured = errors.New("the subject was not measured")

// GateError is what a run's status means for the CLI (its severity decides
// whether it fails the gate): ErrFailed for a failure, ErrRegression for a
// regression, ErrInconclusive for an inconclusive run under strict; nil
// when it passes. A run's own verdict and a merge of its shards ask this.
func GateError(st outcome.Status, strict bool) error {
	sev := st.Severity()
	switch {
	case !sev.FailsGate(strict):
		return nil
	case sev == outcome.Fails:
		return ErrFailed
	case sev == outcome.Regresses:
		return ErrRegression
	}
	return ErrInconclusive
}

// Count is how many times one status occurs, with the worst severity it
// had in context (see OfBench).
type StatusCount struct {
	Status   outcome.Status
	Severity outcome.Severity
	N        int
}

// Tally counts statuses. Its order is the one every count line prints:
// what needs a reader first (Rank), then by name. Every status added is
// counted, whatever it is: a line that counts a fixed list says nothing of
// a run whose benches all ended otherwise.
type Tally struct {
	at     map[outcome.Status]int
	counts []StatusCount
}

// Add counts s once, at severity v (s.Severity(), or OfBench's in context).
func (t *Tally) Add(s outcome.Status, v outcome.Severity) {
	if t.at == nil {
		t.at = map[outcome.Status]int{}
	}
	i, ok := t.at[s]
	if !ok {
		i = len(t.counts)
		t.at[s] = i
		t.counts = append(t.counts, StatusCount{Status: s, Severity: v})
	}
	c := &t.counts[i]
	c.N++
	c.Severity = max(c.Severity, v)
}

// Counts are the statuses counted, in reading order.
func (t *Tally) Counts() []StatusCount {
	out := append([]StatusCount(nil), t.counts...)
	sort.SliceStable(out, func(i, j int) bool {
		if ri, rj := out[i].Severity.Rank(), out[j].Severity.Rank(); ri != rj {
			return ri < rj
		}
		return out[i].Status < out[j].Status
	})
	return out
}

// InCI says whether halebench runs in CI: CI=true, as GitHub Actions,
// GitLab and most CI services set it. There a run that could not measure
// its subject fails (ErrUnmeasured, exit 3) instead of passing with a
// warning.
func InCI(getenv func(string) string) bool {
	ci, err := strconv.ParseBool(getenv("CI"))
	return err == nil && ci
}
