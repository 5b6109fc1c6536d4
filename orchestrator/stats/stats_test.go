package stats

import "testing"

func TestMedian(t *testing.T) {
	cases := []struct {
		in   []int64
		want int64
	}{
		{nil, 0},
		{[]int64{5}, 5},
		{[]int64{3, 1, 2}, 2},
		{[]int64{4, 1, 3, 2}, 2},
		{[]int64{10, 20}, 15},
		{[]int64{9, 9, 1, 100, 9}, 9},
	}
	for _, c := range cases {
		if got := Median(c.in); got != c.want {
			t.Errorf("Median(%v) = %d, want %d", c.in, got, c.want)
		}
	}
}

func TestSummarize(t *testing.T) {
	s := Summarize([]int64{10, 12, 14})
	if s.N != 3 || s.Median != 12 || s.Min != 10 || s.Max != 14 || s.Mean != 12 {
		t.Fatalf("%+v", s)
	}
	if s.CV < 0.166 || s.CV > 0.167 {
		t.Fatalf("cv %v, want 2/12", s.CV)
	}
}

func TestRatio(t *testing.T) {
	if r := Ratio(19700000, 1590000); r != 12.3899 {
		t.Fatalf("ratio %v", r)
	}
	if Ratio(1, 0) != 0 {
		t.Fatal("division by zero must give 0")
	}
}
