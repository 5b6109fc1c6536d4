package runner

import "fmt"

// PlanCPUs picks the CPUs a bench needing `need` of them runs on, out of
// ncpu. CPU 0 stays with the orchestrator and the engine where the host has
// more than the bench needs; shared says it could not be kept apart.
func PlanCPUs(ncpu, need int) (cpus string, shared bool, err error) {
	if need < 1 {
		need = 1
	}
	switch {
	case need > ncpu:
		return "", false, fmt.Errorf("needs %d CPUs, the host has %d", need, ncpu)
	case need == ncpu:
		return cpuRange(0, need), ncpu > 0, nil
	default:
		return cpuRange(1, need), false, nil
	}
}

func cpuRange(first, n int) string {
	if n == 1 {
		return fmt.Sprint(first)
	}
	return fmt.Sprintf("%d-%d", first, first+n-1)
}

// CountCPUs picks the CPUs of the count lane's jobs, one CPU each: jobs
// of them (all, when jobs is 0 or more than the host has). A count is the
// same whatever runs beside it, so CPU 0 (the orchestrator's and the
// engine's) is used too, but only once every other CPU has a job.
func CountCPUs(ncpu, jobs int) []string {
	if ncpu < 1 {
		ncpu = 1
	}
	if jobs <= 0 || jobs > ncpu {
		jobs = ncpu
	}
	first := 1
	if jobs == ncpu {
		first = 0
	}
	out := make([]string, 0, jobs)
	for i := 0; i < jobs; i++ {
		out = append(out, fmt.Sprint(first+i))
	}
	return out
}
