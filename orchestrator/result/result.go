package result

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/hale-lang/halebench/orchestrator/report"
)

// Kind is which verb measured a document.
type Kind string

// The kinds, as each document's kind field names them.
const (
	Run   Kind = report.Kind
	AB    Kind = report.ABKind
	Xproc Kind = report.XprocKind
)

// format is one kind's schema: its id, the version this halebench reads,
// how a message names a document of it and where the verb stores it.
type format struct {
	kind    Kind
	schema  string // id/version, as the document's schema field says it
	what    string
	example string
}

var formats = []format{
	{Run, report.Schema, "a run report", "results/run-*.json"},
	{AB, report.ABSchema, "an ab result", "results/ab-*.json"},
	{Xproc, report.XprocSchema, "an xproc report", "results/xproc-*.json"},
}

func formatOf(k Kind) format {
	for _, f := range formats {
		if f.kind == k {
			return f
		}
	}
	return format{kind: k, what: "a " + string(k) + " document"}
}

// What names a kind's document in a message ("an ab result").
func (k Kind) What() string { return formatOf(k).what }

// Schema is the schema id and version a kind's documents carry.
func (k Kind) Schema() string { return formatOf(k).schema }

// Doc is one stored document: its kind, the file it came from and the
// document itself, in the field of its kind (the others nil).
type Doc struct {
	Kind  Kind
	File  string
	Run   *report.Report
	AB    *report.Result
	Xproc *report.XprocReport
}

// Value is the document itself, to write back as JSON.
func (d *Doc) Value() any {
	switch d.Kind {
	case Run:
		return d.Run
	case AB:
		return d.AB
	}
	return d.Xproc
}

// Shard is the document's shard field (nil when it has none).
func (d *Doc) Shard() *report.Shard {
	switch d.Kind {
	case Run:
		return d.Run.Shard
	case AB:
		return d.AB.Shard
	}
	return d.Xproc.Shard
}

// Want refuses a document whose kind is not one of kinds, naming the file,
// its kind and what the verb takes.
func (d *Doc) Want(verb string, kinds ...Kind) error {
	var takes []string
	for _, k := range kinds {
		if d.Kind == k {
			return nil
		}
		f := formatOf(k)
		takes = append(takes, f.what+" ("+f.example+")")
	}
	return fmt.Errorf("%s is %s (%s); %s takes %s", d.File, d.Kind.What(), d.Kind.Schema(), verb, strings.Join(takes, " or "))
}

// kindOf is the kind a document's head names, refused when its schema is
// none this halebench reads, a version it does not read, or a kind field
// that says otherwise than the schema.
func kindOf(name, schema, kind string) (Kind, error) {
	id, version, _ := strings.Cut(schema, "/")
	for _, f := range formats {
		fid, fversion, _ := strings.Cut(f.schema, "/")
		switch {
		case schema == f.schema && kind != "" && Kind(kind) != f.kind:
			return "", fmt.Errorf("%s says kind %q but has schema %s, which is %s's; it was not written by halebench", name, kind, schema, f.kind)
		case schema == f.schema:
			return f.kind, nil
		case id == fid:
			if n, err := strconv.Atoi(version); err == nil && n > mustAtoi(fversion) {
				return "", fmt.Errorf("%s has schema %q, a newer version of %s than this halebench reads (%s); read it with the halebench that wrote it", name, schema, f.what, f.schema)
			}
			return "", fmt.Errorf("%s has schema %q; this halebench reads %s as %s", name, schema, f.what, f.schema)
		}
	}
	return "", fmt.Errorf("%s has schema %q; this halebench reads %s, %s and %s", name, schema, formats[0].schema, formats[1].schema, formats[2].schema)
}

func mustAtoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// Decode makes a Doc of data, a document that may be hostile, read from
// the file name: its head says its kind, then it is decoded as that kind
// and checked.
func Decode(name string, data []byte) (*Doc, error) {
	var head struct {
		Kind   string `json:"kind"`
		Schema string `json:"schema"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, fmt.Errorf("%s is not a JSON report: %v", name, err)
	}
	k, err := kindOf(name, head.Schema, head.Kind)
	if err != nil {
		return nil, err
	}
	d := &Doc{Kind: k, File: name}
	var v any
	switch k {
	case Run:
		d.Run = &report.Report{}
		v = d.Run
	case AB:
		d.AB = &report.Result{}
		v = d.AB
	default:
		d.Xproc = &report.XprocReport{}
		v = d.Xproc
	}
	if err := json.Unmarshal(data, v); err != nil {
		return nil, fmt.Errorf("%s is not %s: %v", name, k.What(), err)
	}
	if err := d.check(); err != nil {
		return nil, fmt.Errorf("%s is not %s: %v", name, k.What(), err)
	}
	return d, nil
}

// Read reads the document stored at path: bounded, never through a
// symlink, never from a FIFO or device (report.ReadBounded), decoded and
// checked as its kind.
func Read(path string) (*Doc, error) {
	data, err := report.ReadBounded(path)
	if err != nil {
		return nil, err
	}
	return Decode(path, data)
}

// ReadRun reads a run report stored at path, refusing another kind by
// name.
func ReadRun(path string, verb string) (*report.Report, error) {
	d, err := Read(path)
	if err != nil {
		return nil, err
	}
	if err := d.Want(verb, Run); err != nil {
		return nil, err
	}
	return d.Run, nil
}
