package judge

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
)

// Fields is one metric's keys in a bench's entry, declared with the metric
// (metric.Metric.Fields) and handed to this package by the metric
// registry: reading a file and writing one iterate what is declared, so a
// metric's figures are checked and kept without this package naming it.
type Fields struct {
	Metric string   // the metric's name
	Keys   []string // the entry's keys it owns, as the file spells them
	// Check names the first of its keys out of range in e, "" when all
	// are in; where is "bench NAME: ". It runs on every read and before
	// every write.
	Check func(where string, e *Entry) string
	// Settle, where set, finishes its keys of an entry just written once
	// the file's host drift is known (time's band is floored by it).
	Settle func(e *Entry)
	// Counts, for a metric the count lane records, is a bench's counts as
	// its keys (values encoded as JSON): what --update-baselines --count
	// writes, its keys replaced and every other key of the entry kept.
	Counts func(c Counted) map[string]any
}

var declared []*Fields

// Declare adds a metric's fields to what every read checks and every
// write settles, and returns what takes them back out. A key another
// metric owns is refused. The metric registry declares its metrics; a
// program that reads baselines imports it (a file is not trusted unchecked:
// with nothing declared, every entry is refused).
func Declare(f *Fields) (undo func()) {
	for _, d := range declared {
		for _, k := range d.Keys {
			for _, n := range f.Keys {
				if k == n {
					panic(fmt.Sprintf("baseline: key %s declared by %s and %s", k, d.Metric, f.Metric))
				}
			}
		}
	}
	declared = append(declared, f)
	return func() {
		for i, d := range declared {
			if d == f {
				declared = append(declared[:i:i], declared[i+1:]...)
				return
			}
		}
	}
}

// Figure reads key, a declared metric's key the Entry has no field for,
// into v: false where the entry does not hold it, an error where it holds
// something v cannot.
func (e *Entry) Figure(key string, v any) (bool, error) {
	raw, ok := e.extra[key]
	if !ok {
		return false, nil
	}
	return true, json.Unmarshal(raw, v)
}

// SetFigure writes v as key, a declared metric's key the Entry has no
// field for. (An entry holding such a key is written with its keys in
// order, as one holding upstream's keys is.)
func (e *Entry) SetFigure(key string, v any) error {
	if known(key) {
		return fmt.Errorf("baseline: %s is an Entry field: set it", key)
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if e.extra == nil {
		e.extra = map[string]json.RawMessage{}
	}
	e.extra[key] = raw
	return nil
}

// known says whether key is one of Entry's own fields.
func known(key string) bool {
	t := reflect.TypeOf(plainEntry{})
	for i := 0; i < t.NumField(); i++ {
		if name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ","); name == key {
			return true
		}
	}
	return false
}

// Has says whether the entry holds key among the keys it has no field for.
func (e *Entry) Has(key string) bool {
	_, ok := e.extra[key]
	return ok
}
