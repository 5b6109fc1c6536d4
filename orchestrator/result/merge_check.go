package result

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hale-lang/halebench/orchestrator/report"
)

// sameRun refuses shards that are not all of one run: each against the
// first, its partition, sources, builds and settings; then a shard given
// twice, a bench in two shards, a shard missing.
func sameRun(shards []Shard) error {
	ref := shards[0]
	for _, s := range shards[1:] {
		if err := samePartition(ref.File, s.File, ref.Report.Shard, s.Report.Shard); err != nil {
			return err
		}
		if err := sameFacts(ref, s, "built", builds); err != nil {
			return err
		}
		if err := sameFacts(ref, s, "settings", settings); err != nil {
			return err
		}
	}
	if err := sameValgrind(shards); err != nil {
		return err
	}
	return allOnce(shards)
}

// sameValgrind refuses shards that counted with different Valgrinds. A
// shard that counted no cell (all its benches guards, say) read no
// version and agrees with any.
func sameValgrind(shards []Shard) error {
	var ref Shard
	for _, s := range shards {
		v := valgrindOf(s.Report)
		switch {
		case v == "":
		case ref.Report == nil:
			ref = s
		case v != valgrindOf(ref.Report):
			return refuse(s.File, "counted differently than %s: Valgrind is %s here, %s there", ref.File, v, valgrindOf(ref.Report))
		}
	}
	return nil
}

func valgrindOf(r *report.Report) string {
	if r.Count == nil {
		return ""
	}
	return r.Count.Valgrind
}

// samePartition refuses a shard (b, of file) of another suite, sources or
// partition than the first's (a, of refFile).
func samePartition(refFile, file string, a, b *report.Shard) error {
	switch {
	case a.Total != b.Total:
		return refuse(file, "shard %d of %d, but %s is shard %d of %d: N disagrees (shards of different runs?)", b.Index, b.Total, refFile, a.Index, a.Total)
	case strings.Join(a.SuiteBenches, ",") != strings.Join(b.SuiteBenches, ","):
		return refuse(file, "a different suite than %s's: %s", refFile, setDiff(a.SuiteBenches, b.SuiteBenches))
	case a.SuiteSourcesDigest != b.SuiteSourcesDigest:
		return refuse(file, "different bench sources than %s (sources digest %s, not %s)", refFile, b.SuiteSourcesDigest, a.SuiteSourcesDigest)
	case a.Digest != b.Digest:
		return refuse(file, "a different partition than %s (%s, not %s): the shards were balanced from different baselines or --shard-costs (balanced by %q there, %q here)", refFile, b.Digest, a.Digest, a.BalancedBy, b.BalancedBy)
	}
	return nil
}

// setDiff says what one sorted list has that the other lacks.
func setDiff(a, b []string) string {
	var only []string
	for _, n := range b {
		if !has(a, n) {
			only = append(only, "+"+n)
		}
	}
	for _, n := range a {
		if !has(b, n) {
			only = append(only, "-"+n)
		}
	}
	return strings.Join(only, " ")
}

// fact is one named thing two shards of a run must agree on.
type fact struct{ name, value string }

// sameFacts refuses a shard whose facts (of) differ from the first's.
func sameFacts(ref, s Shard, what string, of func(*report.Report) []fact) error {
	return agree(ref.File, s.File, what, of(ref.Report), of(s.Report))
}

// agree refuses file's facts (got) where they differ from refFile's (want).
func agree(refFile, file, what string, wantFacts, gotFacts []fact) error {
	want, got := index(wantFacts), index(gotFacts)
	var names []string
	for n := range want {
		names = append(names, n)
	}
	for n := range got {
		if _, ok := want[n]; !ok {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		if want[n] != got[n] {
			return refuse(file, "%s differently than %s: %s is %s here, %s there", what, refFile, n, shown(got[n]), shown(want[n]))
		}
	}
	return nil
}

func index(fs []fact) map[string]string {
	m := map[string]string{}
	for _, f := range fs {
		m[f.name] = f.value
	}
	return m
}

func shown(v string) string {
	if v == "" {
		return "(none)"
	}
	return v
}

// builds are the images a shard measured: shards of one run measure the
// same subject build in the same images.
func builds(r *report.Report) []fact { return imageFacts("the ", r.Base, r.Images, r.BenchImages) }

// imageFacts name a report's base, its toolchains (and the subject
// build's commit) and its bench images: what a run report and an xproc
// report record alike, and each side of an ab; whose starts each name
// ("the ", "side A's ").
func imageFacts(whose string, base report.Base, images map[string]report.Toolchain, benches map[string]report.BenchImage) []fact {
	fs := []fact{{whose + "base image", base.ID + " " + base.RootfsSHA256}}
	for lang, t := range images {
		fs = append(fs, fact{whose + lang + " toolchain", fmt.Sprintf("%s %s %s", t.Status, imageName(t.Digest, t.ID), t.Version)})
		if t.Hale != nil {
			fs = append(fs, fact{whose + lang + " build's commit", t.Hale.Commit})
		}
	}
	for lang, b := range benches {
		fs = append(fs, fact{whose + lang + " bench image", imageName(b.Digest, b.ID)})
	}
	return fs
}

func imageName(digest, id string) string {
	if digest != "" {
		return digest
	}
	return id
}

// settings are the knobs a shard ran with: what the report records of
// the run's flags, the count lane's included.
func settings(r *report.Report) []fact {
	fs := []fact{
		{"the subject", r.Subject}, {"the subject's toolchain", r.SubjectStatus},
		{"--iters", fmt.Sprint(r.Iters)}, {"--warmup", fmt.Sprint(r.Warmup)},
		{"--timeout", r.Settings.TimeoutPerSample}, {"--memory", fmt.Sprint(r.Settings.MemLimitBytes)},
		{"the output cap", fmt.Sprint(r.Settings.OutputCapBytes)}, {"the languages", strings.Join(r.Settings.Languages, ",")},
		{"the baselines file", filepath.Base(r.Baselines)}, // its folder is each runner's
		{"--alpha", fmt.Sprint(r.Gate.Alpha)}, {"--confirm", fmt.Sprint(r.Gate.Confirm)},
		{"--strict", fmt.Sprint(r.Gate.Strict)}, {"--gate-any-machine", fmt.Sprint(r.Gate.AnyMachine)},
	}
	if c := r.Count; c != nil {
		fs = append(fs, fact{"--count", c.Mode}, fact{"the counted languages", strings.Join(c.Languages, ",")},
			fact{"--count-runs", fmt.Sprint(c.Runs)}, fact{"--count-budget", c.Budget},
			fact{"the count target", c.Target},
			fact{"--count-cache-sim", fmt.Sprint(!c.NoCacheSim)})
	} else {
		fs = append(fs, fact{"--count", "off"})
	}
	return fs
}

// allOnce refuses a shard given twice, a bench in two shards, and a
// shard missing.
func allOnce(shards []Shard) error {
	byK, where := map[int]string{}, map[string]string{}
	for _, s := range shards {
		k := s.Report.Shard.Index
		if f, ok := byK[k]; ok {
			return refuse(s.File, "shard %d/%d is given twice (also %s)", k, s.Report.Shard.Total, f)
		}
		byK[k] = s.File
		for _, b := range s.Report.Benches {
			if f, ok := where[b.Name]; ok {
				return refuse(s.File, "bench %s is in two shards (also %s)", b.Name, f)
			}
			where[b.Name] = s.File
		}
	}
	n := shards[0].Report.Shard.Total
	var missing []string
	for k := 1; k <= n; k++ {
		if byK[k] == "" {
			missing = append(missing, fmt.Sprint(k))
		}
	}
	if len(missing) > 0 {
		return refuse(shards[0].File, "the run has %d shards and shard(s) %s of them are missing; give every shard's report", n, strings.Join(missing, ", "))
	}
	return nil
}

// onceEach refuses, over the shard fields of one verb's shards (files in
// the same order), a shard given twice, a unit (noun: a bench, a pair) in
// two shards' parts, and a shard missing.
func onceEach(verb, noun, kind string, files []string, fields []*report.Shard) error {
	byK, where := map[int]string{}, map[string]string{}
	for i, sh := range fields {
		if f, ok := byK[sh.Index]; ok {
			return refuse(files[i], "shard %d/%d is given twice (also %s)", sh.Index, sh.Total, f)
		}
		byK[sh.Index] = files[i]
		for _, name := range sh.Benches {
			if f, ok := where[name]; ok {
				return refuse(files[i], "%s %s is in two shards (also %s)", noun, name, f)
			}
			where[name] = files[i]
		}
	}
	var missing []string
	for k := 1; k <= fields[0].Total; k++ {
		if byK[k] == "" {
			missing = append(missing, fmt.Sprint(k))
		}
	}
	if len(missing) > 0 {
		return refuse(files[0], "the %s has %d shards and shard(s) %s of them are missing; give every shard's %s", verb, fields[0].Total, strings.Join(missing, ", "), kind)
	}
	return nil
}
