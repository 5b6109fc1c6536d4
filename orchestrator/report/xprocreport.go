package report

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"text/tabwriter"
	"time"

	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/stamp"
	"github.com/hale-lang/halebench/orchestrator/stats"
	"github.com/hale-lang/halebench/orchestrator/termtext"
)

// Report is one `halebench xproc` run, with the evidence a run report
// carries: the host and privilege, every image with its digest and
// provenance, the subject's build.
type XprocReport struct {
	// Kind is the envelope's kind, "xproc" (package result).
	Kind        string                `json:"kind,omitempty"`
	Schema      string                `json:"schema"`
	Halebench   *stamp.Tool           `json:"halebench,omitempty"` // which halebench wrote it
	GeneratedAt string                `json:"generated_at"`
	RunID       string                `json:"run_id"`
	Status      outcome.Status        `json:"status"`
	Iters       int                   `json:"iters"`
	Subject     string                `json:"subject"`
	Host        Host                  `json:"host"`
	Base        Base                  `json:"base_image"`
	Images      map[string]Toolchain  `json:"images"`
	BenchImages map[string]BenchImage `json:"bench_images"`
	// SubjectBuild is how the subject's toolchain was built (hale's
	// commit, source tree or image), when halebench built it.
	SubjectBuild *HaleBuild `json:"subject_build,omitempty"`
	// SourcesDigest is the digest of the xproc programs of the languages
	// measured (plan.Digest; absent in a report stored before xproc
	// recorded it).
	SourcesDigest string `json:"sources_digest,omitempty"`
	// Shard is the partition and this report's part (xproc --shard=K/N).
	Shard    *Shard                    `json:"shard,omitempty"`
	Sharing  string                    `json:"shm_sharing"`
	Notes    []string                  `json:"notes"`
	Variants map[string][]*XprocResult `json:"variants"`
	// Samplers are the sampler containers the pairs ran in, as a run
	// report lists its own: per language a reader and a producer.
	Samplers []Sampler `json:"sampler_containers,omitempty"`
}

// Schema names the xproc report format.
const XprocSchema = "halebench-xproc/1"

// Kind is an xproc report's kind in the result envelope.
const XprocKind = "xproc"

// Sharing says how the two containers share /dev/shm.
const Sharing = "IPC namespace: the reader's sampler container shares its /dev/shm and IPC namespace (ShmSize 256 MiB), the producer's container joins it; both are kept for every run of the pair, the reader's sampler empties /dev/shm, /dev/mqueue and System V IPC before and after each run, and no host path is mounted"

// Notes carried into every report.
var Notes = []string{
	"Node † has no cross-process shared memory in its standard library: its row is worker_threads + SharedArrayBuffer in one process and one container, not comparable to the cross-process rows.",
	"Hale's large variant carries 512 scalar Int fields, not a [Int; 512] array field: hale lays a fixed-array field out-of-line (an arena pointer), so it cannot cross a zero-copy shm slot (the seed suite's caveat).",
	"Hale's ring has its own layout and a literal name (/halebench_xproc_<variant>); it pairs only with the Hale producer.",
	"Timed on the reader's clock alone, from the first record seen to the last consumed; the producer's start-up is outside the timed region.",
}

// WriteJSON writes the report under dir.
func WriteJSON(r *XprocReport, dir string) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	t, _ := time.Parse(time.RFC3339Nano, r.GeneratedAt)
	path := filepath.Join(dir, fmt.Sprintf("xproc-%s.json", t.UTC().Format("20060102T150405Z")))
	return path, WriteFile(path, r)
}

// ShowXproc puts what xproc measured on out — the two tables, or (asJSON)
// the JSON report; nothing when r is nil — and says on log where the
// report was written (path "": nowhere).
func ShowXproc(out, log io.Writer, r *XprocReport, path string, asJSON bool) {
	if r != nil {
		if asJSON {
			enc := json.NewEncoder(out)
			enc.SetIndent("", "  ")
			enc.Encode(r)
		} else {
			Tables(out, r)
		}
	}
	if path != "" {
		fmt.Fprintf(log, "report: %s\n", path)
	}
}

// Tables writes the seed's two xproc tables. A shard's tables mark its
// reference rows; a merged report's name each row's shard and each
// shard's host.
func Tables(w io.Writer, r *XprocReport) {
	fmt.Fprintf(w, "halebench xproc %s — host: %s, %d CPUs, kernel %s; median of %d runs; privilege %s\n",
		termtext.Clean(r.GeneratedAt), termtext.Clean(r.Host.CPUModel), r.Host.LogicalCPUs, termtext.Clean(r.Host.Kernel), r.Iters, termtext.Clean(r.Host.Privilege.String()))
	shardLines(w, r)
	for _, v := range []string{"small", "large"} {
		rows := r.Variants[v]
		if len(rows) == 0 {
			continue
		}
		fmt.Fprintf(w, "\n%s — %s\n\n", v, Variants[v])
		variantTable(w, rows, r.Merged())
	}
	fmt.Fprintln(w)
	for _, n := range r.Notes {
		fmt.Fprintln(w, "- "+termtext.Clean(n))
	}
}

// shardLines say which shard a report is, or, merged, each shard's host.
func shardLines(w io.Writer, r *XprocReport) {
	switch {
	case r.Merged():
		fmt.Fprintf(w, "merged from %d shards; each row's ratios are against the references its own shard measured\n", r.Shard.Total)
		for _, p := range r.Shard.Parts {
			fmt.Fprintf(w, "  shard %d/%d: host %s, %s, %d CPUs, kernel %s (%s)\n", p.Index, r.Shard.Total, termtext.Clean(p.Host.Hostname),
				termtext.Clean(p.Host.CPUModel), p.Host.LogicalCPUs, termtext.Clean(p.Host.Kernel), termtext.Clean(p.File))
		}
	case r.Shard != nil:
		fmt.Fprintf(w, "shard %d/%d: %d of the %d pairs; rows marked (reference) are measured for this shard's ratios only\n",
			r.Shard.Index, r.Shard.Total, len(r.Shard.Benches), len(r.Shard.SuiteBenches))
	}
}

// variantTable is one variant's table (merged: with each row's shard).
func variantTable(w io.Writer, rows []*XprocResult, merged bool) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	head := "language\tmedian\tratio_vs_hale\treader peak\tproducer peak"
	if merged {
		head += "\tshard"
	}
	fmt.Fprintln(tw, head)
	for _, res := range rows {
		med, ratio := termtext.Clean(string(res.Status)), "—"
		if res.Status == outcome.OK {
			med = FormatNs(res.ElapsedNsMedian)
			if res.RatioVsHale != nil {
				ratio = FormatRatio(*res.RatioVsHale) + "×"
			}
		}
		title := termtext.Clean(res.Title)
		if res.Reference {
			title += " (reference)"
		}
		line := fmt.Sprintf("%s\t%s\t%s\t%s\t%s", title, med, ratio, kb(res.ReaderMemPeakKB), kb(res.ProdMemPeakKB))
		if merged {
			line += fmt.Sprintf("\t%d", res.Shard)
		}
		fmt.Fprintln(tw, line)
	}
	tw.Flush()
}

func kb(p *int64) string {
	if p == nil {
		return "—"
	}
	return fmt.Sprintf("%.1f MiB", float64(*p)/1024)
}

// Variants and their records.
var Variants = map[string]string{
	"small": "N = 200 000 records of 16 bytes (two int64), dispatch-bound",
	"large": "N = 20 000 records of 4 096 bytes (512 int64), the reader sums every field",
}

// Side is what one container of a pair did.
type XprocSide struct {
	ContainerID   string         `json:"container_id"`
	CPUs          string         `json:"cpus"`
	CPUsEffective string         `json:"cpus_effective"`
	Status        outcome.Status `json:"status"`
	Detail        string         `json:"detail,omitempty"`
	MemPeakKB     *int64         `json:"mem_peak_kb,omitempty"`
	MaxRSSKB      int64          `json:"maxrss_kb,omitempty"`
}

// Run is one iteration of a pair.
type Run struct {
	Status    outcome.Status `json:"status"`
	Detail    string         `json:"detail,omitempty"`
	ElapsedNs int64          `json:"elapsed_ns,omitempty"`
	Check     string         `json:"check,omitempty"`
	Reader    XprocSide      `json:"reader"`
	Producer  *XprocSide     `json:"producer,omitempty"`
}

// Result is one row's figures.
type XprocResult struct {
	Row              string         `json:"row"`
	Title            string         `json:"title"`
	Status           outcome.Status `json:"status"`
	Detail           string         `json:"detail,omitempty"`
	Comparable       bool           `json:"comparable"`
	ElapsedNsMedian  int64          `json:"elapsed_ns_median,omitempty"`
	ElapsedNsSamples []int64        `json:"elapsed_ns_samples"`
	ElapsedNs        stats.Summary  `json:"elapsed_ns"`
	Check            string         `json:"check,omitempty"`
	RatioVsHale      *float64       `json:"ratio_vs_hale,omitempty"`
	RatioVsSubject   *float64       `json:"ratio_vs_subject,omitempty"`
	ReaderMemPeakKB  *int64         `json:"reader_mem_peak_kb_median,omitempty"`
	ProdMemPeakKB    *int64         `json:"producer_mem_peak_kb_median,omitempty"`
	Runs             []Run          `json:"runs"`
	// Reference marks, in a shard's report, a row of the subject's (or
	// Hale's) that this shard measured only as the denominator of its own
	// pairs' ratios: the row belongs to another shard's part.
	Reference bool `json:"reference,omitempty"`
	// Shard is, in a merged report, the shard (K) that measured the row:
	// its samples and ratios are that shard's, against the references it
	// measured on its own machine.
	Shard int `json:"shard,omitempty"`
}
