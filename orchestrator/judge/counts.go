package judge

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"sort"
	"time"

	"github.com/hale-lang/halebench/orchestrator/stamp"
	"github.com/hale-lang/halebench/orchestrator/suite"
)

// The count band: counts of a deterministic program repeat to the
// instruction, so the band is set by what may still move them (a libc
// routine chosen by CPUID, an allocator's path), not by the host's load.
// 0.5 % is the floor: under it a count change is a code change too small
// to matter to a release, and the 0.01 % determinism rule leaves room 50
// times over. A bench whose recorded spread is wider gets 4 × that spread,
// as a time band gets 4 × its noise.
const (
	CountBandFloor = 0.005
	CountBandMul   = 4.0
	// MaxInstructions bounds a recorded count (about an hour of a 3 GHz
	// core at 3 IPC): a larger one is a hand edit or a corrupt file.
	MaxInstructions = 1 << 45
	maxCountText    = 200
)

// CountBandOf is the band of a bench whose counted runs spread by spread
// (relative: (max − min) / min).
func CountBandOf(spread float64) float64 {
	return math.Max(CountBandFloor, CountBandMul*spread)
}

// CountTol is the band an entry's counts are held to: its recorded band,
// never under what its recorded spread allows nor under the floor.
func (e *Entry) CountTol() float64 {
	b := CountBandOf(baselineDeref(e.CountSpread))
	if e.CountBand != nil && *e.CountBand > b {
		return *e.CountBand
	}
	return b
}

// HasCounts says whether the entry holds a count baseline.
func (e *Entry) HasCounts() bool { return e != nil && e.Instructions > 0 }

// Counted is one bench's new count figures (the subject's, from stable
// counted runs).
type Counted struct {
	Instructions uint64
	EstCycles    uint64
	Spread       float64
	Scope        string
	Target       string
	Valgrind     string
	Instrument   string
	Digest       string
	// Process is the whole process's instructions (the witness; 0: none).
	Process uint64
}

// countKeysOf is c as the entry's count keys hold it.
func countKeysOf(c Counted) map[string]any {
	band := CountBandOf(c.Spread)
	m := map[string]any{"instructions": c.Instructions, "count_spread": c.Spread, "count_band": band,
		"count_scope": c.Scope, "count_target": c.Target, "valgrind_version": c.Valgrind}
	if c.EstCycles > 0 {
		m["est_cycles"] = c.EstCycles
	}
	if c.Digest != "" {
		m["counted_digest"] = c.Digest
	}
	if c.Instrument != "" {
		m["count_instrument"] = c.Instrument
	}
	return m
}

// CountFields are the count lane's keys (metric.Instructions declares
// them): every key UpdateCounts may write in an entry, and nothing else.
var CountFields = &Fields{
	Metric: "instructions",
	Keys:   []string{"instructions", "est_cycles", "count_spread", "count_band", "count_scope", "count_target", "valgrind_version", "count_instrument", "counted_digest"},
	Check:  checkCounts,
	Counts: countKeysOf,
}

// UpdateCounts writes the count fields of the benches in c,
// counts_updated_at and the halebench that wrote them into the file at
// path under its lock, and nothing else: every other key of the file and of each entry keeps its bytes
// (the file is edited as JSON values, not decoded into figures and
// written back). A bench the file does not hold gets an entry of counts
// alone. It returns the names it wrote.
//
// arch is the counted images' architecture: a file of another's is
// refused, and a new arm64 file says it is one (amd64 is left unwritten,
// as every file was before architectures were named).
func UpdateCounts(path, subject, arch string, c map[string]Counted, now time.Time) ([]string, error) {
	unlock, err := lock(path)
	if err != nil {
		return nil, err
	}
	defer unlock()
	f, err := Load(path) // the file as it stands must be valid
	if err != nil {
		return nil, err
	}
	if a := f.ArchOf(); a != "" && arch != "" && a != arch {
		return nil, fmt.Errorf("updating counts in %s: it holds figures recorded on %s and these counts are %s; give --baselines=PATH for a %s file (a missing file starts empty)", path, a, arch, arch)
	}
	top, benches, err := rawFile(path)
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(c))
	for name, v := range c {
		if err := setCounts(benches, name, v); err != nil {
			return nil, err
		}
		names = append(names, name)
	}
	sort.Strings(names)
	if top["benches"], err = encode(benches, false); err != nil {
		return nil, err
	}
	if top["counts_updated_at"], err = encode(now.UTC().Format(time.RFC3339), false); err != nil {
		return nil, err
	}
	if top["halebench"], err = encode(stamp.This(), false); err != nil { // its last writer
		return nil, err
	}
	if _, named := top["arch"]; !named && arch != "" && arch != "amd64" {
		if top["arch"], err = encode(arch, false); err != nil {
			return nil, err
		}
	}
	if _, named := top["subject"]; !named && subject != "" { // a new file says whose counts it holds
		if top["subject"], err = encode(subject, false); err != nil {
			return nil, err
		}
	}
	data, err := encode(top, true)
	if err != nil {
		return nil, err
	}
	if _, err := Parse(path, data); err != nil {
		return nil, fmt.Errorf("updating counts in %s: the new figures are out of range, file left untouched: %w", path, err)
	}
	return names, writeAtomic(path, data)
}

// rawFile reads the file at path as JSON values: its keys, and each
// bench's keys. A missing file is an empty one.
func rawFile(path string) (map[string]json.RawMessage, map[string]map[string]json.RawMessage, error) {
	top := map[string]json.RawMessage{}
	benches := map[string]map[string]json.RawMessage{}
	data, err := readIfExists(path)
	if err != nil || len(bytes.TrimSpace(data)) == 0 {
		return top, benches, err
	}
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, nil, &InvalidError{path, err.Error()}
	}
	if raw, ok := top["benches"]; ok {
		if err := json.Unmarshal(raw, &benches); err != nil {
			return nil, nil, &InvalidError{path, err.Error()}
		}
	}
	return top, benches, nil
}

// setCounts replaces bench name's count keys with v's: each declared
// metric's keys that the count lane records (Fields.Counts).
func setCounts(benches map[string]map[string]json.RawMessage, name string, v Counted) error {
	e := benches[name]
	if e == nil {
		e = map[string]json.RawMessage{"kind": json.RawMessage(`""`), "elapsed_ns": json.RawMessage("0"), "maxrss_kb": json.RawMessage("0")}
		benches[name] = e
	}
	for _, d := range declared {
		if d.Counts == nil {
			continue
		}
		for _, k := range d.Keys {
			delete(e, k)
		}
		for k, x := range d.Counts(v) {
			raw, err := encode(x, false)
			if err != nil {
				return err
			}
			e[k] = raw
		}
	}
	return nil
}

// checkCounts names the first count figure of an entry out of range.
func checkCounts(where string, e *Entry) string {
	if e.Instructions > MaxInstructions || e.EstCycles > 100*MaxInstructions {
		return fmt.Sprintf("%sfield instructions or est_cycles is beyond %d: not a count halebench recorded", where, uint64(MaxInstructions))
	}
	if msg := relative(where, "count_spread", e.CountSpread, MaxRelSigma); msg != "" {
		return msg
	}
	if msg := band(where, "count_band", e.CountBand); msg != "" {
		return msg
	}
	for _, c := range []struct{ field, v string }{{"count_scope", e.CountScope}, {"count_target", e.CountTarget},
		{"valgrind_version", e.ValgrindVersion}, {"count_instrument", e.CountInstrument}, {"counted_digest", e.CountedDigest}} {
		if len(c.v) > maxCountText || !printable(c.v) {
			return fmt.Sprintf("%sfield %s must be printable text of at most %d bytes", where, c.field, maxCountText)
		}
	}
	if e.CountScope != "" && e.CountScope != "region" && e.CountScope != "process" {
		return fmt.Sprintf("%sfield count_scope is %q, want region or process", where, e.CountScope)
	}
	if e.Instructions > 0 && (e.CountScope == "" || e.ValgrindVersion == "") {
		return where + "field instructions needs count_scope and valgrind_version beside it (record them with --update-baselines --count=only)"
	}
	return ""
}

func printable(s string) bool {
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			return false
		}
	}
	return true
}

// encode is v as JSON with every kept value's bytes as they were (no
// HTML escaping of notes), indented as halebench writes files when indent.
func encode(v any, indent bool) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if indent {
		enc.SetIndent("", "  ")
	}
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	if !indent {
		return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
	}
	return b.Bytes(), nil
}

// readIfExists reads path as Load does; nil for a missing file.
func readIfExists(path string) ([]byte, error) {
	data, err := suite.ReadSource(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, &InvalidError{path, err.Error()}
	}
	return data, nil
}
