package evidence

import (
	"archive/tar"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// entry is one member of a test bundle.
type entry struct {
	name string
	data string
	typ  byte
	size int64 // the header's size when it is not len(data) (a lying header)
}

// bundleOf writes a tar of entries, with a manifest listing listed (name →
// content; nil: every regular entry) appended, and returns its path.
func bundleOf(t *testing.T, entries []entry, listed map[string]string) string {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	m := Manifest{Schema: ManifestSchema, Files: map[string]string{}}
	for _, e := range entries {
		h := &tar.Header{Name: e.name, Mode: 0o644, Size: int64(len(e.data)), Typeflag: tar.TypeReg}
		if e.typ != 0 {
			h.Typeflag = e.typ
		}
		if h.Typeflag == tar.TypeSymlink {
			h.Linkname, h.Size = e.data, 0
		}
		if e.size != 0 {
			h.Size = e.size
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if h.Typeflag == tar.TypeReg && e.size == 0 {
			tw.Write([]byte(e.data))
			sum := sha256.Sum256([]byte(e.data))
			m.Files[e.name] = hex.EncodeToString(sum[:])
		}
		if e.size != 0 {
			tw.Flush()
			return writeTemp(t, buf.Bytes()) // a header that lies: nothing after it
		}
	}
	if listed != nil {
		m.Files = map[string]string{}
		for name, content := range listed {
			sum := sha256.Sum256([]byte(content))
			m.Files[name] = hex.EncodeToString(sum[:])
		}
	}
	data, _ := json.Marshal(m)
	tw.WriteHeader(&tar.Header{Name: "manifest.json", Mode: 0o644, Size: int64(len(data)), Typeflag: tar.TypeReg})
	tw.Write(data)
	tw.Close()
	return writeTemp(t, buf.Bytes())
}

func writeTemp(t *testing.T, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "bundle.tar")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestExtract(t *testing.T) {
	ok := []entry{{name: "report.json", data: "{}"}, {name: "images.tar", data: "img"}, {name: "suite/benches/micro/a.c", data: "int main(){}"}}
	dir := t.TempDir()
	m, err := Extract(bundleOf(t, ok, nil), dir)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "suite/benches/micro/a.c")); string(got) != "int main(){}" || len(m.Files) != 3 {
		t.Fatalf("unpacked %q, manifest %v", got, m.Files)
	}
	cases := []struct {
		name    string
		entries []entry
		listed  map[string]string
		want    string
	}{
		{"duplicate", append(ok[:2:2], entry{name: "report.json", data: "{}"}), nil, "report.json appears twice"},
		{"unlisted", append(ok[:2:2], entry{name: "suite/extra", data: "x"}), map[string]string{"report.json": "{}", "images.tar": "img"}, "suite/extra is not in its manifest"},
		{"listed, absent", ok, map[string]string{"report.json": "{}", "images.tar": "img", "suite/b.c": "x"}, "suite/b.c has sha256"},
		{"damaged", ok, map[string]string{"report.json": "{ }", "images.tar": "img"}, "report.json has sha256"},
		{"parent", append(ok[:2:2], entry{name: "../escape", data: "x"}), nil, `"../escape" is not a clean`},
		{"unclean", append(ok[:2:2], entry{name: "suite/../report.json", data: "x"}), nil, "not a clean"},
		{"dot slash", []entry{{name: "./report.json", data: "{}"}}, nil, "not a clean"},
		{"absolute", append(ok[:2:2], entry{name: "/etc/cron.d/x", data: "x"}), nil, "not a clean"},
		{"symlink", append(ok[:2:2], entry{name: "suite/l", data: "/etc/shadow", typ: tar.TypeSymlink}), nil, "suite/l is not a regular file"},
		{"no manifest lists images.tar", ok, map[string]string{"report.json": "{}"}, "lists no images.tar"},
		{"a report over the cap", []entry{{name: "report.json", size: MaxBundleFile + 1}}, nil, "over the"},
		{"images over the total", []entry{{name: "images.tar", size: MaxBundleBytes + 1}}, nil, "add up to more than"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Extract(bundleOf(t, c.entries, c.listed), t.TempDir())
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want %q", err, c.want)
			}
		})
	}
}

// The bundle file itself is read where it lies: a link to a good bundle
// and a FIFO (which would block the reader) are refused before a byte.
func TestExtractRefusesALinkOrAFIFO(t *testing.T) {
	good := bundleOf(t, []entry{{name: "report.json", data: "{}"}, {name: "images.tar", data: "img"}}, nil)
	dir := t.TempDir()
	link, fifo := filepath.Join(dir, "link.tar"), filepath.Join(dir, "fifo.tar")
	if err := os.Symlink(good, link); err != nil {
		t.Fatal(err)
	}
	if err := unix.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{link: "is a symlink", fifo: "not a regular file"} {
		if _, err := Extract(path, t.TempDir()); err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "halebench bundle") {
			t.Errorf("%s: %v; want refused: %q", path, err, want)
		}
	}
}

// A ~4 KiB archive whose one entry is a GNU sparse file of 20 GiB: tar
// readers (Go's too) would write it out at full size. Extract refuses it
// from its headers and writes nothing of it.
func TestExtractRefusesASparseBomb(t *testing.T) {
	const real = 20 << 30
	pax := paxRecord("GNU.sparse.major", "1") + paxRecord("GNU.sparse.minor", "0") +
		paxRecord("GNU.sparse.name", "images.tar") + paxRecord("GNU.sparse.realsize", fmt.Sprint(real))
	data := append(padBlock([]byte(fmt.Sprintf("1\n%d\n1\n", real-1))), 'x')
	var b bytes.Buffer
	b.Write(ustarBlock("PaxHeaders/images.tar", 'x', len(pax)))
	b.Write(padBlock([]byte(pax)))
	b.Write(ustarBlock("GNUSparseFile.0/images.tar", '0', len(data)))
	b.Write(padBlock(data))
	b.Write(make([]byte, 1024))
	bomb := writeTemp(t, b.Bytes())

	// The archive is what it claims: a reader expands it.
	tr := tar.NewReader(bytes.NewReader(b.Bytes()))
	if h, err := tr.Next(); err != nil || h.Size != real {
		t.Fatalf("the crafted archive is not a sparse %d-byte file: %v %v", int64(real), h, err)
	}
	if n, err := io.CopyN(io.Discard, tr, 1<<20); n != 1<<20 || err != nil {
		t.Fatalf("the crafted archive does not expand: %d %v", n, err)
	}

	dir := t.TempDir()
	_, err := Extract(bomb, dir)
	if err == nil || !strings.Contains(err.Error(), "sparse") {
		t.Fatalf("err = %v, want a sparse entry refused", err)
	}
	var written int64
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			var st unix.Stat_t
			if unix.Lstat(p, &st) == nil {
				written += st.Size
			}
		}
		return nil
	})
	if written != 0 {
		t.Fatalf("%d bytes written for a refused %d-byte archive", written, b.Len())
	}
	t.Logf("a %d-byte archive claiming %d bytes: refused, nothing written", b.Len(), int64(real))
}

// ustarBlock is a ustar header block (written by hand: Go's tar writer
// will not write GNU sparse records).
func ustarBlock(name string, typ byte, size int) []byte {
	b := make([]byte, 512)
	copy(b, name)
	copy(b[100:], "0000644\x00")
	copy(b[108:], "0000000\x00")
	copy(b[116:], "0000000\x00")
	copy(b[124:], fmt.Sprintf("%011o\x00", size))
	copy(b[136:], "00000000000\x00")
	b[156] = typ
	copy(b[257:], "ustar\x0000")
	copy(b[148:], "        ")
	sum := 0
	for _, c := range b {
		sum += int(c)
	}
	copy(b[148:], fmt.Sprintf("%06o\x00 ", sum))
	return b
}

func padBlock(b []byte) []byte { return append(b, make([]byte, (512-len(b)%512)%512)...) }

// paxRecord is "<len> key=value\n", len counting itself.
func paxRecord(k, v string) string {
	s := fmt.Sprintf(" %s=%s\n", k, v)
	n := len(s) + 1
	for len(fmt.Sprint(n))+len(s) != n {
		n++
	}
	return fmt.Sprint(n) + s
}

// Too many entries are refused once the cap is passed.
func TestExtractCapsEntries(t *testing.T) {
	var b bytes.Buffer
	tw := tar.NewWriter(&b)
	for i := 0; i <= MaxBundleEntries; i++ {
		tw.WriteHeader(&tar.Header{Name: fmt.Sprintf("suite/f%d", i), Mode: 0o644, Typeflag: tar.TypeReg})
	}
	tw.Close()
	_, err := Extract(writeTemp(t, b.Bytes()), t.TempDir())
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("more than %d entries", MaxBundleEntries)) {
		t.Fatalf("err = %v", err)
	}
}

// A symlink, a FIFO or a symlinked baselines.json in the suite is refused
// by name: a published bundle never carries what a planted link points at.
func TestBundleRefusesLinksAndSpecialFiles(t *testing.T) {
	plant := map[string]func(p string) error{
		"benches/micro/leak.c": func(p string) error { return os.Symlink("/etc/hostname", p) },
		"benches/micro/fifo.c": func(p string) error { return unix.Mkfifo(p, 0o644) },
		"benches/app":          func(p string) error { return os.Symlink("/etc", p) },
		"baselines.json":       func(p string) error { return os.Symlink("/etc/hostname", p) },
	}
	for name, make := range plant {
		t.Run(name, func(t *testing.T) {
			suite := t.TempDir()
			os.MkdirAll(filepath.Join(suite, "benches", "micro"), 0o755)
			os.WriteFile(filepath.Join(suite, "benches", "micro", "ok.c"), []byte("int main(){}"), 0o644)
			if err := make(filepath.Join(suite, name)); err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			w := &bundleWriter{tw: tar.NewWriter(&out), m: &Manifest{Files: map[string]string{}}}
			err := w.addSuite(suite)
			if err == nil || !strings.Contains(err.Error(), filepath.Join(suite, name)) {
				t.Fatalf("err = %v, want one naming %s", err, name)
			}
			if strings.Contains(out.String(), "localhost") || strings.Contains(out.String(), readHostname()) {
				t.Fatal("the bundle carries the host's file")
			}
		})
	}
}

func readHostname() string {
	b, _ := os.ReadFile("/etc/hostname")
	if s := strings.TrimSpace(string(b)); s != "" {
		return s
	}
	return "\x00no hostname\x00"
}
