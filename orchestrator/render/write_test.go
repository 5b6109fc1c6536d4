package render

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/report"
)

// The page is written through no link: not a planted PATH.tmp (the name
// it once wrote to first), not a symlink at PATH itself.
func TestWriteFileFollowsNoLink(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(t.TempDir(), "victim")
	os.WriteFile(victim, []byte("keep"), 0o644)
	page := filepath.Join(dir, "report.html")
	os.Symlink(victim, page+".tmp")
	runs := []*Run{{Path: "run.json", Report: &report.Report{Subject: "c", GeneratedAt: "2026-12-02T00:00:00Z"}}}
	if err := WriteFile(page, runs); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(page); !strings.Contains(string(b), "<html") {
		t.Fatalf("the page: %.80q", b)
	}
	linked := filepath.Join(dir, "linked.html")
	os.Symlink(victim, linked)
	if err := WriteFile(linked, runs); err == nil || !strings.Contains(err.Error(), "symlink") {
		t.Errorf("a linked page: %v, want it refused", err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep" {
		t.Fatalf("a link was followed: the victim holds %.80q", b)
	}
}

// report's page goes to stdout, or to -o's file, said with how many
// reports it draws.
func TestPage(t *testing.T) {
	runs, err := LoadAll([]string{fixture}, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	var out, log strings.Builder
	if err := Page(&out, &log, "", Source{Runs: runs}); err != nil || !strings.HasPrefix(out.String(), "<!DOCTYPE html>") || log.Len() != 0 {
		t.Errorf("stdout: %v %.20q, said %q", err, out.String(), log.String())
	}
	path := filepath.Join(t.TempDir(), "page.html")
	if err := Page(&out, &log, path, Source{Runs: runs}); err != nil || log.String() != "report: "+path+" (1 report(s))\n" {
		t.Errorf("-o: %v, said %q", err, log.String())
	}
	if st, err := os.Stat(path); err != nil || st.Size() == 0 {
		t.Errorf("%s: %v", path, err)
	}
}
