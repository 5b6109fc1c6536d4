// A bisect as the CLI's flags ask for it: checked before git or the engine
// is asked, then answered by one of its paths (the list, the CI plan, the
// stored reports, or the sequential bisect with the A/B judge).

package bisect

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/hale-lang/halebench/orchestrator/image"
	"github.com/hale-lang/halebench/orchestrator/judge"
	"github.com/hale-lang/halebench/orchestrator/subject"
	"github.com/hale-lang/halebench/orchestrator/suite"
	"github.com/hale-lang/halebench/orchestrator/termtext"
)

// Request is a bisect as its flags give it.
type Request struct {
	Good, Bad   string // tags, branches or commit ids of Hale.Git
	Benches     string // comma-separated
	Metric      string // instructions, time, or "" (instructions where hale is counted)
	Threshold   float64
	Suite       string
	Hale        subject.Build // Git (--hale-git) and Vendor (--hale-vendor)
	JSON        bool          // the result as JSON
	List, Plan  bool          // print the commits (or the CI matrix) and stop
	FromReports string        // answer from the count-only run reports in this folder
	// Unprivileged runs the comparisons' containers without privilege.
	Unprivileged bool
}

// ErrInput marks an error of Answer the user makes right by changing what
// they gave: a ref, the range, a stored report (errors.Is finds it; the
// message is the error's own).
var ErrInput = errors.New("bisect input")

type inputError struct{ error }

func (e inputError) Unwrap() error        { return e.error }
func (e inputError) Is(target error) bool { return target == ErrInput }

// refused marks err as ErrInput (nil stays nil).
func refused(err error) error {
	if err == nil {
		return nil
	}
	return inputError{err}
}

// NewJudge makes the Judge that builds hale per commit and compares two
// builds (on an engine: OnEngine; a fake in tests), and a func that ends
// it.
type NewJudge func(ctx context.Context, cfg Config) (Judge, func(), error)

// Check refuses bad input before git or the engine is asked, and returns
// the benches named. Its errors are all the user's to fix.
func (r Request) Check() ([]string, error) {
	switch {
	case r.Good == "" || r.Bad == "":
		return nil, errors.New("bisect needs --good=REF and --bad=REF")
	case r.Benches == "":
		return nil, errors.New("bisect needs --bench=LIST (the benches that moved)")
	case r.Hale.Git == "":
		return nil, errors.New("bisect needs --hale-git=DIR|URL (hale's repository)")
	case r.Metric != "" && walkErr(r.Metric) != nil:
		return nil, walkErr(r.Metric)
	case (r.List && r.Plan) || ((r.List || r.Plan) && r.FromReports != ""):
		return nil, errors.New("give one of --list, --plan and --from-reports")
	case r.FromReports != "" && r.Metric != "" && r.Metric != judge.Instructions.Name:
		return nil, fmt.Errorf("--from-reports answers by instructions (the reports' exact counts): drop --metric=%s", r.Metric)
	case !(r.Threshold > 0 && r.Threshold < 1):
		return nil, fmt.Errorf("--threshold=%g: give a fraction between 0 and 1 (0.02 = 2 %%)", r.Threshold)
	}
	s, err := suite.Load(r.Suite)
	if err != nil {
		return nil, err
	}
	list, err := s.Named(r.Benches)
	if err != nil {
		return nil, err
	}
	return list, r.Hale.Check()
}

// walkErr says why bisect cannot walk by the metric called name (nil: it
// can).
func walkErr(name string) error {
	_, err := judge.Walked(name, true)
	return err
}

// Answer walks hale's first-parent history from Good to Bad (a remote
// mirrored bare first) and answers on out: the commits (List), the CI
// matrix (Plan), the result from the stored reports (FromReports), or the
// sequential bisect with the judge newJudge makes. What the user must mend
// is ErrInput.
func (r Request) Answer(ctx context.Context, benches []string, out, log io.Writer, newJudge NewJudge) error {
	tmp, err := os.MkdirTemp("", "halebench-bisect-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	repo, err := MirrorRemote(ctx, r.Hale.Git, tmp+"/hale.git")
	if err != nil {
		return refused(err)
	}
	commits, err := FirstParent(ctx, repo, r.Good, r.Bad)
	if err != nil {
		return refused(err)
	}
	fmt.Fprintf(log, "bisect: %d first-parent commits after %s up to %s\n", len(commits)-1, r.Good, r.Bad)
	switch {
	case r.List:
		for _, c := range commits {
			fmt.Fprintf(out, "%s %s\n", termtext.Line(c.ID), termtext.Line(c.Subject))
		}
		return nil
	case r.Plan:
		return WritePlan(out, log, commits)
	case r.FromReports != "":
		res, err := FromReports(ctx, r.FromReports, commits, benches, r.Threshold, log)
		return r.print(out, res, refused(err))
	}
	return r.judged(ctx, repo, commits, benches, out, log, newJudge)
}

// judged is the sequential bisect with the judge newJudge makes, building
// hale from repo.
func (r Request) judged(ctx context.Context, repo string, commits []Commit, benches []string, out, log io.Writer, newJudge NewJudge) error {
	epoch, _, err := image.SourceDateEpoch()
	if err != nil {
		return refused(err)
	}
	cfg := Config{Suite: r.Suite, Benches: benches, Metric: r.Metric, Threshold: r.Threshold, Log: log, Unprivileged: r.Unprivileged,
		Hale: subject.Build{Git: repo, Vendor: r.Hale.Vendor}, Images: image.Options{SourceDateEpoch: epoch}}
	cfg.Images.Subject = cfg.Hale
	j, closeJudge, err := newJudge(ctx, cfg)
	if err != nil {
		return err
	}
	defer closeJudge()
	res, err := Run(ctx, j, Options{Commits: commits, Benches: benches, Threshold: r.Threshold, Log: log})
	return r.print(out, res, err)
}

// print writes a result on out (none when an end is missing: no figures
// worth a table), and returns err, else a failure to write it.
func (r Request) print(out io.Writer, res *Result, err error) error {
	if res != nil && !errors.Is(err, ErrEndNotBuilt) {
		if perr := WriteResult(out, res, r.JSON); perr != nil && err == nil {
			err = perr
		}
	}
	return err
}
