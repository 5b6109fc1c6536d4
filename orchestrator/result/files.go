package result

import (
	"errors"
	"fmt"
	"io"
)

// Files joins the shards stored in files, of any one kind (run, ab or
// xproc), into one document written at (RFC 3339), or refuses them (a
// *Refusal naming the file). It is the one merge path: each file is read
// through result's bounded reader, then the shards are joined by their
// kind's rule (Reports, AB, Xproc).
func Files(files []string, at string) (*Doc, error) {
	if len(files) == 0 {
		return nil, errors.New("give the shards' files (each shard's results/run-*.json, ab --json result or results/xproc-*.json)")
	}
	var docs []*Doc
	for _, f := range files {
		d, err := readShard(f)
		if err != nil {
			return nil, err
		}
		if len(docs) > 0 && d.Kind != docs[0].Kind {
			return nil, refuse(f, "%s, but %s is %s: give the shards of one run, one ab or one xproc", d.Kind.What(), docs[0].File, docs[0].Kind.What())
		}
		docs = append(docs, d)
	}
	return Docs(docs, at)
}

// readShard reads one shard's file and checks it is a complete shard of
// its kind.
func readShard(path string) (*Doc, error) {
	d, err := Read(path)
	if err != nil {
		return nil, &Refusal{File: path, Why: "not a report: " + err.Error()}
	}
	return d, checkShard(d)
}

// checkShard checks a document read is a complete shard of its kind.
func checkShard(d *Doc) (err error) {
	path := d.File
	switch d.Kind {
	case Run:
		err = Shard{File: path, Report: d.Run}.check()
	case AB:
		err = ABShard{File: path, Result: d.AB}.check()
	case Xproc:
		err = XprocShard{File: path, Report: d.Xproc}.check()
	}
	return err
}

// Docs joins shards already read, all of one kind, by that kind's rule.
func Docs(docs []*Doc, at string) (*Doc, error) {
	if len(docs) == 0 {
		return nil, errors.New("no shard files given")
	}
	m := &Doc{Kind: docs[0].Kind}
	for _, d := range docs[1:] { // each kind's rule reads its own field only
		if d.Kind != m.Kind {
			return nil, refuse(d.File, "%s, but %s is %s: give the shards of one run, one ab or one xproc", d.Kind.What(), docs[0].File, m.Kind.What())
		}
	}
	var err error
	switch m.Kind {
	case Run:
		var shards []Shard
		for _, d := range docs {
			shards = append(shards, Shard{File: d.File, Report: d.Run})
		}
		m.Run, err = Reports(shards, at)
	case AB:
		var shards []ABShard
		for _, d := range docs {
			shards = append(shards, ABShard{File: d.File, Result: d.AB})
		}
		m.AB, err = MergeAB(shards, at)
	case Xproc:
		var shards []XprocShard
		for _, d := range docs {
			shards = append(shards, XprocShard{File: d.File, Report: d.Xproc})
		}
		m.Xproc, err = MergeXproc(shards, at)
	default:
		return nil, fmt.Errorf("merge has no rule for %s", m.Kind.What())
	}
	if err != nil {
		return nil, err
	}
	return m, nil
}

// Parts writes one line per shard of a merged document: its index, what
// it measured, on which host, from which file.
func Parts(w io.Writer, m *Doc) {
	sh := m.Shard()
	for _, p := range sh.Parts {
		switch m.Kind {
		case Run:
			fmt.Fprintf(w, "shard %d/%d: %s, %d benches on %s, count cost %.1f s (%s)\n", p.Index, sh.Total, p.Status, len(p.Benches), p.Host.Hostname, p.CountCostSeconds, p.File)
		case AB:
			fmt.Fprintf(w, "shard %d/%d: %d benches on %s (%s)\n", p.Index, sh.Total, len(p.Benches), p.Host.Hostname, p.File)
		default:
			fmt.Fprintf(w, "shard %d/%d: %d pairs on %s (%s)\n", p.Index, sh.Total, len(p.Benches), p.Host.Hostname, p.File)
		}
	}
}
