package xproc

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"text/tabwriter"
	"time"

	"github.com/hale-lang/halebench/orchestrator/imagebuild"
	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/status"
	"github.com/hale-lang/halebench/orchestrator/termtext"
)

// Report is one `halebench xproc` run.
type Report struct {
	Schema      string                           `json:"schema"`
	GeneratedAt string                           `json:"generated_at"`
	RunID       string                           `json:"run_id"`
	Status      status.Status                    `json:"status"`
	Iters       int                              `json:"iters"`
	Subject     string                           `json:"subject"`
	Host        report.Host                      `json:"host"`
	Base        imagebuild.Base                  `json:"base_image"`
	Images      map[string]imagebuild.Toolchain  `json:"images"`
	BenchImages map[string]imagebuild.BenchImage `json:"bench_images"`
	Sharing     string                           `json:"shm_sharing"`
	Notes       []string                         `json:"notes"`
	Variants    map[string][]*Result             `json:"variants"`
}

// Schema names the xproc report format.
const Schema = "halebench-xproc/1"

// Sharing says how the two containers share /dev/shm.
const Sharing = "IPC namespace: the reader's container is IpcMode=shareable, the producer's joins it (container:<reader>); POSIX shm lives in that namespace's /dev/shm (ShmSize 256 MiB), so no host path is mounted and the segment goes away with the reader's container"

// Notes carried into every report.
var Notes = []string{
	"Node † has no cross-process shared memory in its standard library: its row is worker_threads + SharedArrayBuffer in one process and one container, not comparable to the cross-process rows.",
	"Hale's large variant carries 512 scalar Int fields, not a [Int; 512] array field: hale lays a fixed-array field out-of-line (an arena pointer), so it cannot cross a zero-copy shm slot (the seed suite's caveat).",
	"Hale's ring has its own layout and a literal name (/halebench_xproc_<variant>); it pairs only with the Hale producer.",
	"Timed on the reader's clock alone, from the first record seen to the last consumed; the producer's start-up is outside the timed region.",
}

// WriteJSON writes the report under dir.
func WriteJSON(r *Report, dir string) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	t, _ := time.Parse(time.RFC3339Nano, r.GeneratedAt)
	path := filepath.Join(dir, fmt.Sprintf("xproc-%s.json", t.UTC().Format("20060102T150405Z")))
	return path, report.WriteFile(path, r)
}

// Tables writes the seed's two xproc tables.
func Tables(w io.Writer, r *Report) {
	fmt.Fprintf(w, "halebench xproc %s — host: %s, %d CPUs, kernel %s; median of %d runs; privilege %s\n",
		termtext.Clean(r.GeneratedAt), termtext.Clean(r.Host.CPUModel), r.Host.LogicalCPUs, termtext.Clean(r.Host.Kernel), r.Iters, termtext.Clean(r.Host.Privilege.String()))
	for _, v := range []string{"small", "large"} {
		rows := r.Variants[v]
		if len(rows) == 0 {
			continue
		}
		fmt.Fprintf(w, "\n%s — %s\n\n", v, Variants[v])
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "language\tmedian\tratio_vs_hale\treader peak\tproducer peak")
		for _, res := range rows {
			med, ratio := termtext.Clean(string(res.Status)), "—"
			if res.Status == status.OK {
				med = report.FormatNs(res.ElapsedNsMedian)
				if res.RatioVsHale != nil {
					ratio = report.FormatRatio(*res.RatioVsHale) + "×"
				}
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", termtext.Clean(res.Title), med, ratio, kb(res.ReaderMemPeakKB), kb(res.ProdMemPeakKB))
		}
		tw.Flush()
	}
	fmt.Fprintln(w)
	for _, n := range r.Notes {
		fmt.Fprintln(w, "- "+termtext.Clean(n))
	}
}

func kb(p *int64) string {
	if p == nil {
		return "—"
	}
	return fmt.Sprintf("%.1f MiB", float64(*p)/1024)
}
