package report

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
	var p Partial
	if got := p.Written(); !strings.Contains(got, "writes none") {
		t.Fatalf("no results folder: %q", got)
	}
	p.GoTo(dir)
	p.Signaled(time.Now().Add(-time.Second))
	if got := p.Written(); !strings.HasPrefix(got, "NO partial report was written") {
		t.Fatalf("only an older report: %q", got)
	}
	fresh := filepath.Join(dir, "run-new.json")
	os.WriteFile(fresh, []byte("{}"), 0o644)
	if got := p.Written(); got != "partial report written: "+fresh {
		t.Fatalf("a report since the signal: %q", got)
	}
}
