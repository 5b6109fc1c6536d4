package plan

import (
	"sync"
	"testing"
)

// Every task runs once, never two at once on one CPU, and the tasks are
// taken in the order given.
func TestOnCPUsRunsEachTaskOnceOneACPU(t *testing.T) {
	cpus := []string{"1", "2", "3"}
	var mu sync.Mutex
	busy := map[string]bool{}
	ran := map[int]int{}
	var started []int
	onCPUs(cpus, 20, func(cpu string, task int) {
		mu.Lock()
		if busy[cpu] {
			t.Errorf("task %d started on cpu %s while another ran there", task, cpu)
		}
		busy[cpu] = true
		ran[task]++
		started = append(started, task)
		mu.Unlock()

		mu.Lock()
		busy[cpu] = false
		mu.Unlock()
	})
	if len(ran) != 20 {
		t.Fatalf("%d distinct tasks ran, want 20", len(ran))
	}
	for task, n := range ran {
		if n != 1 {
			t.Errorf("task %d ran %d times", task, n)
		}
	}
	// A task is handed out only after every earlier one was: each worker
	// starts what it took in the order taken, so no task can start before
	// one handed out len(cpus) or more places earlier.
	for i, task := range started {
		if task > i+len(cpus)-1 {
			t.Fatalf("task %d started %dth: taken out of order (%v)", task, i+1, started)
		}
	}
}

func TestOnCPUsWithNoTaskReturns(t *testing.T) {
	called := false
	onCPUs([]string{"1"}, 0, func(string, int) { called = true })
	if called {
		t.Fatal("do was called with no task")
	}
}
