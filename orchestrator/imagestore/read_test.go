package imagestore

import (
	"archive/tar"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// What the archive's own manifest says is checked against what is
// expected, both ways, without an engine.
func TestRetag(t *testing.T) {
	id := "sha256:" + strings.Repeat("ab", 32)
	other := strings.Repeat("cd", 32)
	images := map[string]string{"halebench/base:x": id}
	renamed := map[string]string{"halebench/base:x": "halebench-replay/r1/base:x"}
	got, err := retag([]byte(`[{"Config": "`+id[7:]+`.json", "RepoTags": ["halebench/base:x"], "Layers": ["l/layer.tar"], "LayerSources": {}}]`), images, renamed)
	if err != nil || !strings.Contains(string(got), `"RepoTags":["halebench-replay/r1/base:x"]`) || !strings.Contains(string(got), `"LayerSources":{}`) {
		t.Fatalf("%s %v", got, err)
	}
	for doc, want := range map[string]string{
		`[{"Config": "blobs/sha256/` + other + `", "RepoTags": []}]`:                             "not expected",
		`[{"Config": "` + id[7:] + `.json", "RepoTags": ["halebench/base:x", "debian:latest"]}]`: "as debian:latest",
		`[]`: "does not hold image halebench/base:x",
		`{}`: "manifest.json",
	} {
		if _, err := retag([]byte(doc), images, renamed); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v, want %q", doc, err, want)
		}
	}
	if err := checkIndex([]byte(`{"manifests": [{"annotations": {"io.containerd.image.name": "docker.io/halebench/toolchain-node:x"}}]}`), images); err == nil {
		t.Error("an index.json naming an unlisted image was accepted")
	}
}

// Only files, folders and docker's own layer links are read; anything else
// refuses the archive before its manifest is looked at.
func TestReadTablesRefusesLinks(t *testing.T) {
	l1, l2 := strings.Repeat("a", 64), strings.Repeat("b", 64)
	reg := func(name string) *tar.Header { return &tar.Header{Name: name, Typeflag: tar.TypeReg, Mode: 0o644} }
	link := func(name, to string) *tar.Header {
		return &tar.Header{Name: name, Typeflag: tar.TypeSymlink, Linkname: to, Mode: 0o777}
	}
	for _, c := range []struct {
		name    string
		entries []*tar.Header
		want    string
	}{
		{"docker's layer link", []*tar.Header{reg(l1 + "/layer.tar"), link(l2+"/layer.tar", "../"+l1+"/layer.tar"), reg("manifest.json")}, ""},
		{"a link to a later layer", []*tar.Header{link(l2+"/layer.tar", "../"+l1+"/layer.tar"), reg(l1 + "/layer.tar")}, ""},
		{"a link to a layer not held", []*tar.Header{link(l2+"/layer.tar", "../"+l1+"/layer.tar")}, "not a layer the archive holds"},
		{"a link to a link", []*tar.Header{link(l2+"/layer.tar", "../"+l1+"/layer.tar"), link(l1+"/layer.tar", "../"+l2+"/layer.tar")}, "not a layer the archive holds"},
		{"a link out", []*tar.Header{link(l2+"/layer.tar", "/etc/passwd")}, "not one layer's link"},
		{"a link named manifest", []*tar.Header{link("manifest.json", "/etc/passwd")}, "not one layer's link"},
		{"a hard link", []*tar.Header{reg("a"), {Name: "b", Typeflag: tar.TypeLink, Linkname: "a"}}, "only files"},
		{"a device", []*tar.Header{{Name: "d", Typeflag: tar.TypeChar}}, "only files"},
		{"a name outside", []*tar.Header{reg("../x")}, "outside"},
	} {
		var buf bytes.Buffer
		tw := tar.NewWriter(&buf)
		for _, h := range c.entries {
			if err := tw.WriteHeader(h); err != nil {
				t.Fatal(err)
			}
		}
		tw.Close()
		p := filepath.Join(t.TempDir(), "a.tar")
		os.WriteFile(p, buf.Bytes(), 0o644)
		f, err := Open(p)
		if err != nil {
			t.Fatal(err)
		}
		_, err = readTables(f)
		f.Close()
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%s: err = %v, want %q", c.name, err, c.want)
		}
	}
}
