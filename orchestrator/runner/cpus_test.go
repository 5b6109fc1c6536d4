package runner

import (
	"strings"
	"testing"
)

func TestPlanCPUs(t *testing.T) {
	cases := []struct {
		ncpu, need int
		cpus       string
		shared     bool
		err        bool
	}{
		{2, 1, "1", false, false},
		{2, 2, "0-1", true, false},
		{4, 2, "1-2", false, false},
		{8, 1, "1", false, false},
		{1, 1, "0", true, false},
		{1, 2, "", false, true},
		{3, 0, "1", false, false},
	}
	for _, c := range cases {
		cpus, shared, err := PlanCPUs(c.ncpu, c.need)
		if cpus != c.cpus || shared != c.shared || (err != nil) != c.err {
			t.Errorf("PlanCPUs(%d, %d) = %q %v %v", c.ncpu, c.need, cpus, shared, err)
		}
	}
}

func TestCountCPUs(t *testing.T) {
	cases := []struct {
		ncpu, jobs int
		want       string
	}{
		{2, 0, "0,1"},
		{2, 1, "1"},
		{2, 2, "0,1"},
		{2, 5, "0,1"},
		{1, 0, "0"},
		{16, 4, "1,2,3,4"},
		{4, 0, "0,1,2,3"},
		{0, 0, "0"},
	}
	for _, c := range cases {
		if got := strings.Join(CountCPUs(c.ncpu, c.jobs), ","); got != c.want {
			t.Errorf("CountCPUs(%d, %d) = %s, want %s", c.ncpu, c.jobs, got, c.want)
		}
	}
}
