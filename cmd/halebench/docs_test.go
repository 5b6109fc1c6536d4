package main

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// foreignFlags are flags the docs name that belong to other programs
// (Valgrind, git, docker, kubectl, hale's compiler), not to halebench.
var foreignFlags = map[string]bool{
	"--cache-sim": true, "--collect-atstart": true, "--fair-sched": true, "--log-fd": true, "--vgdb": true,
	"--trace-children": true, "--first-parent": true, "--privileged": true, "--rm": true,
	"--target-cpu": true, "--version": true, "--log-socket": true, "--mount": true, "--network": true,
	"--instr-at-start": true, "--chown": true, "--from": true, "--for": true,
	"--toggle-collect": true, // Callgrind's, named where docs/security.md says why VALGRIND_OPTS is refused
	"--host":           true, // dockerd's, in the Kubernetes recipe's docker:dind sidecar
	"--user":           true, // docker run's, in the CI recipes (the runner's uid and gid)
	"--group-add":      true, // docker run's, in the CI recipes (the engine socket's group)
	"--from-literal":   true, // kubectl create secret's, in the Kubernetes recipe
	"--build-arg":      true, // docker build's, in the README
}

// TestDocsMatchHelp holds README.md and docs/*.md to the binary: every verb
// `halebench help` lists is in the README, and every --flag the docs name
// is a flag of some verb (or another program's, listed above), so a flag
// renamed or removed in the code fails here until the docs follow.
func TestDocsMatchHelp(t *testing.T) {
	docs := readDocs(t)
	code, usage, _ := run(t, nil, "help")
	if code != 0 {
		t.Fatalf("help exited %d", code)
	}
	verbs := regexp.MustCompile(`(?m)^  halebench ([a-z-]+)`).FindAllStringSubmatch(usage, -1)
	known := map[string]bool{}
	for _, m := range verbs {
		verb := m[1]
		if verb == "help" {
			continue
		}
		if !strings.Contains(docs["README.md"], "`"+verb+"`") {
			t.Errorf("README.md does not name the verb `%s`", verb)
		}
		_, out, _ := run(t, nil, "help", verb)
		for _, f := range regexp.MustCompile(`(?m)^  -([a-z0-9-]+)`).FindAllStringSubmatch(out, -1) {
			known["--"+f[1]] = true
		}
	}
	if len(known) < 20 {
		t.Fatalf("read only %d flags from the verbs' help: is its format changed?", len(known))
	}
	flagRe := regexp.MustCompile(`(?:^|[^A-Za-z0-9-])(--[a-z][a-z0-9-]*[a-z0-9])(-\*)?`)
	var unknown []string
	for name, text := range docs {
		for _, m := range flagRe.FindAllStringSubmatch(text, -1) {
			if f := m[1]; !known[f] && !foreignFlags[f] && !(m[2] != "" && anyPrefixed(known, f+"-")) {
				unknown = append(unknown, name+": "+f)
			}
		}
	}
	sort.Strings(unknown)
	for _, u := range dedup(unknown) {
		t.Errorf("%s is no flag of any verb (halebench help VERB)", u)
	}
	for _, cmd := range []string{"make bench", "make test"} {
		if !strings.Contains(docs["README.md"], "\n"+cmd+" ") {
			t.Errorf("README.md's commands block lacks %q (.ci/run runs the README's make test)", cmd)
		}
	}
}

// readDocs reads README.md and every docs/*.md, keyed by path.
func readDocs(t *testing.T) map[string]string {
	t.Helper()
	paths, err := filepath.Glob("../../docs/*.md")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no docs/*.md (%v)", err)
	}
	docs := map[string]string{}
	for _, p := range append(paths, "../../README.md") {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		docs[strings.TrimPrefix(p, "../../")] = string(data)
	}
	return docs
}

// anyPrefixed says whether a known flag starts with prefix (`--hale-*`).
func anyPrefixed(known map[string]bool, prefix string) bool {
	for f := range known {
		if strings.HasPrefix(f, prefix) {
			return true
		}
	}
	return false
}

func dedup(s []string) []string {
	var out []string
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}

// Every flag's placeholder in `halebench help VERB` is a type (string,
// int, duration…) or a word in capitals (SIZE, FILE): Go's flag package
// takes the first back-quoted word of a usage as its placeholder, so a
// usage quoting a value (`oom`, `same`) prints -memory oom.
func TestHelpPlaceholders(t *testing.T) {
	types := map[string]bool{"string": true, "int": true, "uint": true, "int64": true, "uint64": true, "float": true, "duration": true}
	_, usage, _ := run(t, nil, "help")
	n := 0
	for _, m := range regexp.MustCompile(`(?m)^  halebench ([a-z-]+)`).FindAllStringSubmatch(usage, -1) {
		if m[1] == "help" {
			continue
		}
		_, out, _ := run(t, nil, "help", m[1])
		for _, f := range regexp.MustCompile(`(?m)^  -([a-z0-9-]+) (\S+)$`).FindAllStringSubmatch(out, -1) {
			n++
			if p := f[2]; !types[p] && p != strings.ToUpper(p) {
				t.Errorf("halebench help %s: -%s %s: a placeholder neither a type nor a word in capitals (reword the usage's back-quoted word)", m[1], f[1], p)
			}
		}
	}
	if n < 50 {
		t.Fatalf("read only %d placeholders from the verbs' help: is its format changed?", n)
	}
}

// flagTables are the docs pages that hold a verb's table of flags.
var flagTables = map[string]string{"run": "docs/run.md", "images": "docs/images.md", "prune": "docs/images.md"}

// Every flag of a verb (its FlagSet, as `halebench help VERB` lists it) is
// in the first cell of a row of its docs page's flag table, so a flag added
// in the code fails here until the table names it.
func TestFlagTables(t *testing.T) {
	docs := readDocs(t)
	cell := regexp.MustCompile("`--([a-z0-9-]+)")
	for verb, page := range flagTables {
		named := map[string]bool{}
		for _, l := range strings.Split(docs[page], "\n") {
			if !strings.HasPrefix(l, "| `--") {
				continue
			}
			first := strings.SplitN(strings.ReplaceAll(l, `\|`, "/"), "|", 3)[1]
			for _, m := range cell.FindAllStringSubmatch(first, -1) {
				named[m[1]] = true
			}
		}
		_, out, _ := run(t, nil, "help", verb)
		flags := regexp.MustCompile(`(?m)^  -([a-z0-9-]+)`).FindAllStringSubmatch(out, -1)
		if len(flags) < 3 {
			t.Fatalf("halebench help %s lists %d flags: is its format changed?", verb, len(flags))
		}
		for _, f := range flags {
			if !named[f[1]] {
				t.Errorf("%s's flag table has no row for --%s (halebench help %s)", page, f[1], verb)
			}
		}
	}
}

// No paragraph of a docs page (outside code blocks) is said twice in it: a
// merge that kept both sides of a conflict leaves one.
func TestDocsNoRepeatedParagraph(t *testing.T) {
	fence := regexp.MustCompile("(?s)```.*?```")
	for name, text := range readDocs(t) {
		seen := map[string]bool{}
		for _, p := range strings.Split(fence.ReplaceAllString(text, ""), "\n\n") {
			p = strings.Join(strings.Fields(p), " ")
			if len(p) < 40 {
				continue
			}
			if seen[p] {
				t.Errorf("%s says twice: %.120s", name, p)
			}
			seen[p] = true
		}
	}
}

// Every package, folder or file the Makefile names exists, and a test it
// names as "TestX (package)" is in that package: a package renamed or
// folded into another fails here until the Makefile follows.
func TestMakefilePaths(t *testing.T) {
	data, err := os.ReadFile("../../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	mk := string(data)
	paths := regexp.MustCompile(`(?:^|[\s(])\.?/?((?:cmd|orchestrator|tools|images|benches|xproc|docs)/[A-Za-z0-9_./-]*[A-Za-z0-9_])`).FindAllStringSubmatch(mk, -1)
	tests := regexp.MustCompile(`(Test[A-Za-z0-9_]+) \(([a-z0-9/]+)\)`).FindAllStringSubmatch(mk, -1)
	if len(paths) < 2 || len(tests) < 2 {
		t.Fatalf("read %d paths and %d named tests from the Makefile: is its wording changed?", len(paths), len(tests))
	}
	for _, m := range paths {
		if _, err := os.Stat(filepath.Join("../..", m[1])); err != nil {
			t.Errorf("the Makefile names %s: %v", m[1], err)
		}
	}
	for _, m := range tests {
		files, _ := filepath.Glob(filepath.Join("../..", m[2], "*_test.go"))
		found := false
		for _, f := range files {
			src, err := os.ReadFile(f)
			if err == nil && strings.Contains(string(src), "func "+m[1]+"(") {
				found = true
			}
		}
		if !found {
			t.Errorf("the Makefile says %s is in %s: no such test there", m[1], m[2])
		}
	}
}
