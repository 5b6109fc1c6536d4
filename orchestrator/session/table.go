// What the images verb prints of the images it made.

package session

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/hale-lang/halebench/orchestrator/image"
	"github.com/hale-lang/halebench/orchestrator/termtext"
)

// WriteTable is the images verb's table on w, then each language's notes.
// A version, a reason or a note holds what a toolchain, a build or git
// printed: each goes through termtext.
func (built *Images) WriteTable(w io.Writer) error {
	l := termtext.Line
	var notes []string
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "language\tstatus\ttoolchain image\tversion\tbench image\tsteps run\tsteps cached")
	for _, name := range built.Order {
		tc := built.Toolchains[name]
		bi, ok := built.Benches[name]
		switch {
		case tc.Status != image.Available:
			fmt.Fprintf(tw, "%s\t%s\t-\t-\t-\t-\t-\n", l(name), l(string(tc.Status)))
			notes = append(notes, fmt.Sprintf("%s: %s (%s)", name, tc.Status, tc.Reason))
			continue
		case !ok && built.BenchFailed[name] != "":
			fmt.Fprintf(tw, "%s\t%s\t%s@%s\t%s\t%s\t%d\t%d\n", l(name), l(string(tc.Status)), l(tc.Ref), l(tc.Digest), l(tc.Version), "build_failed", tc.Executed, tc.Cached)
			notes = append(notes, built.BenchFailed[name])
		case !ok:
			fmt.Fprintf(tw, "%s\t%s\t%s@%s\t%s\t-\t%d\t%d\n", l(name), l(string(tc.Status)), l(tc.Ref), l(tc.Digest), l(tc.Version), tc.Executed, tc.Cached)
		default:
			fmt.Fprintf(tw, "%s\t%s\t%s@%s\t%s\t%s@%s\t%d\t%d\n", l(name), l(string(tc.Status)), l(tc.Ref), l(tc.Digest), l(tc.Version), l(bi.Ref), l(bi.Digest), tc.Executed+bi.Executed, tc.Cached+bi.Cached)
		}
		notes = append(notes, tc.Notes()...)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, n := range notes {
		if _, err := fmt.Fprintln(w, termtext.Clean(n)); err != nil {
			return err
		}
	}
	return nil
}
