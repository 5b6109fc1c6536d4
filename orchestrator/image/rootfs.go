package image

import (
	"archive/tar"
	"fmt"
	"io"
	"os"
	"path"
	"strings"
	"time"
)

// merged are the top folders that Debian's merged /usr makes links into
// /usr; a .deb's files under them are written under /usr instead.
var merged = []string{"bin", "sbin", "lib", "lib64"}

// usrPath maps a .deb's path onto the merged /usr layout.
func usrPath(name string) string {
	for _, m := range merged {
		if name == m || strings.HasPrefix(name, m+"/") {
			return "usr/" + name
		}
	}
	return name
}

// unneeded are the files a bootstrapper never reads: documentation and
// translations, a third of the packages' size.
func unneeded(name string) bool {
	for _, d := range []string{"usr/share/doc/", "usr/share/man/", "usr/share/info/", "usr/share/locale/"} {
		if strings.HasPrefix(name+"/", d) && name+"/" != d {
			return true
		}
	}
	return false
}

// rootfs writes one tar stream; the first entry of a path wins.
type rootfs struct {
	tw      *tar.Writer
	at      time.Time
	seen    map[string]bool
	masters map[string][]byte // base-passwd's passwd and group templates
}

func (r *rootfs) add(h *tar.Header, body io.Reader) error {
	key := strings.TrimSuffix(h.Name, "/")
	if r.seen[key] {
		return nil
	}
	r.seen[key] = true
	if err := r.tw.WriteHeader(h); err != nil {
		return fmt.Errorf("writing %s: %w", h.Name, err)
	}
	if body != nil {
		if _, err := io.Copy(r.tw, body); err != nil {
			return fmt.Errorf("writing %s: %w", h.Name, err)
		}
	}
	return nil
}

func (r *rootfs) dir(name string, mode int64) error {
	return r.add(&tar.Header{Typeflag: tar.TypeDir, Name: name + "/", Mode: mode, ModTime: r.at}, nil)
}

func (r *rootfs) link(name, target string) error {
	return r.add(&tar.Header{Typeflag: tar.TypeSymlink, Name: name, Linkname: target, Mode: 0o777, ModTime: r.at}, nil)
}

func (r *rootfs) file(name string, mode int64, data string) error {
	return r.add(&tar.Header{Typeflag: tar.TypeReg, Name: name, Mode: mode, Size: int64(len(data)), ModTime: r.at}, strings.NewReader(data))
}

// Write unpacks the .debs at paths into one root filesystem tar on w, with
// what their maintainer scripts would have made that a bootstrapper needs:
// the merged-/usr links, /bin/sh, the users and groups, an empty dpkg
// database. Times are epoch at the latest; the same .debs give the same
// bytes.
func Write(w io.Writer, paths []string, epoch time.Time) error {
	r := &rootfs{tw: tar.NewWriter(w), at: epoch, seen: map[string]bool{}, masters: map[string][]byte{}}
	for _, d := range []string{"usr", "usr/bin", "usr/sbin", "usr/lib", "usr/lib64", "etc", "var", "var/lib", "var/lib/dpkg",
		"var/lib/dpkg/info", "var/lib/dpkg/updates", "var/cache", "root"} {
		if err := r.dir(d, 0o755); err != nil {
			return err
		}
	}
	if err := r.dir("tmp", 0o1777); err != nil {
		return err
	}
	for _, m := range merged {
		if err := r.link(m, "usr/"+m); err != nil {
			return err
		}
	}
	for _, p := range paths {
		if err := r.unpack(p); err != nil {
			return fmt.Errorf("unpacking %s: %w", path.Base(p), err)
		}
	}
	if err := r.finish(); err != nil {
		return err
	}
	return r.tw.Close()
}

// unpack copies one .deb's files.
func (r *rootfs) unpack(debPath string) error {
	f, err := os.Open(debPath)
	if err != nil {
		return err
	}
	defer f.Close()
	data, closeData, err := dataTar(f)
	if err != nil {
		return err
	}
	defer closeData()
	tr := tar.NewReader(data)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		name := path.Clean(strings.TrimPrefix(h.Name, "./"))
		if name == "." || name == "/" || strings.HasPrefix(name, "../") {
			continue
		}
		name = usrPath(strings.TrimPrefix(name, "/"))
		if unneeded(name) {
			continue
		}
		if h.Typeflag == tar.TypeLink {
			h.Linkname = usrPath(path.Clean(strings.TrimPrefix(strings.TrimPrefix(h.Linkname, "./"), "/")))
		}
		h.Name = name
		if h.Typeflag == tar.TypeDir {
			h.Name += "/"
		}
		if h.ModTime.After(r.at) {
			h.ModTime = r.at
		}
		if name == "usr/share/base-passwd/passwd.master" || name == "usr/share/base-passwd/group.master" {
			b, err := io.ReadAll(tr)
			if err != nil {
				return err
			}
			r.masters[path.Base(name)] = b
			if err := r.add(h, strings.NewReader(string(b))); err != nil {
				return err
			}
			continue
		}
		if err := r.add(h, tr); err != nil {
			return err
		}
	}
}

// finish writes what maintainer scripts would have: /bin/sh, /etc/passwd
// and /etc/group from base-passwd's templates (with apt's _apt user), and
// dpkg's empty status.
func (r *rootfs) finish() error {
	if err := r.link("usr/bin/sh", "dash"); err != nil {
		return err
	}
	passwd, group := r.masters["passwd.master"], r.masters["group.master"]
	if len(passwd) == 0 || len(group) == 0 {
		return fmt.Errorf("base-passwd's passwd.master or group.master is missing from the packages")
	}
	if err := r.file("etc/passwd", 0o644, string(passwd)+"_apt:x:42:65534::/nonexistent:/usr/sbin/nologin\n"); err != nil {
		return err
	}
	if err := r.file("etc/group", 0o644, string(group)); err != nil {
		return err
	}
	return r.file("var/lib/dpkg/status", 0o644, "")
}
