// What the verify verb prints of the images it rebuilt.

package evidence

import (
	"fmt"
	"io"
	"text/tabwriter"
	"time"
)

// WriteVerify is verify's table on out and its tally on log (took: how
// long the rebuild took); an image that differs is ErrDiffer.
func WriteVerify(out, log io.Writer, rows []Row, took time.Duration) error {
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "image\trecorded\trebuilt\tequal")
	equal := 0
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", r.Image, r.Recorded, r.Rebuilt, yesNo(r.Equal))
		if r.Equal {
			equal++
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, r := range rows {
		for _, w := range r.Why {
			fmt.Fprintf(out, "%s: %s\n", r.Image, w)
		}
	}
	fmt.Fprintf(log, "verify: %d of %d images rebuilt to the recorded digest in %s\n", equal, len(rows), took.Round(time.Second))
	if equal != len(rows) {
		return ErrDiffer
	}
	return nil
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "NO"
}
