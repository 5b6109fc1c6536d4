package judge

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// FormatNs writes a duration in its most readable unit with three
// significant figures: 1.59 ms, 19.7 ms, 196 µs, 3.67 s.
func FormatNs(ns int64) string {
	v := float64(ns)
	unit := "ns"
	if ns < 1000 {
		return strconv.FormatInt(ns, 10) + " ns"
	}
	switch {
	case v >= 1e9:
		v, unit = v/1e9, "s"
	case v >= 1e6:
		v, unit = v/1e6, "ms"
	case v >= 1e3:
		v, unit = v/1e3, "µs"
	}
	return Sig3(v) + " " + unit
}

// Sig3 writes v with three significant figures (12.4, 0.403, 2303).
func Sig3(v float64) string {
	if v == 0 {
		return "0"
	}
	d := 2 - int(math.Floor(math.Log10(math.Abs(v))))
	if d < 0 {
		d = 0
	}
	s := strconv.FormatFloat(v, 'f', d, 64)
	// Rounding can carry into a new digit (9.996 -> "10.00"): redo.
	if d > 0 && len(strings.TrimLeft(strings.Replace(s, ".", "", 1), "0")) > 3 {
		s = strconv.FormatFloat(v, 'f', d-1, 64)
	}
	return s
}

// FormatCount writes an instruction count with four significant figures
// and a unit: 140.0M, 800.1k, 3.270G (the report keeps the exact count).
func FormatCount(n uint64) string {
	v := float64(n)
	for _, u := range []struct {
		div  float64
		unit string
	}{{1e9, "G"}, {1e6, "M"}, {1e3, "k"}} {
		if v >= u.div {
			v /= u.div
			d := 3 - int(math.Floor(math.Log10(v)))
			if d < 0 {
				d = 0
			}
			return strconv.FormatFloat(v, 'f', d, 64) + u.unit
		}
	}
	return strconv.FormatUint(n, 10)
}

// FormatKiB writes a memory figure in KiB, or MiB from 10 MiB up.
func FormatKiB(kb int64) string {
	if kb >= 10*1024 {
		return fmt.Sprintf("%.1f MiB", float64(kb)/1024)
	}
	return fmt.Sprintf("%d KiB", kb)
}
