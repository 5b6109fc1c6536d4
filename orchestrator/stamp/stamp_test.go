package stamp

import (
	"runtime/debug"
	"strings"
	"testing"
)

const (
	commitA = "e43c9db8f8a9a452b114cb59c31f8743584a09e6"
	commitB = "8e29a8700000000000000000000000000000abcd"
)

// A binary's build info and what was set at link time make its Tool: the
// VCS settings go build stamps, overridden by -X values; none stamped
// leaves the commit empty.
func TestToolOfBuildInfo(t *testing.T) {
	stamped := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v0.0.0-20261207-e43c9db8f8a9+dirty"},
		Settings: []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: commitA},
			{Key: "vcs.time", Value: "2026-12-07T04:00:00Z"}, {Key: "vcs.modified", Value: "true"}}}
	bare := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}}
	for _, c := range []struct {
		name                   string
		bi                     *debug.BuildInfo
		version, commit, dirty string
		want                   Tool
	}{
		{"stamped by go build", stamped, "", "", "",
			Tool{Version: "v0.0.0-20261207-e43c9db8f8a9+dirty", Commit: commitA, CommitTime: "2026-12-07T04:00:00Z", Dirty: true, Go: "go1.26.8"}},
		{"a release's version", stamped, "v1.2.0", "", "",
			Tool{Version: "v1.2.0", Commit: commitA, CommitTime: "2026-12-07T04:00:00Z", Dirty: true, Go: "go1.26.8"}},
		{"no VCS information (go run, -buildvcs=false, a worktree)", bare, "", "", "",
			Tool{Version: "(devel)", Go: "go1.26.8"}},
		{"make build in a worktree: commit and dirty at link time", bare, "", strings.ToUpper(commitB), "false",
			Tool{Version: "(devel)", Commit: commitB, Go: "go1.26.8"}},
		{"link-time dirty over a stamped commit", stamped, "", commitA, "false",
			Tool{Version: "v0.0.0-20261207-e43c9db8f8a9+dirty", Commit: commitA, CommitTime: "2026-12-07T04:00:00Z", Go: "go1.26.8"}},
		{"a link-time commit that is no object name is ignored", bare, "", "HEAD", "true",
			Tool{Version: "(devel)", Go: "go1.26.8"}},
		{"no build info at all", nil, "", "", "", Tool{Version: "(devel)", Go: This().Go}},
	} {
		got := toolOf(c.bi, c.version, c.commit, c.dirty)
		if got != c.want {
			t.Errorf("%s:\n got %+v\nwant %+v", c.name, got, c.want)
		}
		if err := got.Check(); err != nil {
			t.Errorf("%s: its own tool is refused: %v", c.name, err)
		}
	}
	if long := toolOf(bare, strings.Repeat("é", MaxToolText), "", ""); long.Check() != nil {
		t.Errorf("an overlong version is not cut to what Check accepts: %d bytes", len(long.Version))
	}
}

func TestToolCheck(t *testing.T) {
	for _, c := range []struct {
		tool *Tool
		bad  string
	}{
		{nil, ""},
		{&Tool{Version: "v1", Commit: commitA}, ""},
		{&Tool{Version: "v1", Commit: commitA + commitA[:24]}, ""}, // SHA-256
		{&Tool{Version: "v1", Commit: "abc"}, "not a git commit"},
		{&Tool{Version: "v1", Commit: "\x1b[2J" + commitA[5:]}, "not a git commit"},
		{&Tool{Version: strings.Repeat("v", MaxToolText+1)}, "halebench.version"},
		{&Tool{Version: "v1", Go: "\xff"}, "halebench.go"},
	} {
		err := c.tool.Check()
		if (c.bad == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), c.bad)) {
			t.Errorf("%+v: %v, want %q", c.tool, err, c.bad)
		}
		if err != nil && strings.Contains(err.Error(), "\x1b") {
			t.Errorf("the refusal carries the escape: %q", err)
		}
	}
}

// verify and replay say when a report was made by another halebench,
// naming both; the same clean commit says nothing.
func TestAnother(t *testing.T) {
	now := &Tool{Version: "v1", Commit: commitA}
	for _, c := range []struct {
		name      string
		made, now *Tool
		want      []string // in the note; none: no note
	}{
		{"the same", &Tool{Version: "v1", Commit: commitA}, now, nil},
		{"the same, upper-case", &Tool{Version: "v1", Commit: strings.ToUpper(commitA)}, now, nil},
		{"another commit", &Tool{Version: "v0", Commit: commitB}, now, []string{"a different commit", commitB, commitA}},
		{"made dirty", &Tool{Version: "v1", Commit: commitA, Dirty: true}, now, []string{"uncommitted changes", "dirty"}},
		{"this one dirty", now, &Tool{Version: "v1", Commit: commitA, Dirty: true}, []string{"uncommitted changes"}},
		{"another version", &Tool{Version: "v0.9", Commit: commitA}, now, []string{"a different version", "v0.9"}},
		{"an older report", nil, now, []string{"does not say", commitA}},
		{"this one unstamped", &Tool{Version: "v1", Commit: commitA}, &Tool{Version: "(devel)"}, []string{"cannot tell", commitA, "no VCS information"}},
		{"a hostile version", &Tool{Version: "v1\x1b]0;x\x07\nfake", Commit: commitB}, now, []string{"a different commit"}},
	} {
		got := Another(c.made, c.now)
		if (got == "") != (c.want == nil) {
			t.Errorf("%s: %q", c.name, got)
		}
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: %q lacks %q", c.name, got, w)
			}
		}
		if strings.ContainsAny(got, "\x1b\x07\n") {
			t.Errorf("%s: the note carries control characters: %q", c.name, got)
		}
	}
}
