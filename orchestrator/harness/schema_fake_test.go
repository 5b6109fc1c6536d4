package harness_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
)

// flatten lists every leaf of a JSON document as path=value.
func flatten(prefix string, v any, out map[string]string) {
	switch x := v.(type) {
	case map[string]any:
		if len(x) == 0 {
			out[prefix] = "{}"
		}
		for k, e := range x {
			flatten(prefix+"."+k, e, out)
		}
	case []any:
		if len(x) == 0 {
			out[prefix] = "[]"
		}
		for i, e := range x {
			flatten(fmt.Sprintf("%s[%d]", prefix, i), e, out)
		}
	default:
		b, _ := json.Marshal(x)
		out[prefix] = string(b)
	}
}

func leaves(t *testing.T, data []byte) map[string]string {
	t.Helper()
	var doc any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	flatten("", doc, out)
	return out
}

// The harness assembles, from values, the report the code before that
// change wrote by filling the report as it went: the same scenario on the
// fake engine (a rebaseline of c, go and python, then a slower run whose
// go disagrees and whose python crashes) gives the same fields and values
// as the report that code wrote (report/testdata/before-h2/run-fake.json),
// but for what differs from run to run: the time, the seeds, the temporary
// paths.
func TestFakeReportSameAsBefore(t *testing.T) {
	o := fakeOptions(t, "c,go,python", "c", "")
	o.Confirm = 3
	o.Count = "off" // the count lane's fields came after that report
	rebaseline(t, o, &fakeEngine{elapsed: map[string]int64{"c": 1, "go": 1, "python": 1}, check: map[string]string{"c": "n:1", "go": "n:1", "python": "n:1"}, timeOf: jittered(100_000)})
	slow := &fakeEngine{elapsed: map[string]int64{"c": 1, "go": 1}, check: map[string]string{"c": "n:1", "go": "n:2"}, timeOf: jittered(130_000)}
	res, _ := runFake(t, context.Background(), fakeEnv(fakeImages{}, slow, 2), o)
	now, err := os.ReadFile(res.ReportPath)
	if err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile("../report/testdata/before-h2/run-fake.json")
	if err != nil {
		t.Fatal(err)
	}
	a, b := leaves(t, before), leaves(t, now)
	if b[".kind"] != `"run"` {
		t.Errorf("the report's kind is %s; want \"run\"", b[".kind"])
	}
	// sources_digest names the sources by bench and language since
	// 2026-12-07 (by path before, which varied with where the suite was
	// checked out): TestSourcesDigestIsNotWhereTheSuiteIs holds it.
	varies := func(k string) bool {
		return k == ".generated_at" || k == ".sources_digest" || k == ".baselines" || strings.HasPrefix(k, ".warnings") || strings.HasSuffix(k, ".seed")
	}
	var diff []string
	for k, v := range a {
		if !varies(k) && b[k] != v {
			diff = append(diff, fmt.Sprintf("%s: before %s, now %s", k, v, b[k]))
		}
	}
	for k, v := range b {
		// flagged_by (which metric regressed) came with the count lane,
		// suite_layout with the seed's layout, kind with the result
		// envelope (package result; a report without it reads as a run's),
		// host.image_arch with architectures (amd64 here), halebench (the
		// tool that wrote it: version, commit, dirty, go) with the version.
		if _, ok := a[k]; !ok && !varies(k) && !strings.Contains(k, ".flagged_by[") && k != ".suite_layout" && k != ".kind" && k != ".host.image_arch" && !strings.HasPrefix(k, ".halebench.") {
			diff = append(diff, fmt.Sprintf("%s: only now (%s)", k, v))
		}
	}
	sort.Strings(diff)
	if len(diff) > 0 {
		t.Fatalf("the report differs from the one written before:\n%s", strings.Join(diff, "\n"))
	}
	if len(a) < 300 {
		t.Fatalf("the stored report has only %d fields", len(a))
	}
}
