package bisect

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/enginetest"
	"github.com/hale-lang/halebench/orchestrator/subject"
)

// request is a bisect of the test suite's count bench on repo, v1 to v2.
func request(repo string) Request {
	return Request{Good: "v1", Bad: "v2", Benches: "count", Threshold: DefaultThreshold, Suite: "../harness/testdata/suite", Hale: subject.Build{Git: repo}}
}

// Bad input is refused before git or the engine is asked, naming the flag.
func TestRequestCheck(t *testing.T) {
	repo := t.TempDir()
	for _, c := range []struct {
		edit func(*Request)
		want string
	}{
		{func(r *Request) { r.Good = "" }, "bisect needs --good=REF and --bad=REF"},
		{func(r *Request) { r.Benches = "" }, "bisect needs --bench=LIST"},
		{func(r *Request) { r.Hale.Git = "" }, "bisect needs --hale-git=DIR|URL"},
		{func(r *Request) { r.Metric = "memory" }, "--metric=memory"},
		{func(r *Request) { r.List, r.Plan = true, true }, "give one of --list, --plan and --from-reports"},
		{func(r *Request) { r.FromReports, r.Metric = "dir", "time" }, "drop --metric=time"},
		{func(r *Request) { r.Threshold = 1 }, "--threshold=1: give a fraction"},
		{func(r *Request) { r.Benches = "nosuch" }, `no bench named "nosuch"`},
		{func(r *Request) { r.Hale.Vendor = repo + "/absent" }, "--hale-vendor="},
	} {
		r := request(repo)
		c.edit(&r)
		if _, err := r.Check(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", r, err, c.want)
		}
	}
	if benches, err := request(repo).Check(); err != nil || strings.Join(benches, ",") != "count" {
		t.Errorf("good input: %v %v", benches, err)
	}
}

// The answer's paths: the list, the plan, a range git refuses and reports
// that are not there (the user's to mend), and the judge's own error.
func TestRequestAnswer(t *testing.T) {
	repo, ids := enginetest.History(t)
	ctx := context.Background()
	var out strings.Builder
	r := request(repo)
	r.List = true
	if err := r.Answer(ctx, []string{"count"}, &out, io.Discard, nil); err != nil || strings.Count(out.String(), "\n") != 4 || !strings.HasPrefix(out.String(), ids["c1"]+" subject c1\n") {
		t.Errorf("--list: %v\n%s", err, out.String())
	}
	out.Reset()
	r.List, r.Plan = false, true
	if err := r.Answer(ctx, []string{"count"}, &out, io.Discard, nil); err != nil || !strings.HasPrefix(out.String(), `{"include":[{"commit":"`+ids["c1"]) {
		t.Errorf("--plan: %v\n%s", err, out.String())
	}
	r.Plan, r.Good = false, "nosuch"
	if err := r.Answer(ctx, []string{"count"}, &out, io.Discard, nil); !errors.Is(err, ErrInput) {
		t.Errorf("an unknown ref: %v", err)
	}
	r.Good, r.FromReports = "v1", t.TempDir()
	if err := r.Answer(ctx, []string{"count"}, &out, io.Discard, nil); !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), "holds no run report") {
		t.Errorf("no reports: %v", err)
	}
	r.FromReports = ""
	made := errors.New("judge made")
	newJudge := func(_ context.Context, cfg Config) (Judge, func(), error) {
		if cfg.Hale.Git != repo || cfg.Images.Subject == nil {
			t.Errorf("config %+v", cfg)
		}
		return nil, nil, made
	}
	if err := r.Answer(ctx, []string{"count"}, &out, io.Discard, newJudge); err != made {
		t.Errorf("the judge's error: %v", err)
	}
}
