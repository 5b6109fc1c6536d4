package judge

import "testing"

// Ratios are over the seed's row and the subject's; a reference that did
// not run clean gives no ratio, and a row that did not run clean has none.
func TestXprocRatios(t *testing.T) {
	rows := []XprocRow{{Row: "hale", OK: true, Median: 100}, {Row: "c", OK: true, Median: 50}, {Row: "go", Median: 70}}
	seed, subj := XprocRatios(rows, "c")
	if seed[1] == nil || *seed[1] != 0.5 || subj[0] == nil || *subj[0] != 2 || seed[2] != nil || subj[2] != nil {
		t.Errorf("ratios %v %v", seed, subj)
	}
	rows[0].OK = false
	seed, subj = XprocRatios(rows, "c")
	if seed[1] != nil || subj[1] == nil || *subj[1] != 1 {
		t.Errorf("without a clean seed row: %v %v", seed, subj)
	}
}
