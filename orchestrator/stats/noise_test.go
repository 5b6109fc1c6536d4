package stats

import (
	"math"
	"testing"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

func TestRelSEMedian(t *testing.T) {
	if RelSEMedian([]int64{100}) != 0 || RelSEMedian(nil) != 0 {
		t.Fatal("one sample has no spread to speak of")
	}
	if got := RelSEMedian([]int64{100, 100, 100, 100}); got != 0 {
		t.Fatalf("identical samples: %v", got)
	}
	// MAD of {90,95,100,105,110} around 100 is 5: 1.2533*1.4826*5/√5/100.
	want := 1.2533 * 1.4826 * 5 / math.Sqrt(5) / 100
	if got := RelSEMedian([]int64{110, 90, 100, 105, 95}); !near(got, want, 1e-9) {
		t.Fatalf("got %v, want %v", got, want)
	}
	// One wild outlier barely moves it.
	if got := RelSEMedian([]int64{110, 90, 100, 105, 95000}); got > 2*want {
		t.Fatalf("outlier: %v", got)
	}
}

func TestDriftAndBand(t *testing.T) {
	// Five runs whose medians span 100..110 around 104: range 10/104, σ = that / 2.326.
	sigma, r := Drift([]int64{100, 104, 110, 103, 105})
	if !near(r, 10.0/104, 1e-12) || !near(sigma, 10.0/104/2.326, 1e-12) {
		t.Fatalf("sigma %v range %v", sigma, r)
	}
	if s, r := Drift([]int64{7}); s != 0 || r != 0 {
		t.Fatal("one run has no drift")
	}
	if D2(3) != 1.693 || D2(7) != 2.704 || D2(1) != 0 {
		t.Fatal("d2 table")
	}
	cases := []struct{ noise, drift, want float64 }{
		{0.001, 0.002, 0.05}, // floor
		{0.02, 0.01, 0.08},   // 4 × noise
		{0.01, 0.03, 0.12},   // 4 × drift
		{0.2, 0.01, 0.35},    // ceiling
	}
	for _, c := range cases {
		if got := Band(c.noise, c.drift, 0.05, 0.35); !near(got, c.want, 1e-12) {
			t.Errorf("Band(%v, %v) = %v, want %v", c.noise, c.drift, got, c.want)
		}
	}
}

func TestMannWhitneyGreater(t *testing.T) {
	// Every a above every b, 5 and 5: one arrangement in C(10,5) = 252.
	a := []int64{20, 21, 22, 23, 24}
	b := []int64{10, 11, 12, 13, 14}
	if p := MannWhitneyGreater(a, b); !near(p, 1.0/252, 1e-12) {
		t.Fatalf("p = %v, want 1/252", p)
	}
	if p := MannWhitneyGreater(b, a); !near(p, 1, 1e-12) {
		t.Fatalf("reversed: p = %v, want 1", p)
	}
	// Interleaved, no shift: p near one half.
	if p := MannWhitneyGreater([]int64{1, 3, 5, 7, 9}, []int64{2, 4, 6, 8, 10}); p < 0.2 || p > 0.8 {
		t.Fatalf("no shift: p = %v", p)
	}
	// Small exact case by hand: a={2}, b={1,3}: U=1, P(U≥1) = 2/3.
	if p := MannWhitneyGreater([]int64{2}, []int64{1, 3}); !near(p, 2.0/3, 1e-12) {
		t.Fatalf("p = %v, want 2/3", p)
	}
	// With ties the normal approximation: a clear shift is still tiny.
	ta := []int64{20, 20, 21, 22, 22, 23, 24, 24, 25, 25}
	tb := []int64{10, 10, 11, 12, 12, 13, 13, 14, 14, 15}
	if p := MannWhitneyGreater(ta, tb); p > 0.001 {
		t.Fatalf("tied, shifted: p = %v", p)
	}
	if MannWhitneyGreater(nil, b) != 1 {
		t.Fatal("empty side")
	}
	// The exact and the approximate agree roughly on a mid-size case.
	x := []int64{11, 14, 15, 18, 22, 23, 25, 27}
	y := []int64{9, 10, 12, 13, 16, 17, 19, 20}
	exact := MannWhitneyGreater(x, y)
	x[0], y[0] = 12, 12 // one tie forces the approximation
	approx := MannWhitneyGreater(x, y)
	if math.Abs(exact-approx) > 0.02 {
		t.Fatalf("exact %v vs approx %v", exact, approx)
	}
}

// The smallest two-sided p is twice the exact tail of the largest U, as
// the exact test counts it, whatever the sizes; and the least n a side
// follows from it.
func TestMannWhitneyMinP(t *testing.T) {
	for _, c := range []struct {
		n1, n2 int
		want   float64
	}{
		{3, 3, 0.1},      // 2/20
		{4, 4, 2.0 / 70}, // below 0.05
		{3, 4, 2.0 / 35},
		{5, 5, 2.0 / 252},
		{1, 1, 1},
		{2, 2, 1.0 / 3},
		{0, 5, 1},
	} {
		if got := MannWhitneyMinP(c.n1, c.n2); !near(got, c.want, 1e-12) {
			t.Errorf("%d+%d: %v, want %v", c.n1, c.n2, got, c.want)
		}
		if c.n1 > 0 && c.n2 > 0 {
			if exact := math.Min(1, 2*exactUGreater(c.n1, c.n2, c.n1*c.n2)); !near(exact, c.want, 1e-12) {
				t.Errorf("%d+%d: the exact test's least p is %v", c.n1, c.n2, exact)
			}
		}
	}
	for _, c := range []struct {
		alpha float64
		want  int
	}{{0.05, 4}, {0.1, 4}, {0.11, 3}, {0.01, 5}, {0.001, 7}} {
		if got := MannWhitneyNeed(c.alpha); got != c.want {
			t.Errorf("alpha %v: need %d, want %d", c.alpha, got, c.want)
		}
	}
}
