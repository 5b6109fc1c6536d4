package runner

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/hale-lang/halebench/orchestrator/image"
	"github.com/hale-lang/halebench/orchestrator/suite"
)

// A cell is the same job whichever verb places it: the bench's environment
// sorted, the image's trusted record in the sampler's form, the limits as
// given, and nothing the caller decides (iterations, warm-ups, counting).
func TestPlace(t *testing.T) {
	c, _ := suite.ByName("c")
	b := &suite.Bench{Name: "fn_call", Env: map[string]string{"Z": "1", "A": "2", "M": "3"}}
	sum := strings.Repeat("ab", 32)
	bi := image.BenchImage{Ref: "halebench/bench-c:x", Trusted: map[string]string{"/halebench-sampler": sum}}
	lim := Limits{Timeout: 7 * time.Second, MemLimit: 1 << 30, OutCap: 4096}
	w, j := Place(b, c, bi, "1", 42, lim)
	if want := (Where{Lang: "c", Image: bi.Ref, CPUs: "1", Trusted: "/halebench-sampler=" + sum}); w != want {
		t.Errorf("Where = %+v, want %+v", w, want)
	}
	if !reflect.DeepEqual(j.Env, []string{"A=2", "M=3", "Z=1"}) {
		t.Errorf("Env = %v, want sorted KEY=VALUE", j.Env)
	}
	if j.Unit != "fn_call" || j.Lang.Name != "c" || j.Seed != 42 || j.Timeout != lim.Timeout || j.MemLimit != lim.MemLimit || j.OutCap != lim.OutCap {
		t.Errorf("Job = %+v, want the bench, language, seed and limits given", j)
	}
	if j.Iters != 0 || j.Warmup != 0 || j.Count != nil {
		t.Errorf("Place decided the caller's part: iters %d warmup %d count %v", j.Iters, j.Warmup, j.Count)
	}
}
