package subject

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReleaseCheck(t *testing.T) {
	cases := []struct {
		name, tag, ws, hale string
		ok                  bool
	}{
		{"all agree", "v0.17.0", "0.17.0", "hale 0.17.0", true},
		{"tag without v", "0.17.0", "0.17.0", "hale 0.17.0", true},
		{"no tag, tree and binary agree", "", "0.17.0", "hale 0.17.0", true},
		{"binary differs", "v0.17.0", "0.17.0", "hale 0.18.0-dev", false},
		{"tree differs from tag", "v0.17.0", "0.16.0", "hale 0.16.0", false},
		{"no version printed", "v0.17.0", "0.17.0", "", false},
		{"no tag, binary differs", "", "0.17.0", "hale 0.17.1", false},
		{"a commit id, tree and binary agree", "16b227e6be965f02a82a435ceb8d61100b7f411a", "0.13.0", "hale 0.13.0", true},
		{"a branch, tree and binary agree", "main", "0.17.0", "hale 0.17.0", true},
		{"a commit id, binary differs", "16b227e6", "0.13.0", "hale 0.14.0", false},
		{"a pre-release tag differs from the tree", "v0.18.0-rc1", "0.17.0", "hale 0.17.0", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			msg, ok := releaseCheck(c.tag, c.ws, c.hale)
			if ok != c.ok {
				t.Fatalf("releaseCheck(%q, %q, %q) = %v (%s), want %v", c.tag, c.ws, c.hale, ok, msg, c.ok)
			}
			if !ok {
				// The warning names all three.
				for _, part := range []string{c.ws, c.hale} {
					if !strings.Contains(msg, part) {
						t.Errorf("message %q does not name %q", msg, part)
					}
				}
				if c.tag != "" && !strings.Contains(msg, c.tag) {
					t.Errorf("message %q does not name tag %q", msg, c.tag)
				}
			}
		})
	}
}

func TestWorkspaceVersion(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "Cargo.toml")
	write(t, p, "[workspace]\nmembers = [\"a\"]\n\n[workspace.package]\nedition = \"2021\"\nversion = \"0.17.0\" # the release\n\n[workspace.dependencies]\nversion = \"9\"\n")
	v, err := workspaceVersion(p)
	if err != nil || v != "0.17.0" {
		t.Fatalf("got %q, %v; want 0.17.0", v, err)
	}
	write(t, p, "[package]\nname = \"x\"\nversion = \"1.0.0\"\n")
	if v, err := workspaceVersion(p); err == nil {
		t.Fatalf("a manifest without [workspace.package] gave %q", v)
	}
}

func TestScanVendorAndPatch(t *testing.T) {
	dir := t.TempDir()
	// a plain source tree that is a workspace with a member crate
	write(t, filepath.Join(dir, "inkwell", "Cargo.toml"), "[package]\nname = \"inkwell\"\nversion = \"0.5.0\"\n\n[workspace]\nmembers = [\"internal_macros\"]\n")
	write(t, filepath.Join(dir, "inkwell", "internal_macros", "Cargo.toml"), "[package]\nname = \"inkwell_internals\"\nversion = \"0.10.0\"\n")
	write(t, filepath.Join(dir, "inkwell", "src", "lib.rs"), "")
	// `cargo vendor` layout, two versions of one crate
	write(t, filepath.Join(dir, "syn", "Cargo.toml"), "[package]\nedition = \"2021\"\nname = \"syn\"\nversion = \"2.0.100\"\n")
	write(t, filepath.Join(dir, "syn-1.0.109", "Cargo.toml"), "[package]\nname = \"syn\"\nversion = \"1.0.109\"\n")
	// a workspace-inherited version
	write(t, filepath.Join(dir, "ts", "Cargo.toml"), "[workspace.package]\nversion = \"0.22.6\"\n\n[workspace]\n")
	write(t, filepath.Join(dir, "ts", "lib", "Cargo.toml"), "[package]\nname = \"tree-sitter\"\nversion.workspace = true\n")
	// not crates
	write(t, filepath.Join(dir, ".git", "Cargo.toml"), "[package]\nname = \"nope\"\n")
	write(t, filepath.Join(dir, "README"), "")

	crates, err := scanVendor(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range crates {
		got = append(got, c.Name+"@"+c.Version+" "+c.Rel)
	}
	want := []string{
		"inkwell@0.5.0 inkwell",
		"inkwell_internals@0.10.0 inkwell/internal_macros",
		"syn@2.0.100 syn",
		"syn@1.0.109 syn-1.0.109",
		"tree-sitter@0.22.6 ts/lib",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("scanVendor:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	patch := patchConfig(crates, "/halebench/vendor")
	for _, line := range []string{
		"[patch.crates-io]",
		`inkwell = { path = "/halebench/vendor/inkwell" }`,
		`inkwell_internals = { path = "/halebench/vendor/inkwell/internal_macros" }`,
		`syn-2_0_100 = { package = "syn", path = "/halebench/vendor/syn" }`,
		`syn-1_0_109 = { package = "syn", path = "/halebench/vendor/syn-1.0.109" }`,
		`tree-sitter = { path = "/halebench/vendor/ts/lib" }`,
	} {
		if !strings.Contains(patch, line+"\n") {
			t.Errorf("patch config lacks %q:\n%s", line, patch)
		}
	}

	if _, err := scanVendor(t.TempDir()); err == nil || !strings.Contains(err.Error(), "holds no crate") {
		t.Fatalf("an empty vendor dir: %v", err)
	}
}

func TestCopyTreeSkipsGitAndTarget(t *testing.T) {
	src, dst := t.TempDir(), filepath.Join(t.TempDir(), "out")
	write(t, filepath.Join(src, "Cargo.toml"), "x")
	write(t, filepath.Join(src, "crates", "a", "build.sh"), "y")
	write(t, filepath.Join(src, ".git", "HEAD"), "z")
	write(t, filepath.Join(src, "target", "release", "hale"), "z")
	if err := os.Chmod(filepath.Join(src, "crates", "a", "build.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("Cargo.toml", filepath.Join(src, "link")); err != nil {
		t.Fatal(err)
	}
	if err := copyTree(src, dst); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(filepath.Join(dst, "crates", "a", "build.sh")); err != nil || st.Mode().Perm() != 0o755 {
		t.Fatalf("build.sh: %v %v", st, err)
	}
	if l, err := os.Readlink(filepath.Join(dst, "link")); err != nil || l != "Cargo.toml" {
		t.Fatalf("link: %q %v", l, err)
	}
	for _, gone := range []string{".git", "target"} {
		if _, err := os.Stat(filepath.Join(dst, gone)); err == nil {
			t.Errorf("%s was copied", gone)
		}
	}
}

func write(t *testing.T, p, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}
