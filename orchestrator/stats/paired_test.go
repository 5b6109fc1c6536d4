package stats

import (
	"math"
	"math/rand"
	"testing"
)

func TestSignedRankCDFSmall(t *testing.T) {
	// n=3: sums of subsets of {1,2,3}: 0,1,2,3,3,4,5,6.
	cdf := signedRankCDF(3)
	want := []float64{1, 2, 3, 5, 6, 7, 8}
	for i, w := range want {
		if math.Abs(cdf[i]-w/8) > 1e-12 {
			t.Fatalf("cdf[%d] = %v, want %v", i, cdf[i], w/8)
		}
	}
}

func TestSignedRankKMatchesTables(t *testing.T) {
	// Two-sided 95 %: critical values of the signed-rank test (T ≤ c
	// rejects) are 0 at n=6, 2 at n=8, 8 at n=10, 21 at n=15, 52 at n=20;
	// k is c+1.
	for n, c := range map[int]int{6: 0, 8: 3, 10: 8, 15: 25, 20: 52} {
		if k := signedRankK(n, 0.05); k != c+1 {
			t.Errorf("n=%d: k=%d, want %d", n, k, c+1)
		}
	}
	if k := signedRankK(5, 0.05); k != 0 {
		t.Errorf("n=5 cannot reach 95 %%: k=%d, want 0", k)
	}
}

func TestNormalApproximationNearExact(t *testing.T) {
	exact := signedRankK(50, 0.01)
	m := float64(50*51) / 4
	sd := math.Sqrt(float64(50*51*101) / 24)
	approx := int(math.Floor(m - NormalQuantile(0.995)*sd + 0.5))
	if d := exact - approx; d < -4 || d > 4 {
		t.Fatalf("n=50: exact k %d, normal %d", exact, approx)
	}
}

func TestHodgesLehmannShiftAndCoverage(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	shift := math.Log(1.10)
	missed := 0
	for trial := 0; trial < 200; trial++ {
		var a, b []float64
		for i := 0; i < 30; i++ {
			drift := 1 + 0.3*rng.Float64() // common to A and B: pairing removes it
			a = append(a, 1e6*drift*(1+0.02*rng.NormFloat64()))
			b = append(b, 1.10e6*drift*(1+0.02*rng.NormFloat64()))
		}
		iv := HodgesLehmann(LogRatios(a, b), 0.95)
		if !(iv.Low <= shift && shift <= iv.High) {
			missed++
		}
		if math.Abs(iv.Estimate-shift) > 0.03 {
			t.Fatalf("estimate %v far from %v", math.Exp(iv.Estimate), 1.10)
		}
	}
	if missed > 25 { // 5 % of 200 is 10 expected
		t.Fatalf("95 %% interval missed the true shift %d of 200 times", missed)
	}
}

func TestHodgesLehmannResistsOutliers(t *testing.T) {
	d := []float64{0.01, 0.011, 0.009, 0.01, 0.012, 0.008, 0.01, 0.011, 2.0, 0.01, 0.009, 0.01, 0.011, 0.009, 0.01, 0.012, 0.008, 0.01, 0.011, 0.01, 0.009}
	iv := HodgesLehmann(d, 0.95)
	if iv.Estimate > 0.02 {
		t.Fatalf("one wild pair moved the estimate to %v", iv.Estimate)
	}
	if math.IsInf(iv.Low, 0) || iv.High > 0.05 {
		t.Fatalf("interval %v..%v", iv.Low, iv.High)
	}
}

func TestTooFewPairsGiveAnUnboundedInterval(t *testing.T) {
	iv := HodgesLehmann([]float64{0.1, 0.2, 0.1}, 0.999)
	if !math.IsInf(iv.Low, -1) || !math.IsInf(iv.High, 1) {
		t.Fatalf("3 pairs at 99.9 %%: %v..%v, want unbounded", iv.Low, iv.High)
	}
}

func TestPerLookLevelAndLooks(t *testing.T) {
	if l := PerLookLevel(0.95, 50); math.Abs(l-0.999) > 1e-12 {
		t.Fatalf("level %v", l)
	}
	looks := Looks(6, 60)
	if looks[0] != 6 || looks[len(looks)-1] != 60 {
		t.Fatalf("looks %v", looks)
	}
	for i := 1; i < len(looks); i++ {
		if looks[i] <= looks[i-1] {
			t.Fatalf("looks not increasing: %v", looks)
		}
	}
}

func TestSequentialLooksDropLooksThatCannotConclude(t *testing.T) {
	looks, level := SequentialLooks(6, 60, 1, 0.95)
	for _, r := range looks {
		if signedRankK(r, 1-level) < 1 {
			t.Errorf("look at %d rounds cannot give an interval at %v", r, level)
		}
	}
	if looks[len(looks)-1] != 60 || level < 0.995 || level > 0.9999 {
		t.Fatalf("looks %v at %v", looks, level)
	}
	t.Logf("looks %v at %.4f each", looks, level)
}

func TestSequentialLooksSplitOverTheFamily(t *testing.T) {
	_, one := SequentialLooks(6, 60, 1, 0.95)
	looks, suite := SequentialLooks(6, 60, 21, 0.95)
	if want := 1 - 0.05/float64(21*len(looks)); math.Abs(suite-want) > 1e-12 || suite <= one {
		t.Fatalf("21 benches: %v per look over %v, want %v (one bench: %v)", suite, looks, want, one)
	}
}
