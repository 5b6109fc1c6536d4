package image

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/suite"
)

// keyed is a SubjectBuild that only names its inputs.
type keyed []string

func (k keyed) CacheKey() []string { return k }

func (k keyed) Toolchain(context.Context, *Builder, Toolchain, suite.Language) (Toolchain, error) {
	panic("keyed builds nothing")
}

// The key a CI cache step uses is the same for the same inputs and moves
// with a bench's source, the epoch and the hale inputs.
func TestCacheKey(t *testing.T) {
	suite := t.TempDir()
	src := filepath.Join(suite, "benches", "micro", "a.c")
	os.MkdirAll(filepath.Dir(src), 0o755)
	os.WriteFile(src, []byte("int main(){return 0;}"), 0o644)
	o := Options{SourceDateEpoch: 1, Mirror: DefaultMirror, Subject: keyed{"", "", "v0.17.0", "", ""}}
	key := func(o Options) string {
		t.Helper()
		k, err := CacheKey(o, suite)
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	k := key(o)
	if len(k) != 64 || key(o) != k {
		t.Fatalf("key %q is not a stable sha256", k)
	}
	moved := o
	moved.SourceDateEpoch = 2
	hale := o
	hale.Subject = keyed{"", "", "v0.13.0", "", ""}
	none, empty := o, o
	none.Subject, empty.Subject = nil, keyed{"", "", "", "", ""}
	if key(none) != key(empty) {
		t.Error("no subject build keys otherwise than one of empty inputs (a key of before Options.Subject would move)")
	}
	for what, other := range map[string]string{"epoch": key(moved), "hale ref": key(hale)} {
		if other == k {
			t.Errorf("the key does not move with the %s", what)
		}
	}
	os.WriteFile(src, []byte("int main(){return 1;}"), 0o644)
	if key(o) == k {
		t.Error("the key does not move with a bench's source")
	}
	os.Symlink("/etc/passwd", filepath.Join(suite, "benches", "link.c"))
	if _, err := CacheKey(o, suite); err != nil {
		t.Errorf("a link among the benches: %v (it is named, not followed)", err)
	}
}

// In the seed's layout the key moves with a bench's source and with a file
// moved between kind folders, not with the suite's README or results.
func TestCacheKeySeedLayout(t *testing.T) {
	suite := t.TempDir()
	write := func(rel, body string) {
		p := filepath.Join(suite, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(body), 0o644)
	}
	write("micro/a.c", "int main(){return 0;}")
	write("app/b.c", "int main(){return 0;}")
	o := Options{SourceDateEpoch: 1, Mirror: DefaultMirror, Subject: keyed{"", "", "v0.17.0", "", ""}}
	key := func() string {
		t.Helper()
		k, err := CacheKey(o, suite)
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	k := key()
	write("README.md", "notes")
	write("results/run.json", "{}")
	if key() != k {
		t.Error("the key moves with the README or results/")
	}
	write("micro/a.c", "int main(){return 1;}")
	k2 := key()
	if k2 == k {
		t.Error("the key does not move with a bench's source")
	}
	os.Remove(filepath.Join(suite, "micro", "a.c"))
	write("app/a.c", "int main(){return 1;}")
	if key() == k2 {
		t.Error("the key does not move with a bench moved from micro/ to app/")
	}
}
