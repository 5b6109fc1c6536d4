package baseline

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"time"

	"golang.org/x/sys/unix"
)

// DefaultTolerance is the band a bench gets when its entry names none.
const DefaultTolerance = 0.30

// File is baselines.json.
type File struct {
	UpdatedAt   string            `json:"updated_at"`
	Subject     string            `json:"subject,omitempty"`
	Toolchain   string            `json:"toolchain,omitempty"`
	HaleVersion string            `json:"hale_version,omitempty"`
	Host        string            `json:"host,omitempty"`
	Benches     map[string]*Entry `json:"benches"`
}

// Entry is one bench's accepted figures.
type Entry struct {
	Kind      string   `json:"kind"`
	ElapsedNs int64    `json:"elapsed_ns"`
	MaxRSSKB  int64    `json:"maxrss_kb"`
	MemPeakKB int64    `json:"mem_peak_kb,omitempty"`
	Tolerance *float64 `json:"tolerance,omitempty"`
	Note      string   `json:"note,omitempty"`
}

// SubjectOf names the language a file's medians belong to: its subject
// field, or hale for a file written before that field (the seed suite's);
// "" for a file with no bench yet, which fits any subject.
func (f *File) SubjectOf() string {
	if f.Subject != "" {
		return f.Subject
	}
	if len(f.Benches) > 0 {
		return "hale"
	}
	return ""
}

// Tol is the entry's tolerance, or the default.
func (e *Entry) Tol() float64 {
	if e.Tolerance == nil {
		return DefaultTolerance
	}
	return *e.Tolerance
}

// Limit is the largest median that is not a regression.
func (e *Entry) Limit() int64 {
	return int64(float64(e.ElapsedNs) * (1 + e.Tol()))
}

// Regressed says whether a subject median regresses against the entry.
// Faster than the baseline is never a regression.
func (e *Entry) Regressed(median int64) bool {
	return median > e.Limit()
}

// InvalidError says what is wrong with a baselines file.
type InvalidError struct {
	Path string
	Msg  string
}

func (e *InvalidError) Error() string {
	return fmt.Sprintf("baselines %s: %s (fix or remove the file; it was left untouched)", e.Path, e.Msg)
}

// Load reads a baselines file. A missing file is an empty one.
func Load(path string) (*File, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return &File{Benches: map[string]*Entry{}}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading baselines %s: %w", path, err)
	}
	return Parse(path, data)
}

// Parse checks and decodes a baselines document.
func Parse(path string, data []byte) (*File, error) {
	var f File
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&f); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			line, col := position(data, se.Offset)
			return nil, &InvalidError{path, fmt.Sprintf("not valid JSON at line %d, column %d: %v", line, col, se)}
		case errors.As(err, &te):
			return nil, &InvalidError{path, fmt.Sprintf("field %s holds a %s, want %s", te.Field, te.Value, te.Type)}
		default:
			return nil, &InvalidError{path, err.Error()}
		}
	}
	if f.Benches == nil {
		return nil, &InvalidError{path, `no "benches" object`}
	}
	for name, e := range f.Benches {
		switch {
		case e == nil:
			return nil, &InvalidError{path, fmt.Sprintf("bench %s: null entry", name)}
		case e.ElapsedNs <= 0:
			return nil, &InvalidError{path, fmt.Sprintf("bench %s: elapsed_ns must be a positive integer", name)}
		case e.MaxRSSKB < 0:
			return nil, &InvalidError{path, fmt.Sprintf("bench %s: maxrss_kb must not be negative", name)}
		case e.Tolerance != nil && (*e.Tolerance < 0 || *e.Tolerance > 100):
			return nil, &InvalidError{path, fmt.Sprintf("bench %s: tolerance %v out of range 0..100", name, *e.Tolerance)}
		}
	}
	return &f, nil
}

func position(data []byte, off int64) (line, col int) {
	line, col = 1, 1
	for i := int64(0); i < off && i < int64(len(data)); i++ {
		if data[i] == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return
}

// Measured is one bench's new subject figures.
type Measured struct {
	Kind      string
	ElapsedNs int64
	MaxRSSKB  int64
	MemPeakKB int64
}

// Provenance is who measured the new figures.
type Provenance struct {
	Subject   string
	Toolchain string
	Host      string
}

// Update merges new medians into the file at path under its lock: each
// bench keeps its tolerance and note; new benches get the default band.
// The file is rewritten atomically. It returns the names it changed.
func Update(path string, m map[string]Measured, p Provenance, now time.Time) ([]string, error) {
	unlock, err := lock(path)
	if err != nil {
		return nil, err
	}
	defer unlock()
	f, err := Load(path)
	if err != nil {
		return nil, err
	}
	var names []string
	for name, v := range m {
		e := f.Benches[name]
		if e == nil {
			tol := DefaultTolerance
			e = &Entry{Tolerance: &tol}
			f.Benches[name] = e
		}
		if v.Kind != "" {
			e.Kind = v.Kind
		}
		e.ElapsedNs, e.MaxRSSKB, e.MemPeakKB = v.ElapsedNs, v.MaxRSSKB, v.MemPeakKB
		names = append(names, name)
	}
	sort.Strings(names)
	f.UpdatedAt = now.UTC().Format(time.RFC3339)
	f.Subject, f.Toolchain, f.Host = p.Subject, p.Toolchain, p.Host
	if p.Subject == "hale" {
		f.HaleVersion = p.Toolchain
	}
	data, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return nil, err
	}
	return names, writeAtomic(path, append(data, '\n'))
}

// lock takes an exclusive lock beside path, waiting for another updater.
func lock(path string) (func(), error) {
	lf, err := os.OpenFile(path+".lock", os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("locking baselines %s: %w", path, err)
	}
	if err := unix.Flock(int(lf.Fd()), unix.LOCK_EX); err != nil {
		lf.Close()
		return nil, fmt.Errorf("locking baselines %s: %w", path, err)
	}
	return func() {
		unix.Flock(int(lf.Fd()), unix.LOCK_UN)
		lf.Close()
	}, nil
}

func writeAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("writing baselines %s: %w", path, err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("writing baselines %s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("writing baselines %s: %w", path, err)
	}
	return nil
}
