package judge

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/hale-lang/halebench/orchestrator/suite"
)

// InvalidError says what is wrong with a baselines file.
type InvalidError struct {
	Path string
	Msg  string
}

func (e *InvalidError) Error() string {
	return fmt.Sprintf("baselines %s: %s (fix or remove the file; it was left untouched)", e.Path, e.Msg)
}

// Load reads a baselines file. A missing file is an empty one. It is read
// as a suite file is: never through a symlink, never from a FIFO or a
// device, and no larger than suite.SourceCap.
func Load(path string) (*File, error) {
	data, err := suite.ReadSource(path)
	if errors.Is(err, os.ErrNotExist) {
		return &File{Benches: map[string]*Entry{}}, nil
	}
	if err != nil {
		return nil, &InvalidError{path, err.Error()}
	}
	return Parse(path, data)
}

// Parse checks and decodes a baselines document: one JSON object and
// nothing after it, every figure in its range, every median agreeing with
// the samples it was taken from.
func Parse(path string, data []byte) (*File, error) {
	var f File
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&f); err != nil {
		return nil, decodeError(path, data, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		line, col := position(data, dec.InputOffset())
		return nil, &InvalidError{path, fmt.Sprintf("text after the JSON object at line %d, column %d", line, col)}
	}
	if f.Benches == nil {
		return nil, &InvalidError{path, `no "benches" object`}
	}
	if msg := check(&f); msg != "" {
		return nil, &InvalidError{path, msg}
	}
	f.floorDrift()
	return &f, nil
}

func decodeError(path string, data []byte, err error) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		line, col := position(data, se.Offset)
		return &InvalidError{path, fmt.Sprintf("not valid JSON at line %d, column %d: %v", line, col, se)}
	case errors.As(err, &te):
		return &InvalidError{path, fmt.Sprintf("field %s holds a %s, want %s", te.Field, te.Value, te.Type)}
	default:
		return &InvalidError{path, err.Error()}
	}
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
