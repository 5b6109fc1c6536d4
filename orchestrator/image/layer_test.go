package image

import (
	"archive/tar"
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func layerOf(t *testing.T, mtime time.Time, uname string) []byte {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, h := range []*tar.Header{
		{Name: "etc/", Typeflag: tar.TypeDir, Mode: 0o755, ModTime: mtime, Uname: uname, Format: tar.FormatPAX, AccessTime: mtime},
		{Name: "etc/a", Typeflag: tar.TypeReg, Mode: 0o644, Size: 2, ModTime: mtime.Add(time.Second / 3), Uname: uname,
			PAXRecords: map[string]string{"SCHILY.xattr.user.x": "1", "comment": "build host"}},
		{Name: "etc/old", Typeflag: tar.TypeReg, Mode: 0o644, ModTime: time.Unix(1000, 0)},
	} {
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if h.Size > 0 {
			tw.Write([]byte("hi"))
		}
	}
	tw.Close()
	return buf.Bytes()
}

// Two layers with the same files made at different times and by different
// users come out byte-identical; older mtimes stay, newer are clamped;
// xattrs stay; normalising again changes nothing.
func TestNormaliseLayer(t *testing.T) {
	epoch := time.Unix(1735689600, 0)
	dir := t.TempDir()
	norm := func(b []byte) (string, []byte) {
		p, id, err := normaliseLayer(bytes.NewReader(b), dir, epoch, newBudget())
		if err != nil {
			t.Fatal(err)
		}
		out, _ := os.ReadFile(p)
		return id, out
	}
	id1, out1 := norm(layerOf(t, time.Now(), "root"))
	id2, _ := norm(layerOf(t, time.Now().Add(time.Hour), "builder"))
	if id1 != id2 {
		t.Fatalf("diff ids differ: %s %s", id1, id2)
	}
	if id3, _ := norm(out1); id3 != id1 {
		t.Fatalf("normalising twice changed the layer: %s %s", id1, id3)
	}
	tr := tar.NewReader(bytes.NewReader(out1))
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		switch h.Name {
		case "etc/", "etc/a":
			if !h.ModTime.Equal(epoch) || h.Uname != "" {
				t.Fatalf("%s: mtime %s uname %q", h.Name, h.ModTime, h.Uname)
			}
		case "etc/old":
			if h.ModTime.Unix() != 1000 {
				t.Fatalf("an older mtime was changed: %s", h.ModTime)
			}
		}
		if h.Name == "etc/a" && (h.PAXRecords["SCHILY.xattr.user.x"] != "1" || h.PAXRecords["comment"] != "") {
			t.Fatalf("pax records %v", h.PAXRecords)
		}
	}
}

// The config's times become the epoch and its diff ids the layers'.
func TestRewriteConfig(t *testing.T) {
	raw := []byte(`{"created":"2026-12-03T08:08:08.5Z","history":[{"created":"2026-12-03T08:08:08.5Z","created_by":"RUN x"}],"config":{"Env":["A=1"]},"container":"abc","rootfs":{"type":"layers","diff_ids":["sha256:old"]}}`)
	out, err := rewriteConfig(raw, []layerFile{{diffID: "sha256:new"}}, time.Unix(1735689600, 0).UTC(), map[string]string{"k": "v"})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"config":{"Env":["A=1"],"Labels":{"k":"v"}},"created":"2025-01-01T00:00:00Z","history":[{"created":"2025-01-01T00:00:00Z","created_by":"RUN x"}],"rootfs":{"diff_ids":["sha256:new"],"type":"layers"}}`
	if string(out) != want {
		t.Fatalf("config\n got %s\nwant %s", out, want)
	}
}

func TestDiffFiles(t *testing.T) {
	got, n := DiffFiles(map[string]string{"/a": "1", "/b": "2", "/c": "3"}, map[string]string{"/a": "1", "/b": "9", "/d": "4"}, 2)
	if n != 3 || len(got) != 2 || got[0] != "/b" || got[1] != "/c (only in the recorded image)" {
		t.Fatalf("got %q, %d", got, n)
	}
}

// A saved image whose layers come to more than MaxNormaliseBytes is
// refused with ErrTooLarge, having written no more than the cap to the
// temporary folder.
func TestNormaliseCap(t *testing.T) {
	old := MaxNormaliseBytes
	MaxNormaliseBytes = 256 << 10
	defer func() { MaxNormaliseBytes = old }()
	layer := func(name string) []byte {
		var buf bytes.Buffer
		tw := tar.NewWriter(&buf)
		tw.WriteHeader(&tar.Header{Name: name, Typeflag: tar.TypeReg, Mode: 0o644, Size: 200 << 10})
		tw.Write(make([]byte, 200<<10))
		tw.Close()
		return buf.Bytes()
	}
	var saved bytes.Buffer
	tw := tar.NewWriter(&saved)
	for _, l := range []string{"a/layer.tar", "b/layer.tar"} {
		data := layer(l + ".file")
		tw.WriteHeader(&tar.Header{Name: l, Typeflag: tar.TypeReg, Mode: 0o644, Size: int64(len(data))})
		tw.Write(data)
	}
	tw.Close()
	dir := t.TempDir()
	_, err := readSaved(&saved, dir, time.Unix(0, 0), "test/big", newBudget())
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "test/big") {
		t.Fatalf("an image over the cap: %v", err)
	}
	var written int64
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if st, err := os.Stat(filepath.Join(dir, e.Name())); err == nil {
			written += st.Size()
		}
	}
	if written > MaxNormaliseBytes {
		t.Errorf("%d bytes written past the cap of %d", written, MaxNormaliseBytes)
	}
}
