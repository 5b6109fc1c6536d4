package plan

import "sync"

// onCPUs runs n tasks (Exec.CPUs: the count lane), in the order given (the
// caller puts the dearest first, so no long one starts last while the
// other CPUs idle), each run by do on the CPU that takes it, one task per
// CPU at a time and every CPU of cpus busy while tasks are left. It
// returns when all are done.
func onCPUs(cpus []string, n int, do func(cpu string, task int)) {
	queue := make(chan int)
	var wg sync.WaitGroup
	for _, cpu := range cpus {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for t := range queue {
				do(cpu, t)
			}
		}()
	}
	for t := 0; t < n; t++ {
		queue <- t
	}
	close(queue)
	wg.Wait()
}
