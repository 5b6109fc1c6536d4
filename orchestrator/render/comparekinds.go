package render

import (
	"fmt"
	"math"
	"slices"

	"github.com/hale-lang/halebench/orchestrator/judge"
	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/result"
	"github.com/hale-lang/halebench/orchestrator/stats"
)

// Ratios are an ab row's two B/A ratios: each result's Hodges–Lehmann
// estimate and its interval, as the result stored them. An ab result's
// ratio is measured within one run, both sides on one machine in the same
// rounds, so two results' ratios compare where their medians would mix
// the machines and their loads into the change.
type Ratios struct {
	Old     float64 `json:"old"`
	New     float64 `json:"new"`
	OldLow  float64 `json:"old_low"`
	OldHigh float64 `json:"old_high"`
	NewLow  float64 `json:"new_low"`
	NewHigh float64 `json:"new_high"`
}

// readPair reads both documents compare is given, refusing a pair of two
// kinds by both kinds' names.
func readPair(oldPath, newPath string) (*result.Doc, *result.Doc, error) {
	od, err := result.Read(oldPath)
	if err != nil {
		return nil, nil, err
	}
	nd, err := result.Read(newPath)
	if err != nil {
		return nil, nil, err
	}
	if od.Kind != nd.Kind {
		return nil, nil, fmt.Errorf("compare: %s is %s (%s) and %s is %s (%s): compare sets two documents of one kind side by side (two run reports, two ab results or two xproc reports)",
			oldPath, od.Kind.What(), od.Kind.Schema(), newPath, nd.Kind.What(), nd.Kind.Schema())
	}
	return od, nd, nil
}

// compareKinds is compare's table of two ab results or two xproc reports.
// An xproc report holds times only; an ab result the metric its verdicts
// were on (ab --metric), which both must share and --metric must name: any
// other metric is refused for what the documents hold.
func compareKinds(od, nd *result.Doc, lang string, m *judge.Metric, alpha float64) (Table, error) {
	if od.Kind == result.Xproc {
		switch {
		case m != judge.MetricTime:
			return Table{}, fmt.Errorf("compare: --metric=%s: %s and %s are %ss, which hold time samples only; compare them by time (drop --metric)", m.Name, od.File, nd.File, od.Kind.What())
		case lang != "":
			return Table{}, fmt.Errorf("compare: --lang=%s: an xproc report's rows are each a language's pair, and compare sets every row side by side; drop --lang", lang)
		}
		return Xprocs(od.Xproc, nd.Xproc, alpha), nil
	}
	switch om, nm := abMetric(od.AB), abMetric(nd.AB); {
	case om != nm:
		return Table{}, fmt.Errorf("compare: %s holds ratios of %s and %s of %s: compare two ab results of one metric", od.File, om, nd.File, nm)
	case om != m.Name:
		return Table{}, fmt.Errorf("compare: --metric=%s: %s and %s hold ratios of %s; give --metric=%s", m.Name, od.File, nd.File, om, om)
	}
	if lang != "" {
		held := union(abLangs(od.AB), abLangs(nd.AB))
		if !slices.Contains(held, lang) {
			return Table{}, fmt.Errorf("compare: --lang=%s: neither ab result compared it; give one of %s", lang, orNone(held))
		}
	}
	return ABs(od.AB, nd.AB, lang, m, alpha), nil
}

// abMetric is the metric an ab result's verdicts were on: time where it
// names none (stored before ab named its metric).
func abMetric(r *report.Result) string {
	if r.Metric == "" {
		return judge.MetricTime.Name
	}
	return r.Metric
}

func abLangs(r *report.Result) []string {
	var out []string
	for _, b := range r.Benches {
		out = append(out, b.Lang)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// kindDoc is what the head of a table says of one document of a kind:
// when it was made, on which host, from which sources.
type kindDoc struct{ at, host, sources string }

// kindTable is the head of a table of two documents of kind k compared by
// metric m: the run stamps, the hosts and the warnings both kinds share.
func kindTable(k result.Kind, noun, lang string, m *judge.Metric, alpha float64, old, cur kindDoc) Table {
	t := Table{Schema: CompareSchema, Kind: CompareKind, Compares: string(k), Lang: lang, Alpha: alpha, OldRun: old.at, NewRun: cur.at,
		OldHost: old.host, NewHost: cur.host, metric: m, Metric: m.Name, Unit: m.Unit}
	if old.host != cur.host {
		what := "medians"
		if k == result.AB {
			what = "ratios (each measured on one machine) less so than medians would"
		}
		t.Warnings = append(t.Warnings, fmt.Sprintf("the %ss come from different hosts (%s; %s): differences mix code and machine, the %s", noun, old.host, cur.host, what))
	}
	if w, ok := sameSources(noun+"s", old.sources, cur.sources); ok {
		t.Warnings = append(t.Warnings, w)
	}
	return t
}

// ABs compares two ab results of metric m (the one their verdicts were
// on) bench by bench in lang ("": the new result's subject): the B/A ratio
// of each (old, new, their change), and, where both stored their paired
// samples, a two-sided Mann–Whitney test of the rounds' log-ratios
// ln(B/A): slower (higher, beyond time) where B lost ground against A,
// faster (lower) where it gained, ~ where the change is not significant.
func ABs(old, cur *report.Result, lang string, m *judge.Metric, alpha float64) Table {
	if lang == "" {
		lang = cur.Subject
	}
	t := kindTable(result.AB, "ab result", lang, m, alpha, kindDoc{old.GeneratedAt, hostLine(old.Host), old.SourcesDigest}, kindDoc{cur.GeneratedAt, hostLine(cur.Host), cur.SourcesDigest})
	oldBy := map[string]*report.ABBench{}
	for i := range old.Benches {
		if b := &old.Benches[i]; b.Lang == lang {
			oldBy[b.Name] = b
		}
	}
	seen := map[string]bool{}
	for i := range cur.Benches {
		b := &cur.Benches[i]
		if b.Lang != lang || seen[b.Name] {
			continue
		}
		seen[b.Name] = true
		t.Rows = append(t.Rows, abRow(b.Name, oldBy[b.Name], b, alpha, t.metric == judge.MetricTime))
	}
	for i := range old.Benches {
		if b := &old.Benches[i]; b.Lang == lang && !seen[b.Name] {
			seen[b.Name] = true
			t.Rows = append(t.Rows, Row{Bench: b.Name, Verdict: OnlyOld})
		}
	}
	t.Geomean = ratioGeomean(t.Rows)
	return t
}

// abRow compares one bench's two ratios: slower or faster where the
// metric is time, higher or lower for another.
func abRow(name string, o, n *report.ABBench, alpha float64, byTime bool) Row {
	r := Row{Bench: name}
	switch {
	case o == nil:
		r.Verdict = OnlyNew
		return r
	case o.Ratio <= 0 && n.Ratio <= 0:
		r.Verdict = fmt.Sprintf("no ratio in either result (old %s, new %s)", o.Verdict, n.Verdict)
		return r
	case o.Ratio <= 0:
		r.Verdict = fmt.Sprintf("no ratio in the old result (%s)", o.Verdict)
		return r
	case n.Ratio <= 0:
		r.Verdict = fmt.Sprintf("no ratio in the new result (%s)", n.Verdict)
		return r
	}
	r.Ratios = &Ratios{Old: o.Ratio, New: n.Ratio, OldLow: o.RatioLow, OldHigh: o.RatioHigh, NewLow: n.RatioLow, NewHigh: n.RatioHigh}
	d := (n.Ratio/o.Ratio - 1) * 100
	r.DeltaPct = &d
	ol, nl := logRatios(o), logRatios(n)
	r.OldN, r.NewN = len(ol), len(nl)
	if len(ol) == 0 || len(nl) == 0 {
		r.Verdict = "no paired samples stored: the ratios are shown, not tested"
		return r
	}
	if byTime {
		judgeShift(&r, ol, nl, alpha, "slower", "faster")
	} else {
		judgeShift(&r, ol, nl, alpha, "higher", "lower")
	}
	return r
}

// logRatios are a bench's rounds as ln(B/A), scaled to integers for the
// rank test (ranks do not change under the scaling); rounds with a side
// not positive are left out.
func logRatios(b *report.ABBench) []int64 {
	var out []int64
	for i := range min(len(b.SamplesA), len(b.SamplesB)) {
		if a, bb := b.SamplesA[i], b.SamplesB[i]; a > 0 && bb > 0 {
			out = append(out, int64(math.Round(math.Log(float64(bb)/float64(a))*1e9)))
		}
	}
	return out
}

// judgeShift sets a row's p, least p and verdict by the run compare's
// rule: up or down where the two-sided Mann–Whitney p is below alpha (the
// direction the delta's), ~ otherwise, marked too few where no data of
// these sizes could have been.
func judgeShift(r *Row, old, cur []int64, alpha float64, up, down string) {
	p := math.Min(1, 2*math.Min(stats.MannWhitneyGreater(cur, old), stats.MannWhitneyGreater(old, cur)))
	minP := stats.MannWhitneyMinP(len(old), len(cur))
	r.P, r.MinP = &p, &minP
	switch {
	case p >= alpha:
		r.Verdict = "~"
		r.TooFewSamples = minP >= alpha
	case *r.DeltaPct > 0:
		r.Verdict = up
	default:
		r.Verdict = down
	}
}

// ratioGeomean is the geometric mean of the old and new ratios over the
// rows with both.
func ratioGeomean(rows []Row) *Geomean {
	return geomeanOf(rows, func(r Row) (float64, float64, bool) {
		if r.Ratios == nil {
			return 0, 0, false
		}
		return r.Ratios.Old, r.Ratios.New, true
	})
}

// Xprocs compares two xproc reports row by row (each variant's pairs):
// the reader's median time, old and new, and the run compare's test over
// the stored runs' times.
func Xprocs(old, cur *report.XprocReport, alpha float64) Table {
	t := kindTable(result.Xproc, "xproc report", "", judge.MetricTime, alpha, kindDoc{old.GeneratedAt, hostLine(old.Host), old.SourcesDigest}, kindDoc{cur.GeneratedAt, hostLine(cur.Host), cur.SourcesDigest})
	for _, v := range []string{"small", "large"} {
		oldBy := map[string]*report.XprocResult{}
		for _, r := range old.Variants[v] {
			if r != nil {
				oldBy[r.Row] = r
			}
		}
		seen := map[string]bool{}
		for _, r := range cur.Variants[v] {
			if r == nil || seen[r.Row] {
				continue
			}
			seen[r.Row] = true
			t.Rows = append(t.Rows, xprocPairRow(v+"/"+r.Row, oldBy[r.Row], r, alpha))
		}
		for _, r := range old.Variants[v] {
			if r != nil && !seen[r.Row] {
				seen[r.Row] = true
				t.Rows = append(t.Rows, Row{Bench: v + "/" + r.Row, Verdict: OnlyOld})
			}
		}
	}
	t.Geomean = geomean(t.Rows)
	return t
}

// xprocPairRow compares one pair's times.
func xprocPairRow(name string, o, n *report.XprocResult, alpha float64) Row {
	r := Row{Bench: name}
	usableRow := func(x *report.XprocResult) bool {
		return x.Status == outcome.OK && x.ElapsedNsMedian > 0 && len(x.ElapsedNsSamples) > 0
	}
	switch {
	case o == nil:
		r.Verdict = OnlyNew
		return r
	case !usableRow(o) && !usableRow(n):
		r.Verdict = fmt.Sprintf("no samples in either report (old %s, new %s)", o.Status, n.Status)
		return r
	case !usableRow(o):
		r.Verdict = fmt.Sprintf("no samples in the old report (%s)", o.Status)
		return r
	case !usableRow(n):
		r.Verdict = fmt.Sprintf("no samples in the new report (%s)", n.Status)
		return r
	}
	r.Old, r.New = o.ElapsedNsMedian, n.ElapsedNsMedian
	r.OldN, r.NewN = len(o.ElapsedNsSamples), len(n.ElapsedNsSamples)
	d := (float64(r.New)/float64(r.Old) - 1) * 100
	r.DeltaPct = &d
	judgeShift(&r, o.ElapsedNsSamples, n.ElapsedNsSamples, alpha, "slower", "faster")
	return r
}
