package suite

import (
	"fmt"
	"os"
	"path/filepath"
)

// Layout is how a suite folder holds its benches.
type Layout string

const (
	// LayoutBenches is halebench's own: benches/{micro,app,guards} and
	// benches/catalogue.json, with baselines.json and xproc/ beside benches/.
	LayoutBenches Layout = "benches"
	// LayoutSeed is the seed repository's: micro/ and app/ (and guards/) at
	// the suite's root, with baselines.json and xproc/ beside them; its
	// catalogue, when it has one, is catalogue.json at the root too, beside
	// the kind folders as benches/catalogue.json is.
	LayoutSeed Layout = "seed"
)

// FindLayout says how dir holds its benches: benches/ when it has that
// folder, the seed's when it has micro/ or app/ at its root instead.
func FindLayout(dir string) (Layout, error) {
	if isDir(filepath.Join(dir, "benches")) {
		return LayoutBenches, nil
	}
	if isDir(filepath.Join(dir, "micro")) || isDir(filepath.Join(dir, "app")) {
		return LayoutSeed, nil
	}
	return "", fmt.Errorf("no benches/ folder, nor micro/ or app/, in suite %s (give --suite=DIR, the folder holding benches/ — or the seed's micro/ and app/ — with xproc/ and baselines.json)", dir)
}

// Root is the folder of dir that holds the kind folders and catalogue.json.
func (l Layout) Root(dir string) string {
	if l == LayoutSeed {
		return dir
	}
	return filepath.Join(dir, "benches")
}

// Inputs are the paths of dir that make its bench images, those that
// exist: benches/ whole, or the seed's kind folders and catalogue.json (not
// its README, run.sh or results/). A cache key digests them; a bundle
// carries them.
func (l Layout) Inputs(dir string) []string {
	if l != LayoutSeed {
		return []string{l.Root(dir)}
	}
	var out []string
	for _, k := range kinds {
		if p := filepath.Join(dir, k.dir); isDir(p) {
			out = append(out, p)
		}
	}
	if p := filepath.Join(dir, catalogueFile); exists(p) {
		out = append(out, p)
	}
	return out
}

// catalogueFile is the catalogue's name in the layout's root.
const catalogueFile = "catalogue.json"

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// notALink refuses a suite folder (benches/, a kind folder) that is a
// symlink: every source in the folder it names would become a bench, copied
// into a bench image a sibling bench can read, so a suite's folders are
// read only where they lie. A folder that is not there is not an error.
func notALink(p string) error {
	st, err := os.Lstat(p)
	if err != nil || st.Mode()&os.ModeSymlink == 0 {
		return nil
	}
	to, _ := os.Readlink(p)
	return fmt.Errorf("suite folder %s is a symlink (-> %s): halebench reads a suite's folders only where they lie (put the folder itself there)", p, to)
}
