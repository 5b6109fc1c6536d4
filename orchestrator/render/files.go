package render

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"

	"github.com/hale-lang/halebench/orchestrator/report"
)

// Outputs are the files a run's CI results go to; an empty path is not
// written.
type Outputs struct {
	JUnit     string   // --junit: replaced whole
	Summaries []string // --summary and $GITHUB_STEP_SUMMARY: appended to
}

// Targets are the outputs the flags and the environment ask for: the
// JUnit file, and the step summary both to --summary and to
// $GITHUB_STEP_SUMMARY (once when they name the same file).
func Targets(junit, summaryFlag, githubStepSummary string) Outputs {
	o := Outputs{JUnit: junit}
	for _, p := range []string{summaryFlag, githubStepSummary} {
		if p != "" && (len(o.Summaries) == 0 || filepath.Clean(o.Summaries[0]) != filepath.Clean(p)) {
			o.Summaries = append(o.Summaries, p)
		}
	}
	return o
}

// Check says, before a run, whether its outputs can be written: each
// file's folder exists, and a step summary that exists is a regular file
// (not a symlink).
func (o Outputs) Check() error {
	paths := o.Summaries
	if o.JUnit != "" {
		paths = append([]string{o.JUnit}, paths...)
	}
	for _, p := range paths {
		if st, err := os.Stat(filepath.Dir(p)); err != nil || !st.IsDir() {
			return fmt.Errorf("cannot write %s: its folder %s does not exist (create it first)", p, filepath.Dir(p))
		}
	}
	for _, p := range o.Summaries {
		st, err := os.Lstat(p)
		if err == nil && !st.Mode().IsRegular() {
			return fmt.Errorf("step summary %s is not a regular file (a symlink?): give the file itself", p)
		}
	}
	return nil
}

// Write writes every output of o for r, all it can: the errors of those it
// could not are joined.
func (o Outputs) Write(r *report.Report) error {
	var errs []error
	if o.JUnit != "" {
		errs = append(errs, WriteJUnit(o.JUnit, r))
	}
	for _, p := range o.Summaries {
		errs = append(errs, AppendSummary(p, r))
	}
	return errors.Join(errs...)
}

// WriteJUnit writes the report's JUnit XML to path through report's atomic writer: a
// synced temporary file beside it, renamed over it (a symlink at path is
// refused, never followed).
func WriteJUnit(path string, r *report.Report) error {
	var buf bytes.Buffer
	if err := JUnit(&buf, r); err != nil {
		return err
	}
	if err := report.AtomicWrite(path, 0o644, func(w io.Writer) error {
		_, err := w.Write(buf.Bytes())
		return err
	}); err != nil {
		return fmt.Errorf("JUnit file: %w", err)
	}
	return nil
}

// AppendSummary appends the report's Markdown summary to path in one
// write, creating the file if missing and never truncating it (a CI job's
// earlier steps wrote there too). A symlink, a FIFO or anything else but a
// regular file is refused rather than followed or blocked on.
func AppendSummary(path string, r *report.Report) error {
	var buf bytes.Buffer
	Summary(&buf, r)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0o644)
	if errors.Is(err, syscall.ELOOP) {
		return fmt.Errorf("step summary %s is a symlink: refusing to follow it (give the file itself)", path)
	}
	if err != nil {
		return fmt.Errorf("step summary %s: %w", path, err)
	}
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		f.Close()
		return fmt.Errorf("step summary %s is not a regular file: refusing to write to it", path)
	}
	_, err = f.Write(buf.Bytes())
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("appending the step summary to %s: %w", path, err)
	}
	return nil
}
