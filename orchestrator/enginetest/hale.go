package enginetest

import (
	"os"
	"testing"
)

// HaleInputs returns the inputs of a real hale-cli build: HALE_GIT (hale's
// git repository, a local bare clone works, holding tag v0.17.0) and
// HALE_VENDOR (the crates Debian lacks, for a build without crates.io). They
// are fetched third-party code kept outside the repo, so a machine may not
// have them: the test skips naming the variable that is missing, even with
// CI=true (the one skip CI allows). A hale-cli build takes minutes, so a
// test that needs one is slow (see Slow): it runs under `make test-slow`.
func HaleInputs(t testing.TB) (git, vendor string) {
	t.Helper()
	Slow(t)
	git, vendor = os.Getenv("HALE_GIT"), os.Getenv("HALE_VENDOR")
	var missing string
	switch {
	case git == "" && vendor == "":
		missing = "HALE_GIT and HALE_VENDOR are"
	case git == "":
		missing = "HALE_GIT is"
	case vendor == "":
		missing = "HALE_VENDOR is"
	}
	if missing != "" {
		t.Skipf("needs a hale-cli build: %s not set (HALE_GIT: hale-lang/hale git repository with tag v0.17.0; HALE_VENDOR: inkwell 0.5.0, llvm-sys 180.0.0, tree-sitter-go 0.21.2 source trees, one folder each)", missing)
	}
	for name, p := range map[string]string{"HALE_GIT": git, "HALE_VENDOR": vendor} {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("%s=%s: %v", name, p, err)
		}
	}
	return git, vendor
}
