package stamp

import (
	"encoding/hex"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/hale-lang/halebench/orchestrator/termtext"
)

// Set at link time, these override what the build info says (make build
// sets Commit and Dirty from git; a release sets Version):
//
//	go build -ldflags "-X github.com/hale-lang/halebench/orchestrator/stamp.Version=v1.2.0" ./cmd/halebench
//
// Otherwise the build info's main module version is used (go build in a
// git checkout stamps a pseudo-version, "+dirty" when the tree had
// uncommitted changes; go run and go test stamp "(devel)"), and its VCS
// settings. go build stamps those only in a checkout whose .git is a
// folder (not in a linked `git worktree`, whose .git is a file) and not
// with -buildvcs=false: there the link-time Commit is how a binary knows
// its commit. A Commit that is no git object name is ignored.
var Version, Commit, Dirty string

// Tool is which halebench wrote a document: every document halebench
// writes carries one in its header ("halebench"), so a report names the
// tool that made it as it names the images. Commit, CommitTime and Dirty
// are the VCS facts go build stamped into the binary (vcs.revision,
// vcs.time, vcs.modified); a binary built with go run, with
// -buildvcs=false or outside a git checkout has none, and then Commit is
// empty and Dirty says nothing.
type Tool struct {
	Version    string `json:"version"`
	Commit     string `json:"commit,omitempty"`
	CommitTime string `json:"commit_time,omitempty"`
	Dirty      bool   `json:"dirty"`
	Go         string `json:"go,omitempty"` // the Go toolchain that built it
}

// NoVCS is what a Tool without a commit says of itself.
const NoVCS = "no VCS information stamped (built with go run, with -buildvcs=false, in a linked git worktree or outside a git checkout; make build stamps it)"

var this = sync.OnceValue(func() Tool {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		bi = nil
	}
	return toolOf(bi, Version, Commit, Dirty)
})

// This is the halebench this process is: a fresh copy, for a document's
// header.
func This() *Tool {
	t := this()
	return &t
}

// toolOf is the Tool a build info describes (nil: the binary carries
// none), with what was set at link time (version, commit, dirty) over it.
func toolOf(bi *debug.BuildInfo, version, commit, dirty string) Tool {
	t := Tool{Version: "(devel)", Go: runtime.Version()}
	if bi != nil {
		if bi.GoVersion != "" {
			t.Go = bi.GoVersion
		}
		if bi.Main.Version != "" {
			t.Version = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				t.Commit = s.Value
			case "vcs.time":
				t.CommitTime = s.Value
			case "vcs.modified":
				t.Dirty = s.Value == "true"
			}
		}
	}
	if version != "" {
		t.Version = version
	}
	if isCommit(commit) && !strings.EqualFold(commit, t.Commit) {
		t.Commit, t.CommitTime, t.Dirty = strings.ToLower(commit), "", false
	}
	if t.Commit != "" && dirty != "" {
		t.Dirty = dirty == "true"
	}
	if len(t.Version) > MaxToolText || !utf8.ValidString(t.Version) { // as Check would refuse it
		t.Version = strings.ToValidUTF8(t.Version[:min(len(t.Version), MaxToolText-3)], "?")
	}
	return t
}

// isCommit says whether s is a git object name: 40 (SHA-1) or 64
// (SHA-256) hex digits.
func isCommit(s string) bool {
	_, err := hex.DecodeString(s)
	return err == nil && (len(s) == 40 || len(s) == 64)
}

// String is the tool in one line: its version, commit and whether its
// tree was dirty. Its text is made safe for a terminal (a Tool may come
// from a stored document).
func (t *Tool) String() string {
	if t == nil {
		return "an unnamed halebench"
	}
	s := "halebench " + termtext.Line(t.Version)
	switch {
	case t.Commit == "":
		return s + " (" + NoVCS + ")"
	case t.Dirty:
		return s + " (commit " + termtext.Line(t.Commit) + ", dirty: uncommitted changes)"
	default:
		return s + " (commit " + termtext.Line(t.Commit) + ")"
	}
}

// MaxToolText bounds a stored Tool's strings.
const MaxToolText = 256

// Check refuses a stored Tool no halebench wrote: text over MaxToolText
// bytes or not UTF-8, a commit that is no hex object name.
func (t *Tool) Check() error {
	if t == nil {
		return nil
	}
	for name, v := range map[string]string{"version": t.Version, "commit_time": t.CommitTime, "go": t.Go} {
		if len(v) > MaxToolText || !utf8.ValidString(v) {
			return fmt.Errorf("halebench.%s is not a version (over %d bytes or not UTF-8)", name, MaxToolText)
		}
	}
	if t.Commit != "" {
		if !isCommit(t.Commit) {
			return fmt.Errorf("halebench.commit %q is not a git commit (40 or 64 hex digits)", termtext.Clip(termtext.Line(t.Commit), 80))
		}
	}
	return nil
}

// Another says, when a document made by made was made by another
// halebench than now, why, naming both (as verify and replay note it);
// "" when it was the same one: the same commit, both clean, the same
// version. A document that names no halebench (written before reports
// recorded it), or either binary without VCS information, cannot be shown
// to be the same, so it gets a note too.
func Another(made, now *Tool) string {
	both := fmt.Sprintf("it was made by %s; this is %s", made, now)
	switch {
	case made == nil:
		return "the report does not say which halebench made it (it predates the field); this is " + now.String()
	case made.Commit == "" || now.Commit == "":
		return "cannot tell whether the same halebench made the report: " + both
	case !strings.EqualFold(made.Commit, now.Commit):
		return "the report was made by another halebench (a different commit): " + both
	case made.Dirty || now.Dirty:
		return "the report was made at the same commit, but from a tree with uncommitted changes, so perhaps by another halebench: " + both
	case made.Version != now.Version:
		return "the report was made by another halebench (a different version): " + both
	}
	return ""
}

// Text writes t as `halebench version` shows it: the version, then the
// commit, its time and whether the tree was dirty, or that none was
// stamped, then the Go that built it.
func (t Tool) Text(w io.Writer) {
	fmt.Fprintln(w, "halebench", t.Version)
	if t.Commit == "" {
		fmt.Fprintln(w, "commit:   none:", NoVCS)
	} else {
		fmt.Fprintln(w, "commit:  ", t.Commit)
		if t.CommitTime != "" {
			fmt.Fprintln(w, "time:    ", t.CommitTime)
		}
		dirty := "no"
		if t.Dirty {
			dirty = "yes: built from a tree with uncommitted changes"
		}
		fmt.Fprintln(w, "dirty:   ", dirty)
	}
	fmt.Fprintln(w, "go:      ", t.Go)
}
