package evidence

import (
	"archive/tar"
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/hale-lang/halebench/orchestrator/engine"
	"github.com/hale-lang/halebench/orchestrator/image"
	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/result"
	"github.com/hale-lang/halebench/orchestrator/session"
	"github.com/hale-lang/halebench/orchestrator/stamp"
	"github.com/hale-lang/halebench/orchestrator/suite"
	"golang.org/x/sys/unix"
)

// Manifest is the table of contents of an evidence bundle.
type Manifest struct {
	Schema    string      `json:"schema"`
	Halebench *stamp.Tool `json:"halebench,omitempty"` // which halebench packed it
	// Kind is the kind of report.json: run, ab or xproc.
	Kind            string            `json:"kind,omitempty"`
	RunID           string            `json:"run_id"`
	SourceDateEpoch int64             `json:"source_date_epoch"`
	Images          map[string]string `json:"images"` // reference → image digest (config digest)
	Files           map[string]string `json:"files"`  // path in the bundle → sha256
}

// ManifestSchema names the bundle format.
const ManifestSchema = "halebench-evidence/1"

// Images are the references a report names, with their digests.
func Images(rep *report.Report) map[string]string {
	m := map[string]string{rep.Base.Ref: rep.Base.ID}
	for _, tc := range rep.Images {
		if tc.Status == image.Available && tc.Ref != "" {
			m[tc.Ref] = tc.Digest
		}
	}
	for _, bi := range rep.BenchImages {
		if bi.Ref != "" {
			m[bi.Ref] = bi.Digest
		}
	}
	return m
}

// Suites are the suite folders a document's images were built from: Dir,
// and an ab result's side B's (B; "": Dir).
type Suites struct{ Dir, B string }

// BundleOn is the bundle verb on eng: in a session that builds nothing
// (saying its steps on log), st (read from its path) and its suites
// bundled into the file out, as BundleFile does.
func BundleOn(ctx context.Context, eng engine.Driver, st *Stored, suites Suites, out string, log io.Writer) (*Manifest, error) {
	s, err := session.Open(ctx, session.Options{Kind: "bundle", Engine: eng, Images: image.Options{NoBuild: true}, Log: log})
	if err != nil {
		return nil, err
	}
	defer s.Close()
	return BundleFile(ctx, s.Eng, st, suites, out)
}

// BundleFile is BundleStored written to the file out, whole or not at all
// (report's atomic writer), buffered for the images' archives.
func BundleFile(ctx context.Context, eng image.Engine, st *Stored, suites Suites, out string) (*Manifest, error) {
	var m *Manifest
	err := report.AtomicWrite(out, 0o644, func(f io.Writer) error {
		w := bufio.NewWriterSize(f, 1<<20)
		var err error
		if m, err = BundleStored(ctx, eng, st, suites, w); err != nil {
			return err
		}
		return w.Flush()
	})
	if err != nil {
		return nil, fmt.Errorf("bundling %s: %w", st.Path, err)
	}
	return m, nil
}

// Bundle is BundleStored of a run report rep, stored at reportPath, whose
// benches are in suiteDir.
func Bundle(ctx context.Context, eng image.Engine, rep *report.Report, reportPath, suiteDir string, out io.Writer) (*Manifest, error) {
	st := &Stored{Path: reportPath, Doc: &result.Doc{Kind: result.Run, File: reportPath, Run: rep}, Sets: []Set{{Rep: rep}}}
	return BundleStored(ctx, eng, st, Suites{Dir: suiteDir}, out)
}

// BundleStored writes to out: report.json (the document, of any kind),
// images.tar (a docker archive of every image it names: both sides' of an
// ab result), suite/ (benches/, baselines.json, and an xproc report's
// xproc/), suite-b/ (an ab result's side B's, when its suite is another
// folder) and manifest.json. Images not in the engine with their recorded
// digest are an error: a bundle holds what was measured or nothing. So is
// a symlink, FIFO or device under benches/ (or as baselines.json): a
// bundle is published, and a planted link would carry a host file into it.
func BundleStored(ctx context.Context, eng image.Engine, st *Stored, suites Suites, out io.Writer) (*Manifest, error) {
	first := st.Sets[0].Rep
	m := &Manifest{Schema: ManifestSchema, Halebench: stamp.This(), Kind: string(st.Doc.Kind), RunID: first.RunID, SourceDateEpoch: first.Base.Inputs.SourceDateEpoch, Images: st.images(), Files: map[string]string{}}
	refs := sortedKeys(m.Images)
	for _, ref := range refs {
		img, ok, err := eng.Image(ctx, ref)
		if err != nil {
			return nil, err
		}
		if !ok || img.ID != m.Images[ref] {
			return nil, fmt.Errorf("image %s of %s is not in the engine with its recorded digest %s (found: %v %s): rebuild it (`halebench verify` shows whether it can be) before bundling", ref, st.Path, m.Images[ref], ok, img.ID)
		}
	}
	images, err := saveImages(ctx, eng, refs)
	if err != nil {
		return nil, err
	}
	defer os.Remove(images)
	w := &bundleWriter{tw: tar.NewWriter(out), m: m}
	if err := w.add("report.json", st.Path); err != nil {
		return nil, err
	}
	if err := w.add("images.tar", images); err != nil {
		return nil, err
	}
	if err := w.addSuites(st, suites); err != nil {
		return nil, err
	}
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, err
	}
	if err := w.tw.WriteHeader(&tar.Header{Name: "manifest.json", Mode: 0o644, Size: int64(len(data)), Typeflag: tar.TypeReg}); err != nil {
		return nil, err
	}
	if _, err := w.tw.Write(data); err != nil {
		return nil, err
	}
	return m, w.tw.Close()
}

// saveImages writes the engine's archive of refs to a temporary file and
// returns its path.
func saveImages(ctx context.Context, eng image.Engine, refs []string) (string, error) {
	tmp, err := os.CreateTemp("", "halebench-images-*.tar")
	if err != nil {
		return "", err
	}
	rc, err := eng.Save(ctx, refs...)
	if err == nil {
		_, err = io.Copy(tmp, rc)
		rc.Close()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp.Name())
		return "", fmt.Errorf("saving the report's images: %w", err)
	}
	return tmp.Name(), nil
}

// bundleWriter adds files to a bundle and records their sums.
type bundleWriter struct {
	tw *tar.Writer
	m  *Manifest
}

// addSuites adds the suites st's images were built from: suite/ (Dir),
// an xproc report's xproc/ programs under it, and suite-b/ for an ab
// result's side B when its suite is another folder.
func (w *bundleWriter) addSuites(st *Stored, suites Suites) error {
	if err := w.addSuite(suites.Dir); err != nil {
		return err
	}
	if st.Doc.Kind == result.Xproc {
		if err := w.addTree("suite/", suites.Dir, filepath.Join(suites.Dir, "xproc")); err != nil {
			return err
		}
	}
	if st.Doc.Kind == result.AB && suites.B != "" && filepath.Clean(suites.B) != filepath.Clean(suites.Dir) {
		return w.addSuiteAs("suite-b/", suites.B)
	}
	return nil
}

// addSuite adds the suite's baselines.json, when it has one, and every file
// of its benches (benches/, or the seed layout's kind folders and
// catalogue.json), refusing any that is not a regular file.
func (w *bundleWriter) addSuite(dir string) error { return w.addSuiteAs("suite/", dir) }

func (w *bundleWriter) addSuiteAs(prefix, dir string) error {
	bl := filepath.Join(dir, "baselines.json")
	if _, err := os.Lstat(bl); err == nil {
		if err := w.add(prefix+"baselines.json", bl); err != nil {
			return err
		}
	}
	layout, err := suite.FindLayout(dir)
	if err != nil {
		return err
	}
	for _, in := range layout.Inputs(dir) {
		if err := w.addTree(prefix, dir, in); err != nil {
			return err
		}
	}
	return nil
}

// addTree adds every file under in (a folder of dir, or one file) as
// prefix + its path relative to dir; a folder that is not there adds
// nothing.
func (w *bundleWriter) addTree(prefix, dir, in string) error {
	if _, err := os.Lstat(in); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	err := filepath.WalkDir(in, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		return w.add(prefix+filepath.ToSlash(rel), p)
	})
	if err != nil {
		return fmt.Errorf("adding the bench sources: %w", err)
	}
	return nil
}

// add copies the regular file at path into the bundle as name.
func (w *bundleWriter) add(name, path string) error {
	f, st, err := openRegular(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := w.tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: st.Size(), Typeflag: tar.TypeReg, ModTime: st.ModTime()}); err != nil {
		return err
	}
	h := sha256.New()
	if _, err := io.Copy(io.MultiWriter(w.tw, h), io.LimitReader(f, st.Size())); err != nil {
		return fmt.Errorf("adding %s to the bundle: %w", path, err)
	}
	w.m.Files[name] = hex.EncodeToString(h.Sum(nil))
	return nil
}

// openRegular opens path for reading without following a symlink in its
// last component, and only when it is a regular file (checked on the open
// file, so one swapped in between is refused too; a FIFO does not block).
func openRegular(path string) (*os.File, fs.FileInfo, error) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if errors.Is(err, unix.ELOOP) {
		return nil, nil, fmt.Errorf("%s is a symlink: a bundle holds only regular files (a link would carry what it points at into a published bundle); put the file itself there", path)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("opening %s: %w", path, err)
	}
	f := os.NewFile(uintptr(fd), path)
	st, err := f.Stat()
	if err == nil && !st.Mode().IsRegular() {
		err = fmt.Errorf("%s is not a regular file (%s): a bundle holds only regular files; remove it", path, st.Mode().Type())
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, st, nil
}
