package judge

import "math"

// figures is one bench's new figures as the tests give them; recorded
// writes them as the metrics' Record does (metric.Record): every time and
// memory key from the runs.
type figures struct {
	Kind                           string
	ElapsedNs, MaxRSSKB, MemPeakKB int64
	Noise, DriftSigma, DriftRange  float64
	Runs                           int
	RunMedians, Samples            []int64
	MemSource                      string
	MemKB                          int64
	MemBand                        float64
	MemSamples                     []int64
}

func recorded(m map[string]figures) map[string]Measured {
	out := map[string]Measured{}
	for name, v := range m {
		out[name] = Measured{Kind: v.Kind, Record: func(e *Entry) {
			e.ElapsedNs, e.MaxRSSKB, e.MemPeakKB = v.ElapsedNs, v.MaxRSSKB, v.MemPeakKB
			if v.Runs > 0 {
				noise, sigma, rng := math.Min(v.Noise, MaxRelSigma), math.Min(v.DriftSigma, MaxRelSigma), math.Min(v.DriftRange, MaxRelRange)
				e.Noise, e.DriftSigma, e.DriftRange = &noise, &sigma, &rng
				e.Runs, e.RunMedians, e.Samples = v.Runs, v.RunMedians, v.Samples
			} else {
				e.Samples = nil
			}
			if v.MemKB > 0 {
				mb := math.Max(v.MemBand, MemBandFloor)
				e.MemSource, e.MemKB, e.MemTolerance, e.MemSamples = v.MemSource, v.MemKB, &mb, v.MemSamples
			}
		}}
	}
	return out
}
