package suite

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// XprocUnits are a language's xproc programs in the suite dir, by the unit
// its image holds each as: xproc/<lang>/<file>.<ext> as xproc_<file> where
// the language has a program per variant and role (XProcPerRole), else
// xproc/xproc.<ext> as xproc. xproc builds its images from them, and
// verify finds them again by unit. Call CheckXproc first: this finds
// names, it does not refuse links.
func XprocUnits(dir string, l Language) map[string]string {
	out := map[string]string{}
	if l.XProcPerRole {
		paths, _ := filepath.Glob(filepath.Join(dir, "xproc", l.Name, "*."+l.Ext))
		for _, p := range paths {
			out["xproc_"+strings.TrimSuffix(filepath.Base(p), "."+l.Ext)] = p
		}
		return out
	}
	p := filepath.Join(dir, "xproc", "xproc."+l.Ext)
	if _, err := os.Stat(p); err == nil {
		out["xproc"] = p
	}
	return out
}

// CheckXproc refuses a suite whose xproc/ folder, or anything below it, is
// a symlink (or a FIFO, a device, a socket): as with benches/micro, every
// program in the folder a link names would be copied into an xproc image a
// sibling program can read, and a linked file would be read with
// halebench's rights. It is the same refusal as the kind folders' (exit 2,
// naming the path), made before any engine is asked. A suite without
// xproc/ is fine.
func CheckXproc(dir string) error {
	root := filepath.Join(dir, "xproc")
	if err := notALink(root); err != nil {
		return err
	}
	if _, err := os.Lstat(root); os.IsNotExist(err) {
		return nil
	}
	// WalkDir does not follow links: a linked folder is an entry here, not a tree.
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("reading the suite's xproc folder: %w", err)
		}
		switch t := d.Type(); {
		case t.IsDir():
			return nil
		case t&fs.ModeSymlink != 0:
			to, _ := os.Readlink(p)
			return fmt.Errorf("suite file %s is a symlink (-> %s): halebench reads a suite's xproc programs only where they lie (put the file or folder itself there)", p, to)
		case !t.IsRegular():
			return fmt.Errorf("suite file %s is not a regular file (%s): remove it from the suite", p, t)
		}
		return nil
	})
}
