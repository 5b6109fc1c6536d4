package ab

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/image"
	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/render"
	"github.com/hale-lang/halebench/orchestrator/subject"
)

// --html=PATH writes the page through no link: a symlink at PATH is
// refused and its target kept.
func TestOutputsHTMLFollowsNoLink(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(dir, "victim")
	os.WriteFile(victim, []byte("keep"), 0o644)
	link := filepath.Join(dir, "ab.html")
	os.Symlink(victim, link)
	o := Outputs{HTML: link, JSON: true}
	res := &Result{A: "a", B: "b"}
	var out strings.Builder
	if err := o.show(res, &out); err == nil || !strings.Contains(err.Error(), "symlink") {
		t.Errorf("--html at a symlink: %v, want it refused", err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep" {
		t.Fatalf("the link was followed: %q", b)
	}
	os.Remove(link)
	if err := o.show(res, &out); err != nil {
		t.Fatal(err)
	}
	// The page is the one generator's: the run page's policy.
	if b, _ := os.ReadFile(link); !strings.Contains(string(b), `<meta http-equiv="Content-Security-Policy" content="`+strings.ReplaceAll(render.CSP, "'", "&#39;")+`">`) {
		t.Fatalf("the page has not the run page's policy: %.300q", b)
	}
}

// The result is stored and said; the run's own error comes first, a
// folder it cannot be stored in next, and --fail-on-slower only when all
// else went well.
func TestOutputsGive(t *testing.T) {
	slower := &Result{A: "a", B: "b", RunID: "ab-x-1", GeneratedAt: "2026-12-06T10:11:12Z", Benches: []Bench{{Name: "n", Lang: "c", Verdict: outcome.Slower}}}
	dir := t.TempDir()
	var out, log strings.Builder
	if err := (Outputs{Results: dir, Markdown: true, FailOnSlower: true}).Give(slower, nil, &out, &log); err != ErrSlower {
		t.Errorf("slower: %v", err)
	}
	if stored, _ := filepath.Glob(filepath.Join(dir, "ab-*.json")); len(stored) != 1 || log.String() != "result: "+stored[0]+"\n" || !strings.HasPrefix(out.String(), "### Performance") {
		t.Errorf("stored %v, said %q, shown %.20q", stored, log.String(), out.String())
	}
	runErr := errors.New("interrupted")
	if err := (Outputs{Results: dir, FailOnSlower: true}).Give(slower, runErr, &out, &log); err != runErr {
		t.Errorf("the run's error: %v", err)
	}
	file := filepath.Join(dir, "file")
	os.WriteFile(file, nil, 0o644)
	log.Reset()
	if err := (Outputs{Results: file, FailOnSlower: true}).Give(slower, nil, &out, &log); err == nil || err == ErrSlower || !strings.HasPrefix(log.String(), "ab: the result was not stored: ") {
		t.Errorf("not stored: %v, said %q", err, log.String())
	}
}

// Both sides as the flags choose them; A's refusal before B's.
func TestSides(t *testing.T) {
	a, b, err := Sides([2]Choice{{}, {Suite: "b-suite"}}, "suite", "", image.Options{}, subject.Build{})
	if err != nil || a.Suite != "suite" || b.Suite != "b-suite" {
		t.Errorf("%+v %+v %v", a, b, err)
	}
	if _, _, err := Sides([2]Choice{{Src: "/no/a"}, {Src: "/no/b"}}, "suite", "", image.Options{}, subject.Build{}); err == nil || !strings.Contains(err.Error(), "--a-src") {
		t.Errorf("A first: %v", err)
	}
}
