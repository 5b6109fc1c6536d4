package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"text/tabwriter"

	"github.com/hale-lang/halebench/orchestrator/bisect"
	"github.com/hale-lang/halebench/orchestrator/catalogue"
	"github.com/hale-lang/halebench/orchestrator/imagebuild"
)

const bisectHelp = `Usage: halebench bisect --good=REF --bad=REF --bench=LIST --hale-git=DIR|URL [flags]

Walks hale's first-parent history from --good to --bad (tags, branches or
commit ids of --hale-git), builds each tested commit's hale toolchain (cargo's
target dir is shared across commits, so a step recompiles what changed) and
judges it against both ends with the A/B machinery. Prints the first commit
that moves the benches past --threshold with every step's figures. A commit
that does not build is skipped and said (as git bisect skip); ends that do
not differ, or a commit like neither end, are reported, never guessed.
Exit 2 on unknown refs, a bad range or an end that does not build.

Flags:
`

// bisectConfig is what a Judge is made from.
type bisectConfig struct {
	Suite     string
	Benches   []string
	Metric    string // instructions or time
	Threshold float64
	Images    imagebuild.Options // HaleGit is the local repository; HaleRef is set per commit
	Log       io.Writer
}

// judgeMaker makes the Judge that builds hale per commit and compares two
// builds (newABJudge: with the ab verb's machinery; a fake in tests). It
// returns a close func.
type judgeMaker func(ctx context.Context, c bisectConfig) (bisect.Judge, func(), error)

type bisectFlags struct {
	good, bad, benches, metric string
	threshold                  float64
	suite                      string
	hale                       haleFlags
	json, list                 bool
	out                        outputFlags
}

func (f *bisectFlags) addFlags(fs *flag.FlagSet) {
	fs.StringVar(&f.good, "good", "", "the good end: a tag, branch or commit id of --hale-git (the older)")
	fs.StringVar(&f.bad, "bad", "", "the bad end: a tag, branch or commit id of --hale-git that descends from --good by first parents")
	fs.StringVar(&f.benches, "bench", "", "comma-separated benches to bisect on (all must move at one commit)")
	fs.StringVar(&f.metric, "metric", "time", "what moves: time (the A/B ratio of medians) or instructions (the count lane's exact ratio)")
	fs.Float64Var(&f.threshold, "threshold", bisect.DefaultThreshold, "how far a bench must move to count (0.02 = 2 %)")
	fs.StringVar(&f.suite, "suite", ".", "the suite folder holding benches/ (or the seed's micro/ and app/)")
	fs.StringVar(&f.hale.git, "hale-git", "", "hale's git repository: a local clone (bare or not) or a URL (cloned bare first)")
	fs.StringVar(&f.hale.vendor, "hale-vendor", "", "crates for an offline hale-cli build (as images --hale-vendor)")
	fs.BoolVar(&f.json, "json", false, "print the result as JSON on stdout")
	fs.BoolVar(&f.list, "list", false, "print the first-parent commits the bisect would walk (good first, bad last) and stop: no build, no engine")
	f.out.addFlags(fs)
}

// check refuses bad input before git or the engine is asked.
func (f *bisectFlags) check() ([]string, error) {
	switch {
	case f.good == "" || f.bad == "":
		return nil, errors.New("bisect needs --good=REF and --bad=REF")
	case f.benches == "":
		return nil, errors.New("bisect needs --bench=LIST (the benches that moved)")
	case f.hale.git == "":
		return nil, errors.New("bisect needs --hale-git=DIR|URL (hale's repository)")
	case f.metric != "time" && f.metric != "instructions":
		return nil, fmt.Errorf("--metric=%s: give instructions or time", f.metric)
	case !(f.threshold > 0 && f.threshold < 1):
		return nil, fmt.Errorf("--threshold=%g: give a fraction between 0 and 1 (0.02 = 2 %%)", f.threshold)
	}
	suite, err := catalogue.Load(f.suite)
	if err != nil {
		return nil, err
	}
	known := map[string]bool{}
	for _, b := range suite.Benches {
		known[b.Name] = true
	}
	list := splitList(f.benches)
	for _, b := range list {
		if !known[b] {
			return nil, fmt.Errorf("no bench named %q in %s", b, f.suite)
		}
	}
	return list, f.hale.check("bisect", "")
}

func runBisect(ctx context.Context, args []string, newJudge judgeMaker) error {
	var f bisectFlags
	fs := flag.NewFlagSet("bisect", flag.ContinueOnError)
	f.addFlags(fs)
	if _, err := parseN(fs, args, bisectHelp, 0, ""); err != nil {
		return err
	}
	benches, err := f.check()
	if err != nil {
		return badInput("bisect", err)
	}
	log, _, err := f.out.log("bisect")
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "halebench-bisect-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	repo, err := imagebuild.MirrorRemote(ctx, f.hale.git, tmp+"/hale.git")
	if err != nil {
		return badInput("bisect", err)
	}
	commits, err := imagebuild.FirstParent(ctx, repo, f.good, f.bad)
	if err != nil {
		return badInput("bisect", err)
	}
	fmt.Fprintf(log, "bisect: %d first-parent commits after %s up to %s\n", len(commits)-1, f.good, f.bad)
	if f.list {
		for _, c := range commits {
			fmt.Printf("%s %s\n", c.ID, c.Subject)
		}
		return nil
	}
	epoch, _, err := imagebuild.SourceDateEpoch(f.suite)
	if err != nil {
		return badInput("bisect", err)
	}
	cfg := bisectConfig{Suite: f.suite, Benches: benches, Metric: f.metric, Threshold: f.threshold, Log: log,
		Images: imagebuild.Options{HaleGit: repo, HaleVendor: f.hale.vendor, SourceDateEpoch: epoch}}
	judge, closeJudge, err := newJudge(ctx, cfg)
	if err != nil {
		return err
	}
	defer closeJudge()
	res, err := bisect.Run(ctx, judge, bisect.Options{Commits: toBisect(commits), Benches: benches, Threshold: f.threshold, Log: log})
	if res != nil && !errors.Is(err, bisect.ErrEndNotBuilt) { // no end, no figures worth a table
		if perr := printBisect(os.Stdout, res, f.json); perr != nil && err == nil {
			err = perr
		}
	}
	return err
}

func toBisect(cs []imagebuild.Commit) []bisect.Commit {
	out := make([]bisect.Commit, len(cs))
	for i, c := range cs {
		out[i] = bisect.Commit{ID: c.ID, Subject: c.Subject}
	}
	return out
}

// printBisect is the result on stdout: JSON, or the steps' grid and the
// answer.
func printBisect(w io.Writer, r *bisect.Result, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "commit\tsubject\tverdict\tbuild s\tvs good\tvs bad")
	for _, st := range r.Steps {
		subject := st.Commit.Subject
		if len(subject) > 50 {
			subject = subject[:47] + "..."
		}
		id := st.Commit.ID
		if len(id) > 12 {
			id = id[:12]
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%.0f\t%s\t%s\n", id, subject, st.Verdict, st.BuildSeconds, bisect.Figures(st.VsGood), bisect.Figures(st.VsBad))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "ends (bad over good): %s\n", bisect.Figures(r.Ends))
	_, err := fmt.Fprintf(w, "%s: %s; %d commits in range, %.0f s of builds\n", r.Outcome, r.Detail, r.Commits, r.BuildSeconds)
	return err
}
