package evidence

import (
	"archive/tar"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/hale-lang/halebench/orchestrator/imagebuild"
	"github.com/hale-lang/halebench/orchestrator/report"
)

// Manifest is the table of contents of an evidence bundle.
type Manifest struct {
	Schema          string            `json:"schema"`
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
		if tc.Status == imagebuild.Available && tc.Ref != "" {
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

// Bundle writes to out: report.json, images.tar (a docker archive of every
// image the report names), suite/ (benches/, baselines.json) and
// manifest.json. Images not in the engine with their recorded digest are an
// error: a bundle holds what was measured or nothing.
func Bundle(ctx context.Context, eng imagebuild.Engine, rep *report.Report, reportPath, suite string, out io.Writer) (*Manifest, error) {
	m := &Manifest{Schema: ManifestSchema, RunID: rep.RunID, SourceDateEpoch: rep.Base.Inputs.SourceDateEpoch, Images: Images(rep), Files: map[string]string{}}
	refs := sortedKeys(m.Images)
	for _, ref := range refs {
		img, ok, err := eng.Image(ctx, ref)
		if err != nil {
			return nil, err
		}
		if !ok || img.ID != m.Images[ref] {
			return nil, fmt.Errorf("image %s of the report is not in the engine with its recorded digest %s (found: %v %s): rebuild it (`halebench verify` shows whether it can be) before bundling", ref, m.Images[ref], ok, img.ID)
		}
	}
	tmp, err := os.CreateTemp("", "halebench-images-*.tar")
	if err != nil {
		return nil, err
	}
	defer os.Remove(tmp.Name())
	defer tmp.Close()
	rc, err := eng.Save(ctx, refs...)
	if err != nil {
		return nil, err
	}
	_, err = io.Copy(tmp, rc)
	rc.Close()
	if err != nil {
		return nil, fmt.Errorf("saving the report's images: %w", err)
	}
	tw := tar.NewWriter(out)
	addFile := func(name, path string) error {
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		st, err := f.Stat()
		if err != nil {
			return err
		}
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: st.Size(), Typeflag: tar.TypeReg, ModTime: st.ModTime()}); err != nil {
			return err
		}
		h := sha256.New()
		if _, err := io.Copy(io.MultiWriter(tw, h), f); err != nil {
			return err
		}
		m.Files[name] = hex.EncodeToString(h.Sum(nil))
		return nil
	}
	if err := addFile("report.json", reportPath); err != nil {
		return nil, err
	}
	if err := addFile("images.tar", tmp.Name()); err != nil {
		return nil, err
	}
	if bl := filepath.Join(suite, "baselines.json"); fileExists(bl) {
		if err := addFile("suite/baselines.json", bl); err != nil {
			return nil, err
		}
	}
	err = filepath.WalkDir(filepath.Join(suite, "benches"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(suite, p)
		if err != nil {
			return err
		}
		return addFile("suite/"+filepath.ToSlash(rel), p)
	})
	if err != nil {
		return nil, fmt.Errorf("adding the bench sources: %w", err)
	}
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, err
	}
	if err := tw.WriteHeader(&tar.Header{Name: "manifest.json", Mode: 0o644, Size: int64(len(data)), Typeflag: tar.TypeReg}); err != nil {
		return nil, err
	}
	if _, err := tw.Write(data); err != nil {
		return nil, err
	}
	return m, tw.Close()
}

// Unpack extracts a bundle into dir, checks every file against the
// manifest, loads its images into the engine and checks every digest.
func Unpack(ctx context.Context, eng imagebuild.Engine, bundle, dir string) (*Manifest, error) {
	f, err := os.Open(bundle)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sums := map[string]string{}
	tr := tar.NewReader(f)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("reading bundle %s: %w", bundle, err)
		}
		name := filepath.Clean(filepath.FromSlash(h.Name))
		if h.Typeflag != tar.TypeReg || strings.HasPrefix(name, "..") || filepath.IsAbs(name) {
			continue
		}
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return nil, err
		}
		out, err := os.Create(p)
		if err != nil {
			return nil, err
		}
		hs := sha256.New()
		_, err = io.Copy(io.MultiWriter(out, hs), tr)
		out.Close()
		if err != nil {
			return nil, err
		}
		sums[h.Name] = hex.EncodeToString(hs.Sum(nil))
	}
	data, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		return nil, fmt.Errorf("bundle %s has no manifest.json: %w", bundle, err)
	}
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil || m.Schema != ManifestSchema {
		return nil, fmt.Errorf("bundle %s: manifest.json is not a %s manifest (%v)", bundle, ManifestSchema, err)
	}
	for name, want := range m.Files {
		if sums[name] != want {
			return nil, fmt.Errorf("bundle %s: %s has sha256 %s, the manifest says %s: the bundle is damaged", bundle, name, sums[name], want)
		}
	}
	img, err := os.Open(filepath.Join(dir, "images.tar"))
	if err != nil {
		return nil, err
	}
	defer img.Close()
	if err := eng.Load(ctx, img); err != nil {
		return nil, err
	}
	for _, ref := range sortedKeys(m.Images) {
		got, ok, err := eng.Image(ctx, ref)
		if err != nil {
			return nil, err
		}
		if !ok || got.ID != m.Images[ref] {
			return nil, fmt.Errorf("image %s loaded from the bundle has digest %s, the manifest says %s", ref, got.ID, m.Images[ref])
		}
	}
	return &m, nil
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
