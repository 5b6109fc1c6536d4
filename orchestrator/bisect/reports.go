// bisect as a fan-out: the plan is the range's commits as a CI matrix, one
// job per commit runs `halebench run --hale-ref=<commit> --count=only`, and
// FromReports answers from those reports' exact counts with the same search
// as the sequential bisect (a Judge on stored counts).

package bisect

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hale-lang/halebench/orchestrator/judge"
	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/result"
	"github.com/hale-lang/halebench/orchestrator/termtext"
)

// maxMatrixJobs is GitHub Actions' bound on one matrix's jobs.
const maxMatrixJobs = 256

// PlanJob is one job of the plan's matrix: one commit.
type PlanJob struct {
	Commit  string `json:"commit"`
	Short   string `json:"short"`
	Subject string `json:"subject"`
}

// WritePlan writes the commits as one line of JSON in strategy.matrix's
// shape: {"include":[{commit, short, subject}…]}, good first, bad last.
func WritePlan(w, log io.Writer, commits []Commit) error {
	plan := struct {
		Include []PlanJob `json:"include"`
	}{Include: []PlanJob{}}
	for _, c := range commits {
		id := termtext.Line(c.ID)
		plan.Include = append(plan.Include, PlanJob{Commit: id, Short: termtext.ShortID(id), Subject: termtext.Line(c.Subject)})
	}
	if len(plan.Include) > maxMatrixJobs {
		fmt.Fprintf(log, "bisect: %d commits: a GitHub Actions matrix holds at most %d jobs; split the range (--good/--bad) into plans that fit\n", len(plan.Include), maxMatrixJobs)
	}
	data, err := json.Marshal(plan)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", data)
	return err
}

// counted is what one commit's report holds.
type counted struct {
	file     string
	skip     string            // why the commit counts as not built ("" : built and counted)
	ir       map[string]uint64 // bench → the subject's instructions
	unstable map[string]bool   // bench → count_unstable
}

// readReports reads every *.json under dir (and one folder down, as CI
// artifacts are downloaded) and maps each to its hale commit in commits.
// A file that is not a run report, a report of no commit in the range or
// of other benches, and two reports of one commit are refused.
func readReports(dir string, commits []Commit, benches []string) (map[string]*counted, error) {
	files, err := reportFiles(dir)
	if err != nil {
		return nil, err
	}
	inRange := map[string]bool{}
	for _, c := range commits {
		inRange[c.ID] = true
	}
	out := map[string]*counted{}
	for _, f := range files {
		r, err := result.ReadRun(f, "bisect")
		if err != nil {
			return nil, err
		}
		id, err := reportCommit(f, r)
		if err != nil {
			return nil, err
		}
		if !inRange[id] {
			return nil, fmt.Errorf("%s is of hale commit %s, which is not on the first-parent range --good..--bad; give the reports of this plan's jobs", f, termtext.Line(id))
		}
		if prev, ok := out[id]; ok {
			return nil, fmt.Errorf("%s and %s are both of hale commit %s: keep one report per commit", prev.file, f, id)
		}
		c, err := countsOf(f, r, benches)
		if err != nil {
			return nil, err
		}
		out[id] = c
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s holds no run report (*.json): give the folder the plan's jobs' reports were gathered in", dir)
	}
	return out, nil
}

// reportFiles is every *.json file in dir and its folders one level down,
// sorted; symlinks are not followed (result.ReadRun refuses them too).
func reportFiles(dir string) ([]string, error) {
	var out []string
	top, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("--from-reports=%s: %w", dir, err)
	}
	for _, e := range top {
		p := filepath.Join(dir, e.Name())
		switch {
		case e.IsDir():
			sub, err := os.ReadDir(p)
			if err != nil {
				return nil, err
			}
			for _, s := range sub {
				if strings.HasSuffix(s.Name(), ".json") && !s.IsDir() {
					out = append(out, filepath.Join(p, s.Name()))
				}
			}
		case strings.HasSuffix(e.Name(), ".json"):
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out, nil
}

// reportCommit is the hale commit a report measured: its hale build's
// commit, or its ref when that is a full commit id (a build that failed).
func reportCommit(file string, r *report.Report) (string, error) {
	lang := bisected().Name
	tc, ok := r.Images[lang]
	if r.Subject != lang || !ok || tc.Hale == nil {
		return "", fmt.Errorf("%s is not a hale run report (subject %q, no images.hale.hale_build): give reports of `halebench run --hale-git=… --hale-ref=<commit> --lang=hale --count=only`", file, termtext.Line(r.Subject))
	}
	if tc.Hale.Commit != "" {
		return tc.Hale.Commit, nil
	}
	if len(tc.Hale.Ref) == 40 && strings.Trim(tc.Hale.Ref, "0123456789abcdef") == "" {
		return tc.Hale.Ref, nil
	}
	return "", fmt.Errorf("%s records no hale commit (hale_build.commit) and its ref %q is not a commit id: run the job with --hale-ref=<the plan's full commit id>", file, termtext.Line(tc.Hale.Ref))
}

// countsOf is one report's counts of benches. A hale build that failed, or
// a bench not counted, makes the commit skipped; a report of another set
// of benches is refused.
func countsOf(file string, r *report.Report, benches []string) (*counted, error) {
	c := &counted{file: file, ir: map[string]uint64{}, unstable: map[string]bool{}}
	if tc := r.Images[bisected().Name]; tc.Status == outcome.BuildFailed {
		c.skip = "hale did not build: " + termtext.Clean(tc.Reason)
		return c, nil
	}
	var names []string
	byName := map[string]*report.Bench{}
	for _, b := range r.Benches {
		names = append(names, b.Name)
		byName[b.Name] = b
	}
	sort.Strings(names)
	want := append([]string(nil), benches...)
	sort.Strings(want)
	if strings.Join(names, ",") != strings.Join(want, ",") {
		return nil, fmt.Errorf("%s measured the benches %s, not --bench=%s: give the reports of this plan's jobs (run with the same --bench)", file, termtext.Line(strings.Join(names, ",")), strings.Join(want, ","))
	}
	for _, name := range want {
		res := byName[name].SubjectResult
		if res == nil || res.Count == nil || res.Count.Ir == 0 {
			c.skip = fmt.Sprintf("%s has no instruction count of %s (its status: %s)", file, name, benchStatus(byName[name]))
			return c, nil
		}
		c.ir[name], c.unstable[name] = res.Count.Ir, res.Count.Verdict == outcome.CountUnstable
	}
	return c, nil
}

func benchStatus(b *report.Bench) string {
	if b.SubjectResult != nil && b.SubjectResult.Count != nil && b.SubjectResult.Count.Verdict != "" {
		return string(b.SubjectResult.Count.Verdict)
	}
	return termtext.Line(string(b.Status))
}

// countJudge is the bisect's Judge on stored counts: a commit "builds"
// when its report counted every bench, and two commits compare by the
// exact ratio of their instructions.
type countJudge struct{ at map[string]*counted }

func (j countJudge) Build(_ context.Context, c Commit) (Side, error) {
	r, ok := j.at[c.ID]
	switch {
	case !ok:
		return Side{Commit: c}, fmt.Errorf("no report of this commit: %w", ErrNotBuilt)
	case r.skip != "":
		return Side{Commit: c}, fmt.Errorf("%s: %w", r.skip, ErrNotBuilt)
	}
	return Side{Commit: c, Image: r.file}, nil
}

func (j countJudge) Compare(_ context.Context, x, y Side, benches []string) (map[string]Ratio, error) {
	out := map[string]Ratio{}
	for _, b := range benches {
		r := float64(j.at[y.Commit.ID].ir[b]) / float64(j.at[x.Commit.ID].ir[b])
		out[b] = Ratio{Ratio: r, Low: r, High: r, Metric: judge.Instructions.Name}
	}
	return out, nil
}

// FromReports is the bisect answered from the reports in dir: the same
// search as the sequential bisect's, by exact instruction counts. Its
// errors are the reports' or the range's: the user's to mend.
func FromReports(ctx context.Context, dir string, commits []Commit, benches []string, threshold float64, log io.Writer) (*Result, error) {
	at, err := readReports(dir, commits, benches)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(log, "bisect: %d reports of the %d commits in range\n", len(at), len(commits))
	res, err := Run(ctx, countJudge{at}, Options{Commits: commits, Benches: benches, Threshold: threshold})
	if err != nil {
		return res, err
	}
	for i, c := range res.Changes {
		for _, id := range []string{c.Against, c.Commit} {
			if at[id] != nil && at[id].unstable[c.Bench] {
				res.Changes[i].Note = strings.TrimPrefix(res.Changes[i].Note+"; ", "; ") + fmt.Sprintf("%s's count of %s is count_unstable (its counted runs differed)", termtext.ShortID(id), c.Bench)
			}
		}
	}
	return res, nil
}
