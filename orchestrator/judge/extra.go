package judge

import (
	"encoding/json"
	"reflect"
	"strings"
)

// A baselines file is shared with upstream's tools, which write keys
// halebench does not read. Those keys ride along in `extra` and are
// written back as they were.

type plainFile File
type plainEntry Entry

// UnmarshalJSON reads the known keys and keeps the rest.
func (f *File) UnmarshalJSON(data []byte) error {
	var p plainFile
	if err := json.Unmarshal(data, &p); err != nil {
		return err
	}
	extra, err := unknownKeys(data, reflect.TypeOf(p))
	if err != nil {
		return err
	}
	*f = File(p)
	f.extra = extra
	return nil
}

// MarshalJSON writes the known keys and the kept ones.
func (f File) MarshalJSON() ([]byte, error) { return withExtra(plainFile(f), f.extra) }

// UnmarshalJSON reads the known keys and keeps the rest.
func (e *Entry) UnmarshalJSON(data []byte) error {
	var p plainEntry
	if err := json.Unmarshal(data, &p); err != nil {
		return err
	}
	extra, err := unknownKeys(data, reflect.TypeOf(p))
	if err != nil {
		return err
	}
	*e = Entry(p)
	e.extra = extra
	return nil
}

// MarshalJSON writes the known keys and the kept ones.
func (e Entry) MarshalJSON() ([]byte, error) { return withExtra(plainEntry(e), e.extra) }

func unknownKeys(data []byte, t reflect.Type) (map[string]json.RawMessage, error) {
	var all map[string]json.RawMessage
	if err := json.Unmarshal(data, &all); err != nil {
		return nil, err
	}
	for i := 0; i < t.NumField(); i++ {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		delete(all, name)
	}
	if len(all) == 0 {
		return nil, nil
	}
	return all, nil
}

func withExtra(v any, extra map[string]json.RawMessage) ([]byte, error) {
	known, err := json.Marshal(v)
	if err != nil || len(extra) == 0 {
		return known, err
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(known, &all); err != nil {
		return nil, err
	}
	for k, raw := range extra {
		if _, ok := all[k]; !ok {
			all[k] = raw
		}
	}
	return json.Marshal(all)
}
