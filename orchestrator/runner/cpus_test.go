package runner

import "testing"

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
