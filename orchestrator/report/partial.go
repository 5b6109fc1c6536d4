package report

import (
	"os"
	"path/filepath"
	"sync"
	"time"
)

// Partial is where a verb writes its reports and when the first signal
// came, for the hard exit to say whether the partial report was written.
// Its zero value is a verb that writes none; it is safe for concurrent use
// (the signal handler reads it while the verb runs).
type Partial struct {
	mu       sync.Mutex
	dir      string
	signaled time.Time
}

// GoTo says where this verb's reports go.
func (p *Partial) GoTo(dir string) {
	p.mu.Lock()
	p.dir = dir
	p.mu.Unlock()
}

// Signaled records when the first signal came.
func (p *Partial) Signaled(at time.Time) {
	p.mu.Lock()
	p.signaled = at
	p.mu.Unlock()
}

// Written says which report the run wrote after the first signal, or
// plainly that it wrote none.
func (p *Partial) Written() string {
	p.mu.Lock()
	dir, since := p.dir, p.signaled
	p.mu.Unlock()
	if dir == "" {
		return "no report: this verb writes none"
	}
	paths, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	for _, path := range paths {
		if fi, err := os.Stat(path); err == nil && !fi.ModTime().Before(since) {
			return "partial report written: " + path
		}
	}
	return "NO partial report was written: the run was stopped before it could write one (what it measured is lost; run again)"
}
