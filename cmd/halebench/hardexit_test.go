package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// What the hard exit says of the partial report: the file written since
// the first signal by name, plainly none when there is none (an older
// report in the folder is not this run's), and that a verb writes none.
func TestPartialReportSays(t *testing.T) {
	dir := t.TempDir()
	old := filepath.Join(dir, "run-old.json")
	os.WriteFile(old, []byte("{}"), 0o644)
	os.Chtimes(old, time.Now().Add(-time.Hour), time.Now().Add(-time.Hour))
	reportsGoTo("")
	if got := partialReport(); !strings.Contains(got, "writes none") {
		t.Fatalf("no results folder: %q", got)
	}
	reportsGoTo(dir)
	reports.Lock()
	reports.signaled = time.Now().Add(-time.Second)
	reports.Unlock()
	if got := partialReport(); !strings.HasPrefix(got, "NO partial report was written") {
		t.Fatalf("only an older report: %q", got)
	}
	fresh := filepath.Join(dir, "run-new.json")
	os.WriteFile(fresh, []byte("{}"), 0o644)
	if got := partialReport(); got != "partial report written: "+fresh {
		t.Fatalf("a report since the signal: %q", got)
	}
}
