// Test bench: a sibling that does OTHER work — it counts one iteration
// short — so the parity check must flag it.
package main

import (
	"fmt"
	"os"
	"strconv"
	"time"
)

func main() {
	acc, _ := strconv.ParseInt(os.Getenv("HALEBENCH_SEED"), 10, 64)
	n := 0
	t0 := time.Now()
	for i := int64(0); i < 999999; i++ {
		acc ^= i
		n++
	}
	el := time.Since(t0).Nanoseconds()
	if el == 0 {
		el = 1
	}
	fmt.Printf("elapsed_ns=%d\ncheck=iters:%d,acc:%d\n", el, n, acc)
}
