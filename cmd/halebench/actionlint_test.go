package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// actionlintVersion is the actionlint TestActionlint installs through the
// Go module proxy.
const actionlintVersion = "v1.7.12"

// The GitHub recipes (the README's workflow, docs/recipes/github-shards.yml)
// pass actionlint: expressions, contexts (github.ref_protected), the
// actions' inputs and outputs, and each run: line (with shellcheck, where
// it is on PATH). Skipped, saying why, where actionlint cannot be
// installed; never with CI=true.
func TestActionlint(t *testing.T) {
	dir := t.TempDir()
	install := exec.Command("go", "install", "github.com/rhysd/actionlint/cmd/actionlint@"+actionlintVersion)
	install.Env = append(os.Environ(), "GOBIN="+dir)
	if out, err := install.CombinedOutput(); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true and actionlint %s could not be installed: %v\n%s", actionlintVersion, err, out)
		}
		t.Skipf("actionlint %s could not be installed through the Go module proxy (%v): %s", actionlintVersion, err, out)
	}
	shards, err := os.ReadFile("../../docs/recipes/github-shards.yml")
	if err != nil {
		t.Fatal(err)
	}
	workflows := filepath.Join(dir, ".github", "workflows")
	if err := os.MkdirAll(workflows, 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{"readme.yml": readmeGitHubYAML(t), "github-shards.yml": string(shards)}
	var args []string
	for name, text := range files {
		f := filepath.Join(workflows, name)
		if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		args = append(args, f)
	}
	lint := exec.Command(filepath.Join(dir, "actionlint"), append([]string{"-no-color"}, args...)...)
	lint.Dir = dir
	if out, err := lint.CombinedOutput(); err != nil {
		t.Errorf("actionlint %s: %v\n%s", actionlintVersion, err, out)
	}
}
