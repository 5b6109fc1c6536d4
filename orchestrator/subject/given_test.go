package subject

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/image"
)

// A hale input given by flag must be there (a URL is the clone's to try);
// none given defaults to ../hale beside the suite; the flags are checked
// before the environment's epoch is read.
func TestBuildGiven(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	os.WriteFile(file, nil, 0o644)
	for _, c := range []struct {
		b    Build
		want string
	}{
		{Build{Src: dir + "/absent"}, "--hale-src=" + dir + "/absent: stat"},
		{Build{Vendor: file}, "--hale-vendor=" + file + " is not a folder"},
		{Build{Git: dir + "/absent"}, "--hale-git=" + dir + "/absent: stat"},
		{Build{Git: "https://example.invalid/hale.git"}, ""},
		{Build{Git: "git@example.invalid:hale.git"}, ""},
		{Build{Src: dir, Vendor: dir, Git: dir}, ""},
	} {
		if err := c.b.Check(); (c.want == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.b, err, c.want)
		}
	}
	if b := (Build{}).Defaulted("suite"); b.Src != filepath.Join("suite", "..", "hale") || !b.SrcDefault {
		t.Errorf("none given: %+v", b)
	}
	if b := (Build{Image: "hale:x"}).Defaulted("suite"); b.Src != "" || b.SrcDefault {
		t.Errorf("an image given: %+v", b)
	}
	t.Setenv("SOURCE_DATE_EPOCH", "soon")
	if _, _, err := (Build{Src: file}).ImageOptions(image.Given{}, "suite"); err == nil || !strings.Contains(err.Error(), "--hale-src") {
		t.Errorf("a bad flag and a bad epoch: %v, want the flag first", err)
	}
	t.Setenv("SOURCE_DATE_EPOCH", "")
	o, _, err := (Build{}).ImageOptions(image.Given{}, "suite")
	if b, ok := o.Subject.(Build); err != nil || !ok || !b.SrcDefault {
		t.Errorf("the defaulted build: %+v %v", o.Subject, err)
	}
}
