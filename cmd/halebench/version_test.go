package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/stamp"
)

const (
	testCommit  = "0123456789abcdef0123456789abcdef01234567"
	otherCommit = "fedcba9876543210fedcba9876543210fedcba98"
)

// stampedBinary is halebench built with its commit and dirty flag set at
// link time, as make build does where go build stamps none (a linked git
// worktree, -buildvcs=false), and a release's version.
func stampedBinary(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "halebench")
	pkg := "github.com/hale-lang/halebench/orchestrator/stamp"
	ld := "-X " + pkg + ".Commit=" + testCommit + " -X " + pkg + ".Dirty=true -X " + pkg + ".Version=v9.8.7"
	if out, err := exec.Command("go", "build", "-ldflags", ld, "-o", p, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return p
}

// `halebench version` and `--version` name the commit the binary was
// built from and whether its tree was dirty; --json is the record every
// document carries. A binary with no VCS stamp says so.
func TestVersion(t *testing.T) {
	stamped := stampedBinary(t)
	for _, args := range [][]string{{"version"}, {"--version"}} {
		out, err := exec.Command(stamped, args...).Output()
		if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		for _, want := range []string{"halebench v9.8.7\n", "commit:   " + testCommit + "\n", "dirty:    yes"} {
			if !strings.Contains(string(out), want) {
				t.Errorf("%v: no %q in\n%s", args, want, out)
			}
		}
	}
	out, err := exec.Command(stamped, "version", "--json").Output()
	var tool stamp.Tool
	if err != nil || json.Unmarshal(out, &tool) != nil || tool != (stamp.Tool{Version: "v9.8.7", Commit: testCommit, Dirty: true, Go: tool.Go}) || tool.Go == "" {
		t.Fatalf("version --json: %v, %+v\n%s", err, tool, out)
	}
	code, out2, _ := run(t, nil, "version")
	if code != 0 || !strings.Contains(out2, "commit:") {
		t.Fatalf("version: exit %d\n%s", code, out2)
	}
	if strings.Contains(out2, "commit:   none") && !strings.Contains(out2, "no VCS information stamped (built with go run, with -buildvcs=false") {
		t.Fatalf("an unstamped binary does not say why:\n%s", out2)
	}
	if code, _, errOut := run(t, nil, "version", "extra"); code != 2 || !strings.Contains(errOut, "unexpected argument") {
		t.Fatalf("version extra: exit %d, %s", code, errOut)
	}
}

// verify notes on stderr, before it dials the engine and without failing
// for it, a report made by another halebench, naming both; a report made
// by this one gets no note.
func TestVerifyNotesAnotherHalebench(t *testing.T) {
	stamped := stampedBinary(t)
	dir := t.TempDir()
	for _, c := range []struct {
		name, tool, want string
	}{
		{"another commit", `{"version":"v1.0.0","commit":"` + otherCommit + `","dirty":false}`, "the report was made by another halebench (a different commit): it was made by halebench v1.0.0 (commit " + otherCommit + "); this is halebench v9.8.7 (commit " + testCommit + ", dirty"},
		{"older", "", "the report does not say which halebench made it"},
		{"this one", `{"version":"v9.8.7","commit":"` + testCommit + `","dirty":true}`, "uncommitted changes"},
	} {
		doc := `{"schema":"halebench-report/1",`
		if c.tool != "" {
			doc += `"halebench":` + c.tool + `,`
		}
		doc += `"generated_at":"2026-12-07T00:00:00Z","subject":"c","base_image":{"reference":"b","id":"sha256:b","origin":"mmdebstrap","inputs":{"source_date_epoch":1}},"benches":[]}`
		p := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "-")+".json")
		if err := os.WriteFile(p, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(stamped, "verify", "--quiet", p)
		cmd.Env = append(os.Environ(), "DOCKER_HOST=unix:///tmp/halebench-no-such.sock")
		var errb strings.Builder
		cmd.Stderr = &errb
		err := cmd.Run()
		errOut := errb.String()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || !strings.Contains(errOut, "engine unreachable") {
			t.Fatalf("%s: %v (want exit 2 at the engine)\n%s", c.name, err, errOut)
		}
		note := strings.Index(errOut, "halebench: note: ")
		if note < 0 || !strings.Contains(errOut, c.want) || note > strings.Index(errOut, "engine unreachable") {
			t.Errorf("%s: no note %q before the engine's error:\n%s", c.name, c.want, errOut)
		}
	}
}
