package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/enginetest"
)

// witnessBench is a C bench whose loop takes about 100 ms; forged, it
// prints a hundredth of its loop's time as its elapsed_ns.
func witnessBench(forged bool) string {
	printed := "(b.tv_sec - a.tv_sec) * 1000000000LL + (b.tv_nsec - a.tv_nsec)"
	if forged {
		printed = "(" + printed + ") / 100"
	}
	return `#include <stdio.h>
#include <time.h>
int main(void) {
    struct timespec a, b;
    long long acc = 0;
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (volatile long long i = 0; i < 100000000; i++) { acc ^= i; }
    clock_gettime(CLOCK_MONOTONIC, &b);
    printf("elapsed_ns=%lld\ncheck=acc:%lld\n", (long long)(` + printed + `), acc);
    return 0;
}
`
}

// The check: baselines recorded from the honest program, then the
// forged one run in CI: it is not gated as faster (the witness, the
// sampler's wall time of the process, says its region is not its time):
// unwitnessed, exit 3 as an unmeasured subject.
func TestForgedRegionIsUnwitnessed(t *testing.T) {
	enginetest.Connect(t)
	suite, dir := t.TempDir(), t.TempDir()
	micro := filepath.Join(suite, "benches", "micro")
	os.MkdirAll(micro, 0o755)
	cat := `{"categories": [{"name": "w", "title": "Witness", "benches": ["work"]}]}`
	os.WriteFile(filepath.Join(suite, "benches", "catalogue.json"), []byte(cat), 0o644)
	os.WriteFile(filepath.Join(micro, "work.c"), []byte(witnessBench(false)), 0o644)
	base := emptyBaselines(t, dir)
	common := []string{"--suite=" + suite, "--lang=c", "--subject=c", "--count=off", "--iters=5", "--confirm=0",
		"--baselines=" + base, "--results=" + filepath.Join(dir, "results")}
	if code, _, errOut := run(t, nil, append([]string{"run", "--update-baselines", "--runs=2"}, common...)...); code != 0 {
		t.Fatalf("recording the honest baseline: exit %d\n%s", code, errOut)
	}
	if data, _ := os.ReadFile(base); !strings.Contains(string(data), `"outside_samples"`) {
		t.Fatalf("the baseline records no witness:\n%s", data)
	}
	os.WriteFile(filepath.Join(micro, "work.c"), []byte(witnessBench(true)), 0o644)
	code, out, errOut := run(t, []string{"CI=true"}, append([]string{"run", "--json"}, common...)...)
	var r struct {
		Benches []struct {
			Name, Status, Verdict string
		} `json:"benches"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil || len(r.Benches) != 1 {
		t.Fatalf("exit %d, report %v\n%s\n%s", code, err, out, errOut)
	}
	b := r.Benches[0]
	if code != 3 || b.Status != "unwitnessed" || !strings.Contains(b.Verdict, "outside its timed region grew") {
		t.Fatalf("forged region: exit %d, status %s, verdict %q\n%s", code, b.Status, b.Verdict, errOut)
	}
}
