package evidence

import (
	"fmt"
	"io"

	"github.com/hale-lang/halebench/orchestrator/image"
	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/result"
	"github.com/hale-lang/halebench/orchestrator/stamp"
	"github.com/hale-lang/halebench/orchestrator/subject"
)

// Stored is a stored document bundle and verify take, of any kind, and the
// sets of images it names: a run report's or an xproc report's own, or an
// ab result's side A and side B.
type Stored struct {
	Path string
	Doc  *result.Doc
	Sets []Set
}

// Set is one set of images a document names, seen as a run report records
// them (base, toolchains, bench images, the host with the architecture
// they were built for), so that verify and bundle read every kind alike.
type Set struct {
	Name string // "" (the document's own images), or "side A", "side B"
	Rep  *report.Report
	// Xproc says its bench images hold the suite's xproc programs
	// (xproc/, suite.XprocUnits), not its benches.
	Xproc bool
}

// ReadStored reads the document stored at path, of any kind, and checks
// the build inputs each of its sets records before anything can use them:
// a set that records none (a base given with --base-image, or a document
// older than reproducible images) is refused, naming it.
func ReadStored(path string) (*Stored, error) {
	d, err := result.Read(path)
	if err != nil {
		return nil, err
	}
	st := &Stored{Path: path, Doc: d}
	switch d.Kind {
	case result.Run:
		st.Sets = []Set{{Rep: d.Run}}
	case result.AB:
		for _, sd := range d.AB.Sides {
			st.Sets = append(st.Sets, Set{Name: "side " + sd.Name, Rep: view(d.AB.Halebench, d.AB.RunID, d.AB.Host, sd.Base, sd.Images, sd.BenchImages)})
		}
	default:
		x := d.Xproc
		st.Sets = []Set{{Rep: view(x.Halebench, x.RunID, x.Host, x.Base, x.Images, x.BenchImages), Xproc: true}}
	}
	if len(st.Sets) == 0 {
		return nil, fmt.Errorf("%s is %s that records no side's images: there is nothing to rebuild or bundle", path, d.Kind.What())
	}
	for _, s := range st.Sets {
		if s.Rep.Base.Inputs == nil {
			return nil, fmt.Errorf("%s (%s%s) records no build inputs of its base (it predates reproducible images, or its base was given with --base-image): rerun `halebench %s` to make one that can be verified", path, d.Kind.What(), s.of(), d.Kind)
		}
		if err := checkInputs(path, s.Rep); err != nil {
			return nil, err
		}
	}
	return st, nil
}

func (s Set) of() string {
	if s.Name == "" {
		return ""
	}
	return ", " + s.Name
}

// view is an ab side's or an xproc report's images as a run report holds
// them. Neither ab nor xproc runs emulated, so their images are of the
// engine's own architecture, which their host records.
func view(tool *stamp.Tool, runID string, host report.Host, base report.Base, tcs map[string]report.Toolchain, bis map[string]report.BenchImage) *report.Report {
	if host.ImageArch == "" {
		host.ImageArch = image.NormArch(host.Arch)
	}
	return &report.Report{Schema: report.Schema, Halebench: tool, RunID: runID, Host: host, Base: base, Images: tcs, BenchImages: bis}
}

// ReadStoredForVerify is verify's input checked before any engine is
// asked: the document at path (ReadStored), the hale source tree haleSrc
// when given (subject.Build.Check), and what one verify can rebuild of it
// (checkSets).
func ReadStoredForVerify(path, haleSrc string) (*Stored, error) {
	st, err := ReadStored(path)
	if err != nil {
		return nil, err
	}
	if err := checkSets(st); err != nil {
		return nil, err
	}
	return st, subject.Build{Src: haleSrc}.Check()
}

// checkSets refuses, for a reason in the document, what one verify cannot
// rebuild: sets on two bases, or one language's toolchain recorded as two
// images (an ab of two builds of the subject: verify rebuilds one
// subject build, --hale-src's).
func checkSets(st *Stored) error {
	first := st.Sets[0]
	for _, s := range st.Sets[1:] {
		if s.Rep.Base.ID != first.Rep.Base.ID {
			return fmt.Errorf("%s: %s ran on base %s and %s on base %s: one verify rebuilds one base", st.Path, first.Name, shortOr(first.Rep.Base.ID), s.Name, shortOr(s.Rep.Base.ID))
		}
		for _, lang := range sortedKeys(s.Rep.Images) {
			a, b := first.Rep.Images[lang], s.Rep.Images[lang]
			if a.Status == image.Available && b.Status == image.Available && a.Digest != b.Digest {
				return fmt.Errorf("%s: %s's %s toolchain is %s and %s's is %s (%s): an ab of two builds of %s cannot be rebuilt by one verify, which makes one build of it (--hale-src); "+
					"verify each build's own run report, or give --lang without %s to rebuild the rest", st.Path, first.Name, lang, shortOr(a.Digest), s.Name, shortOr(b.Digest), built(b), lang, lang)
			}
		}
	}
	return nil
}

func shortOr(d string) string {
	if len(d) > 19 {
		return d[:19]
	}
	return d
}

// built says how a toolchain was had, as its record says.
func built(tc report.Toolchain) string {
	switch h := tc.Hale; {
	case h == nil:
		return "no build recorded"
	case h.Commit != "":
		return "built at commit " + h.Commit
	case h.Src != "":
		return "built from the tree " + h.Src
	}
	return "given as an image"
}

// images is every reference the document's sets name, with its digest.
func (st *Stored) images() map[string]string {
	m := map[string]string{}
	for _, s := range st.Sets {
		for ref, id := range Images(s.Rep) {
			m[ref] = id
		}
	}
	return m
}

// Note writes to w, as a note, when the document was made by another
// halebench than this one (NoteMaker).
func (st *Stored) Note(w io.Writer) { NoteMaker(w, st.Sets[0].Rep) }

// toolchains are the toolchains the sets record, one per language (an
// available one where a set has it: checkSets holds them to one image).
func (st *Stored) toolchains() map[string]report.Toolchain {
	out := map[string]report.Toolchain{}
	for _, s := range st.Sets {
		for lang, tc := range s.Rep.Images {
			if _, ok := out[lang]; !ok || tc.Status == image.Available {
				out[lang] = tc
			}
		}
	}
	return out
}
