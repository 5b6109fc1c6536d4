package judge

import (
	"fmt"
	"github.com/hale-lang/halebench/images/sampler/wire"
	"math"

	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/stats"
)

// Time is each sample's elapsed time, gated by the statistical gate.
var MetricTime = &Metric{
	Name: "time", Unit: "ns",
	Of:        wire.ElapsedNs,
	Baseline:  timeBase,
	Fields:    TimeFields,
	Record:    timeRecord,
	Judge:     timeRule,
	Regressed: outcome.Regression,
	Verdict:   "time_verdict",
	Format:    FormatNs,
	Headline:  true,
	Compared:  true,
}

// timeRecord writes the median of every run's samples, the samples, each
// run's median, the within-run noise (the runs' median relative standard
// error) and the between-run drift of the run medians; its band is
// settled once the file's host drift is known (TimeFields). A
// wildly unstable bench can measure a σ over 100 %: it is kept at the
// ceiling a file may hold, which gates the same.
func timeRecord(m *Metric, e *Entry, runs []MetricCell) {
	var all, medians []int64
	var noises []float64
	for _, r := range runs {
		el := m.Read(r)
		medians = append(medians, el.Median)
		all = append(all, el.Samples...)
		noises = append(noises, stats.RelSEMedian(el.Samples))
	}
	sigma, rng := stats.Drift(medians)
	noise := math.Min(stats.MedianFloat(noises), MaxRelSigma)
	sigma, rng = math.Min(sigma, MaxRelSigma), math.Min(rng, MaxRelRange)
	e.ElapsedNs, e.Samples, e.Runs, e.RunMedians = stats.Median(all), all, len(runs), medians
	e.Noise, e.DriftSigma, e.DriftRange = &noise, &sigma, &rng
}

func timeBase(e *Entry) (Base, bool) {
	if e == nil || e.ElapsedNs <= 0 {
		return Base{}, false
	}
	return Base{Median: e.ElapsedNs, Samples: e.Samples, Band: e.Tol(), BandFrom: e.TolSource(), Drift: e.Drift(), Noise: deref(e.Noise)}, true
}

// timeRule: a regression needs both a median over the band and a
// significant shift (one-sided Mann–Whitney against the baseline's
// samples, p < alpha, and, where the baseline measured between-run drift,
// a shift beyond it: the log ratio over √(drift² + both runs' noise²) as a
// normal z, drift being the entry's drift_sigma floored by its file's host
// drift); a median over the band that is not significant, or within the
// band in a run too noisy to resolve it, is inconclusive; faster than the
// band, significantly, is improved. A base without samples (the seed's) is
// judged on the band and this run's own 95% interval of its median: over
// the band only when the whole interval is.
func timeRule(c Values, b Base, alpha float64) MetricCheck {
	v := MetricCheck{Median: c.Median, Baseline: b.Median, Band: b.Band, BandFrom: b.BandFrom, Noise: stats.RelSEMedian(c.Samples)}
	v.Ratio = float64(c.Median) / float64(b.Median)
	var pSlow, pFast *float64
	if len(b.Samples) > 0 && len(c.Samples) > 0 {
		ps, pf := stats.MannWhitneyGreater(c.Samples, b.Samples), stats.MannWhitneyGreater(b.Samples, c.Samples)
		// Samples within one run are not independent of the run: a host
		// whose medians move between runs (drift_sigma) moves all of a
		// run's samples together. A shift must also stand out from that
		// between-run movement: the larger p of the two tests counts.
		if b.Drift > 0 {
			sd := math.Sqrt(sq(b.Drift) + sq(v.Noise) + sq(b.Noise))
			z := math.Log(v.Ratio) / sd
			ps = math.Max(ps, 0.5*math.Erfc(z/math.Sqrt2))
			pf = math.Max(pf, 0.5*math.Erfc(-z/math.Sqrt2))
		}
		pSlow, pFast = &ps, &pf
	}
	// The run's own 95% interval of the ratio, from its noise.
	lo, hi := v.Ratio*(1-1.96*v.Noise), v.Ratio*(1+1.96*v.Noise)
	switch {
	case v.Ratio > 1+v.Band && pSlow != nil:
		v.P = pSlow
		if *pSlow < alpha {
			v.Status, v.Why = outcome.Regression, fmt.Sprintf("median %s the baseline, over its %s band, p = %.2g", Pct(v.Ratio), PctBand(v.Band), *pSlow)
		} else {
			v.Status, v.Why = outcome.Inconclusive, fmt.Sprintf("median %s the baseline, over its %s band, but not significant (p = %.2g ≥ %.2g)", Pct(v.Ratio), PctBand(v.Band), *pSlow, alpha)
		}
	case v.Ratio > 1+v.Band && lo > 1+v.Band:
		v.Status, v.Why = outcome.Regression, fmt.Sprintf("median %s the baseline, over its %s band by more than this run's ±%.1f%% (no baseline samples to test)", Pct(v.Ratio), PctBand(v.Band), 196*v.Noise)
	case v.Ratio > 1+v.Band:
		v.Status, v.Why = outcome.Inconclusive, fmt.Sprintf("median %s the baseline, over its %s band, but this run's ±%.1f%% reaches back inside it (no baseline samples to test)", Pct(v.Ratio), PctBand(v.Band), 196*v.Noise)
	case v.Ratio < 1-v.Band && ((pFast != nil && *pFast < alpha) || (pFast == nil && hi < 1-v.Band)):
		v.Status, v.P, v.Why = outcome.Improved, pFast, fmt.Sprintf("median %s the baseline, past its %s band", Pct(v.Ratio), PctBand(v.Band))
	case v.Ratio < 1-v.Band:
		v.Status = outcome.OK
	case !resolves(v.Noise, v.Band):
		v.Status, v.Why = outcome.Inconclusive, fmt.Sprintf("this run's median is known to ±%.1f%%, wider than the %s band", 196*v.Noise, PctBand(v.Band))
	default:
		v.Status = outcome.OK
	}
	return v
}

// resolves says whether a run whose median has relative standard error
// noise can tell a move of band from nothing: its 95% half-width fits.
func resolves(noise, band float64) bool { return 1.96*noise <= band }

func sq(x float64) float64 { return x * x }

func deref(p *float64) float64 {
	if p == nil {
		return 0
	}
	return *p
}

// Pct says a ratio as a move: "+12.0% over", "3.5% under".
func Pct(ratio float64) string {
	if ratio >= 1 {
		return fmt.Sprintf("+%.1f%% over", (ratio-1)*100)
	}
	return fmt.Sprintf("%.1f%% under", (1-ratio)*100)
}

// PctBand says a relative band in percent.
func PctBand(b float64) string { return fmt.Sprintf("%.1f%%", b*100) }
