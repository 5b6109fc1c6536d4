// How a bisect's result is written: its steps' grid and its answer, or
// JSON.

package bisect

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/hale-lang/halebench/orchestrator/stamp"
	"github.com/hale-lang/halebench/orchestrator/termtext"
)

// WriteResult writes a result (on stdout): JSON, or the steps' grid and
// the answer. Subjects, notes and details (what authors and builds wrote)
// go through termtext, in the grid as in the JSON.
func WriteResult(w io.Writer, r *Result, asJSON bool) error {
	r = cleaned(r)
	if asJSON {
		r.Halebench = stamp.This() // the copy's: the writer of this JSON
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "commit\tsubject\tverdict\tbuild s\tvs the tested commit before\tthe one after vs it")
	for _, st := range r.Steps {
		subject := st.Commit.Subject
		if rs := []rune(subject); len(rs) > 50 {
			subject = string(rs[:47]) + "..."
		}
		id := termtext.ShortID(st.Commit.ID)
		fmt.Fprintf(tw, "%s\t%s\t%s\t%.0f\t%s\t%s\n", id, subject, st.Verdict, st.BuildSeconds, figures(st.VsBefore, st.VsGood), figures(st.VsAfter, st.VsBad))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "ends (bad over good): %s\n", Figures(r.Ends))
	for _, c := range r.Changes {
		fmt.Fprintf(w, "step: %s\n", DescribeChange(c))
	}
	_, err := fmt.Fprintf(w, "%s: %s; %d commits in range, %.0f s of builds\n", r.Outcome, r.Detail, r.Commits, r.BuildSeconds)
	return err
}

// figures is a step's ratios: the new fields, or an older result's.
func figures(m, old map[string]Ratio) string {
	if len(m) == 0 {
		m = old
	}
	return Figures(m)
}

// cleaned is a copy of r whose text is cleaned by termtext.
func cleaned(r *Result) *Result {
	c := *r
	commit := func(x Commit) Commit {
		return Commit{ID: termtext.Line(x.ID), Subject: termtext.Line(x.Subject)}
	}
	ptr := func(x *Commit) *Commit {
		if x == nil {
			return nil
		}
		y := commit(*x)
		return &y
	}
	c.Good, c.Bad, c.First, c.At, c.Detail = commit(r.Good), commit(r.Bad), ptr(r.First), ptr(r.At), termtext.Clean(r.Detail)
	c.Range = make([]Commit, len(r.Range))
	for i, x := range r.Range {
		c.Range[i] = commit(x)
	}
	c.Steps = make([]Step, len(r.Steps))
	for i, st := range r.Steps {
		st.Commit, st.Note = commit(st.Commit), termtext.Clean(st.Note)
		c.Steps[i] = st
	}
	c.Changes = make([]Change, len(r.Changes))
	for i, x := range r.Changes {
		x.Commit, x.Subject, x.Against, x.Note = termtext.Line(x.Commit), termtext.Line(x.Subject), termtext.Line(x.Against), termtext.Clean(x.Note)
		among := x.Among
		x.Among = nil
		for _, a := range among {
			x.Among = append(x.Among, commit(a))
		}
		c.Changes[i] = x
	}
	return &c
}
