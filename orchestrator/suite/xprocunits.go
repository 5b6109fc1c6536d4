package suite

import (
	"os"
	"path/filepath"
	"strings"
)

// XprocUnits are a language's xproc programs in the suite dir, by the unit
// its image holds each as: xproc/<lang>/<file>.<ext> as xproc_<file> where
// the language has a program per variant and role (XProcPerRole), else
// xproc/xproc.<ext> as xproc. xproc builds its images from them, and
// verify finds them again by unit.
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
