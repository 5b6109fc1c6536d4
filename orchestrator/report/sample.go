package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/hale-lang/halebench/images/sampler/wire"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

type plainSample Sample

// sampleLayout is where the schema put a sample's keys before figures were
// named (a figure the wire declares later goes after wall_ns, by name), so
// a stored report reads and writes back byte for byte.
var sampleLayout = []string{"warmup", "status", "detail", wire.ElapsedNs, "check", wire.MaxRSSKB, wire.MemPeakKB, wire.WallNs, "", "exit_code", "signal", "stderr_tail"}

// MarshalJSON writes the sample's own keys and each figure as a key of its
// own, in the schema's layout.
func (s Sample) MarshalJSON() ([]byte, error) {
	own, err := json.Marshal(plainSample(s))
	if err != nil {
		return nil, err
	}
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(own, &keys); err != nil {
		return nil, err
	}
	for n, v := range s.Figures {
		if _, clash := sampleKeys[n]; clash {
			return nil, fmt.Errorf("sample figure %q has the name of a sample key", n)
		}
		keys[n] = json.RawMessage(strconv.FormatInt(v, 10))
	}
	if _, ok := keys[wire.WallNs]; !ok {
		keys[wire.WallNs] = json.RawMessage("0") // the schema always wrote it
	}
	var b bytes.Buffer
	b.WriteByte('{')
	put := func(k string) {
		if v, ok := keys[k]; ok {
			if b.Len() > 1 {
				b.WriteByte(',')
			}
			name, _ := json.Marshal(k)
			b.Write(name)
			b.WriteByte(':')
			b.Write(v)
			delete(keys, k)
		}
	}
	for _, k := range sampleLayout {
		if k != "" {
			put(k)
			continue
		}
		rest := make([]string, 0, len(s.Figures))
		for n := range s.Figures {
			rest = append(rest, n)
		}
		sort.Strings(rest)
		for _, n := range rest {
			put(n)
		}
	}
	if len(keys) > 0 {
		return nil, fmt.Errorf("sample keys %v have no place in the layout", keys)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// UnmarshalJSON reads the sample's own keys; every other key is a figure
// and must be an integer.
func (s *Sample) UnmarshalJSON(data []byte) error {
	var p plainSample
	if err := json.Unmarshal(data, &p); err != nil {
		return err
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(data, &all); err != nil {
		return err
	}
	*s = Sample(p)
	for k, raw := range all {
		if _, own := sampleKeys[k]; own || string(raw) == "null" {
			continue
		}
		var v int64
		if err := json.Unmarshal(raw, &v); err != nil {
			return fmt.Errorf("sample figure %q: %w", k, err)
		}
		if s.Figures == nil {
			s.Figures = map[string]int64{}
		}
		s.Figures[k] = v
	}
	return nil
}

// sampleKeys are the sample's own JSON keys: every other key is a figure.
var sampleKeys = func() map[string]struct{} {
	keys := map[string]struct{}{}
	t := reflect.TypeOf(plainSample{})
	for i := 0; i < t.NumField(); i++ {
		if name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ","); name != "-" {
			keys[name] = struct{}{}
		}
	}
	return keys
}()
