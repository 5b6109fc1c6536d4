package report

import "github.com/hale-lang/halebench/orchestrator/termtext"

// clean is text a report stores, made safe to print: a report is a file
// anyone may hand to `show`, and much of it (names, checks, details,
// stderr, versions) was written by a bench program or a toolchain. No
// escape sequence reaches a terminal and no CI runner obeys a line of it.
func clean(s string) string { return termtext.Clean(s) }

// table is one category's benches that the report holds, in the
// catalogue's order: one table of the grid or the snapshot.
type table struct {
	title string
	rows  []*Bench
}

// tables are the report's categories that hold a bench of the report.
func tables(r *Report) []table {
	byName := map[string]*Bench{}
	for _, b := range r.Benches {
		byName[b.Name] = b
	}
	var out []table
	for _, c := range r.Categories {
		t := table{title: clean(c.Title)}
		for _, n := range c.Benches {
			if b := byName[n]; b != nil {
				t.rows = append(t.rows, b)
			}
		}
		if len(t.rows) > 0 {
			out = append(out, t)
		}
	}
	return out
}
