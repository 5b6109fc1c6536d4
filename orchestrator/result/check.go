package result

import (
	"errors"
	"fmt"

	"github.com/hale-lang/halebench/orchestrator/report"
)

// MaxRows bounds a document's rows (benches, pairs): no suite is that
// large, and a renderer need not guard against a document that claims to
// be.
const MaxRows = 100000

// check refuses what every reader would otherwise have to guard against:
// null rows, more rows than any suite has, and a sources digest that is
// no digest (every kind records one; a document stored before ab and
// xproc did has none).
func (d *Doc) check() error {
	if s := d.sourcesDigest(); s != "" {
		if err := report.CheckDigest("sources_digest", s); err != nil {
			return err
		}
	}
	switch d.Kind {
	case Run:
		if err := d.Run.Halebench.Check(); err != nil {
			return err
		}
		if len(d.Run.Benches) > MaxRows {
			return fmt.Errorf("%d benches; no suite has over %d", len(d.Run.Benches), MaxRows)
		}
		for _, b := range d.Run.Benches {
			if b == nil {
				return errors.New("a bench entry is null")
			}
		}
	case AB:
		if err := d.AB.Halebench.Check(); err != nil {
			return err
		}
		if len(d.AB.Benches) > MaxRows {
			return fmt.Errorf("%d benches; no suite has over %d", len(d.AB.Benches), MaxRows)
		}
	case Xproc:
		if err := d.Xproc.Halebench.Check(); err != nil {
			return err
		}
		for v, rows := range d.Xproc.Variants {
			if len(rows) > MaxRows {
				return fmt.Errorf("%d %s rows; xproc has far fewer", len(rows), v)
			}
			for _, r := range rows {
				if r == nil {
					return fmt.Errorf("a %s row is null", v)
				}
			}
		}
	}
	return nil
}

// sourcesDigest is the digest of the sources the document measured,
// whatever its kind.
func (d *Doc) sourcesDigest() string {
	switch d.Kind {
	case Run:
		return d.Run.SourcesDigest
	case AB:
		return d.AB.SourcesDigest
	case Xproc:
		return d.Xproc.SourcesDigest
	}
	return ""
}
