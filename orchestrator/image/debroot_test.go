package image

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const index = `Package: base-passwd
Essential: yes
Version: 1
Filename: pool/b/base-passwd_1.deb
SHA256: 00

Package: dash
Essential: yes
Version: 1
Pre-Depends: libc6 (>= 2.34)
Filename: pool/d/dash_1.deb

Package: libc6
Version: 2.41
Depends: libgcc-s1

Package: libgcc-s1
Version: 14

Package: mmdebstrap
Version: 1.5
Depends: apt (>= 2.3.14), python3 (>= 3.10), perl:any
Description: create a Debian chroot
 continued line: with a colon

Package: apt
Version: 3
Depends: gpgv | sqv, awk

Package: sqv
Version: 1

Package: mawk
Version: 1
Provides: awk

Package: gawk
Version: 5
Provides: awk

Package: perl
Version: 5.40

Package: python3
Version: 3.13

Package: unused
Version: 1
`

// The closure holds the Essential packages, what is asked for and every
// dependency; of alternatives the first that exists, of providers the
// first by name.
func TestClosure(t *testing.T) {
	idx, err := ParseIndex(strings.NewReader(index))
	if err != nil {
		t.Fatal(err)
	}
	pkgs, err := idx.Closure([]string{"mmdebstrap"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range pkgs {
		got = append(got, p.Name)
	}
	want := "apt base-passwd dash gawk libc6 libgcc-s1 mmdebstrap perl python3 sqv"
	if strings.Join(got, " ") != want {
		t.Errorf("closure = %s\nwant      %s", strings.Join(got, " "), want)
	}
	if _, err := idx.Closure([]string{"nonesuch"}); err == nil {
		t.Error("a package not in the index: no error")
	}
}

func TestReleaseSHA256(t *testing.T) {
	rel := "Suite: trixie\nMD5Sum:\n 0123 10 main/binary-amd64/Packages.gz\nSHA256:\n abcd 10 main/binary-amd64/Packages\n ef01 5 main/binary-amd64/Packages.gz\n"
	if got, err := releaseSHA256([]byte(rel), "main/binary-amd64/Packages.gz"); err != nil || got != "ef01" {
		t.Errorf("got %q, %v; want the SHA256 list's ef01", got, err)
	}
	if _, err := releaseSHA256([]byte(rel), "main/binary-arm64/Packages.gz"); err == nil {
		t.Error("a file not listed: no error")
	}
}

// deb writes a .deb (ar) whose data.tar.gz holds files, name → content;
// a name ending in / is a folder.
func deb(t *testing.T, dir, pkg string, files map[string]string, order []string) string {
	var data bytes.Buffer
	zw := gzip.NewWriter(&data)
	tw := tar.NewWriter(zw)
	for _, n := range order {
		h := &tar.Header{Name: "./" + n, Mode: 0o644, Size: int64(len(files[n])), Typeflag: tar.TypeReg, ModTime: time.Unix(2e9, 0)}
		if strings.HasSuffix(n, "/") {
			h.Typeflag, h.Size, h.Mode = tar.TypeDir, 0, 0o755
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		io.WriteString(tw, files[n])
	}
	tw.Close()
	zw.Close()
	var ar bytes.Buffer
	ar.WriteString("!<arch>\n")
	member := func(name string, b []byte) {
		fmt.Fprintf(&ar, "%-16s%-12d%-6d%-6d%-8s%-10d`\n", name, 0, 0, 0, "100644", len(b))
		ar.Write(b)
		if len(b)%2 == 1 {
			ar.WriteByte('\n')
		}
	}
	member("debian-binary", []byte("2.0\n"))
	member("control.tar.gz", []byte("x"))
	member("data.tar.gz", data.Bytes())
	p := filepath.Join(dir, pkg+".deb")
	if err := os.WriteFile(p, ar.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// Write lays the .debs' files out under merged /usr, first one wins, and
// adds what maintainer scripts would: /etc/passwd with _apt, /bin/sh.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	a := deb(t, dir, "base-passwd", map[string]string{
		"usr/share/base-passwd/passwd.master": "root:x:0:0:root:/root:/bin/bash\n",
		"usr/share/base-passwd/group.master":  "root:x:0:\n",
		"usr/share/doc/base-passwd/README":    "docs",
	}, []string{"usr/share/base-passwd/passwd.master", "usr/share/base-passwd/group.master", "usr/share/doc/base-passwd/README"})
	b := deb(t, dir, "dash", map[string]string{"bin/": "", "bin/dash": "DASH", "usr/share/base-passwd/group.master": "other"},
		[]string{"bin/", "bin/dash", "usr/share/base-passwd/group.master"})
	var out bytes.Buffer
	epoch := time.Unix(1735689600, 0)
	if err := Write(&out, []string{a, b}, epoch); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	tr := tar.NewReader(&out)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if _, dup := got[h.Name]; dup {
			t.Errorf("%s written twice", h.Name)
		}
		if h.ModTime.After(epoch) {
			t.Errorf("%s dated %v, after the epoch", h.Name, h.ModTime)
		}
		body, _ := io.ReadAll(tr)
		got[h.Name] = string(body) + h.Linkname
	}
	for name, want := range map[string]string{
		"usr/bin/dash": "DASH", "bin": "usr/bin", "usr/bin/sh": "dash", "var/lib/dpkg/status": "",
		"etc/passwd":                         "root:x:0:0:root:/root:/bin/bash\n_apt:x:42:65534::/nonexistent:/usr/sbin/nologin\n",
		"usr/share/base-passwd/group.master": "root:x:0:\n",
	} {
		if g, ok := got[name]; !ok || g != want {
			t.Errorf("%s = %q (present %v), want %q", name, g, ok, want)
		}
	}
	for _, name := range []string{"bin/dash", "usr/share/doc/base-passwd/README"} {
		if _, ok := got[name]; ok {
			t.Errorf("%s written, want it left out", name)
		}
	}
}
