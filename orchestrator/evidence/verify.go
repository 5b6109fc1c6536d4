package evidence

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/hale-lang/halebench/orchestrator/engine"
	"github.com/hale-lang/halebench/orchestrator/image"
	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/result"
	"github.com/hale-lang/halebench/orchestrator/session"
	"github.com/hale-lang/halebench/orchestrator/stamp"
	"github.com/hale-lang/halebench/orchestrator/suite"
	"github.com/hale-lang/halebench/orchestrator/termtext"
)

// ErrDiffer says a rebuilt image's digest is not the recorded one.
var ErrDiffer = errors.New("rebuilt images differ from the report")

// VerifyPrefix names the repositories verify builds into, so the images the
// report names stay as they are while they are compared.
const VerifyPrefix = "halebench-verify"

// Row is one image: its recorded digest, the rebuilt one, and what differed.
type Row struct {
	Image    string   `json:"image"`
	Recorded string   `json:"recorded"`
	Rebuilt  string   `json:"rebuilt"`
	Equal    bool     `json:"equal"`
	Why      []string `json:"why,omitempty"`
}

// ReadReport reads a run report, as replay takes one, and checks the
// build inputs it records (ReadStored); an ab result or an xproc report is
// refused for what it holds.
func ReadReport(path string) (*report.Report, error) {
	st, err := ReadStored(path)
	if err != nil {
		return nil, err
	}
	switch k := st.Doc.Kind; k {
	case result.AB:
		return nil, fmt.Errorf("%s is %s (%s): replay reruns a run report's benches and sets its medians beside the recorded ones, and an ab result's figures are ratios of two sides measured in the same rounds, which a rerun of one bundle's images does not make; rerun `halebench ab` with both sides, or `halebench verify` the result to check its images", path, k.What(), k.Schema())
	case result.Xproc:
		return nil, fmt.Errorf("%s is %s (%s): replay reruns a run report's benches, and an xproc report's rows are reader/producer pairs in two containers, no bench; rerun `halebench xproc` on the bundle's suite, or `halebench verify` the report to check its images", path, k.What(), k.Schema())
	}
	return st.Doc.Run, nil
}

// NoteMaker writes to w, as a note, when rep was made by another
// halebench than this one (stamp.Another), naming both: verify and replay
// still run, but a digest or a figure that moved may be the tool's doing.
func NoteMaker(w io.Writer, rep *report.Report) {
	if w == nil {
		return
	}
	if n := stamp.Another(rep.Halebench, stamp.This()); n != "" {
		fmt.Fprintln(w, "halebench: note:", n)
	}
}

// VerifyOptions are where the sources of the images are.
type VerifyOptions struct {
	Suite string // the suite folder whose benches built the bench images
	// BSuite is an ab result's side B's suite folder ("": Suite).
	BSuite string
	// Subject rebuilds the subject-build toolchain (hale's: a
	// subject.Build of its --hale-src); nil: it is unavailable.
	Subject image.SubjectBuild
	Langs   []string // only these languages' toolchain and bench images (and the base, and the sampler's toolchain, go's); nil: all
	RunID   string
	Log     io.Writer
	// EngineArch is the engine's architecture (its info's; "": amd64):
	// the report's images are rebuilt for the architecture they were.
	EngineArch string
}

func (o VerifyOptions) wantsExactly(lang string) bool {
	for _, l := range o.Langs {
		if l == lang {
			return true
		}
	}
	return false
}

func (o VerifyOptions) wants(lang string) bool {
	if len(o.Langs) == 0 || lang == suite.SamplerLang().Name {
		return true
	}
	for _, l := range o.Langs {
		if l == lang {
			return true
		}
	}
	return false
}

// VerifyOn is the verify verb on eng: in a session of its own (saying its
// steps on o.Log), the images of st rebuilt as VerifyStored does, the table
// written to out and the tally to tally (ErrDiffer when an image differs).
func VerifyOn(ctx context.Context, eng engine.Driver, st *Stored, o VerifyOptions, out, tally io.Writer) error {
	s, err := session.Open(ctx, session.Options{Kind: "verify", Engine: eng, Log: o.Log})
	if err != nil {
		return err
	}
	defer s.Close()
	start := time.Now()
	o.RunID, o.EngineArch = s.RunID, s.Host.Arch
	rows, err := VerifyStored(ctx, s.Eng, s.BuildKit(), st, o)
	if err != nil {
		return err
	}
	return WriteVerify(out, tally, rows, time.Since(start))
}

// Verify rebuilds the base, every available toolchain and every bench image
// of rep from its recorded inputs (epoch, pinned packages, bench sources)
// with no cache, and compares the digests. The images it built are removed
// at the end; the ones the report names are not touched.
func Verify(ctx context.Context, eng image.Engine, bk image.Solver, rep *report.Report, o VerifyOptions) ([]Row, error) {
	return VerifyStored(ctx, eng, bk, &Stored{Path: "given to verify", Sets: []Set{{Rep: rep}}}, o)
}

// VerifyStored is Verify of every set of images a stored document names
// (a run's, an xproc report's, an ab result's two sides): one base and one
// toolchain per language, shared by the sets (checkSets), then each set's
// bench images from its own suite (an ab's side B from o.BSuite), an image
// both sides ran compared once.
func VerifyStored(ctx context.Context, eng image.Engine, bk image.Solver, st *Stored, o VerifyOptions) ([]Row, error) {
	for _, s := range st.Sets {
		if err := checkInputs("given to verify", s.Rep); err != nil {
			return nil, err
		}
	}
	if err := checkSets(st); err != nil {
		return nil, err
	}
	first := st.Sets[0].Rep
	v := &verifier{eng: eng, tcs: st.toolchains(), o: o, seen: map[string]bool{}}
	opts := image.Options{
		RunID: o.RunID, NoCache: true, Prefix: VerifyPrefix, Subject: o.Subject,
		SourceDateEpoch: first.Base.Inputs.SourceDateEpoch, Mirror: mirrorOf(first.Base),
		Pins: map[string][]string{}, Arch: image.NormArch(first.Host.ImageArch), EngineArch: o.EngineArch,
	}
	for lang, tc := range v.tcs {
		if tc.Inputs != nil && tc.Inputs.BuildArgs["PACKAGES"] != "" {
			opts.Pins[lang] = strings.Fields(tc.Inputs.BuildArgs["PACKAGES"])
		}
	}
	v.b = image.New(eng, bk, o.Log, opts)
	defer func() {
		for _, r := range v.made {
			_ = eng.RemoveImage(context.WithoutCancel(ctx), r)
		}
	}()
	base, err := v.b.Base(ctx)
	if err != nil {
		return nil, err
	}
	v.made = append(v.made, base.Ref)
	row := Row{Image: first.Base.Ref, Recorded: first.Base.ID, Rebuilt: base.ID, Equal: first.Base.ID == base.ID}
	if !row.Equal {
		row.Why = packageDiff(first.Base.Inputs.Packages, base.Inputs.Packages)
	}
	v.rows = append(v.rows, row)
	if err := v.toolchains(ctx); err != nil {
		return v.cleaned(), err
	}
	for i, s := range st.Sets {
		dir := o.Suite
		if i > 0 && o.BSuite != "" {
			dir = o.BSuite
		}
		cat, err := suite.Load(dir)
		if err != nil {
			return v.cleaned(), fmt.Errorf("%s%s: %w", st.Path, s.of(), err)
		}
		if err := v.benchImages(ctx, cat, dir, s); err != nil {
			return v.cleaned(), err
		}
	}
	return v.cleaned(), nil
}

// verifier is one verify's builder and what it has made and found so far.
type verifier struct {
	eng  image.Engine
	b    *image.Builder
	tcs  map[string]report.Toolchain // every set's, one per language
	o    VerifyOptions
	made []string
	rows []Row
	seen map[string]bool // bench images compared: reference and digest
}

// cleaned is the rows made safe to print: a reference, a digest or a
// reason can carry text out of the report.
func (v *verifier) cleaned() []Row {
	for i := range v.rows {
		r := &v.rows[i]
		r.Image, r.Recorded, r.Rebuilt = termtext.Line(r.Image), termtext.Line(r.Recorded), termtext.Line(r.Rebuilt)
		for j, w := range v.rows[i].Why {
			v.rows[i].Why[j] = termtext.Line(w)
		}
	}
	return v.rows
}

// toolchains rebuilds every available toolchain the report records.
func (v *verifier) toolchains(ctx context.Context) error {
	for _, name := range sortedKeys(v.tcs) {
		rec := v.tcs[name]
		lang, ok := suite.ByName(name)
		if !ok || rec.Status != image.Available || rec.Inputs == nil || !v.o.wants(name) {
			continue
		}
		tc, err := v.b.Toolchain(ctx, lang)
		if err != nil {
			return err
		}
		v.made = append(v.made, tc.Ref)
		row := Row{Image: rec.Ref, Recorded: rec.Digest, Rebuilt: tc.Digest, Equal: rec.Digest == tc.Digest}
		if !row.Equal {
			row.Why = append(toolchainDiff(name, rec, tc), filesDiffer(ctx, v.eng, rec.Ref, tc.Ref)...)
		}
		v.rows = append(v.rows, row)
	}
	return nil
}

// benchImages rebuilds every bench image a set records from the sources
// of the suite dir (cat, read from it): its benches, or its xproc programs.
func (v *verifier) benchImages(ctx context.Context, cat *suite.Suite, dir string, s Set) error {
	for _, name := range sortedKeys(s.Rep.BenchImages) {
		rec := s.Rep.BenchImages[name]
		lang, ok := suite.ByName(name)
		if !ok || rec.Inputs == nil || !v.o.wants(name) || (len(v.o.Langs) > 0 && lang.Sampler && !v.o.wantsExactly(name)) || v.seen[rec.Ref+"@"+rec.Digest] {
			continue
		}
		v.seen[rec.Ref+"@"+rec.Digest] = true
		if tc := s.Rep.Images[name]; tc.Status == image.Available && tc.Inputs == nil {
			return fmt.Errorf("the %s toolchain image %s (%s) was given, not built by halebench: it records no build inputs, so verify cannot rebuild it nor %s on it; give --lang without %s to rebuild the rest",
				name, termtext.Line(tc.Ref), built(tc), termtext.Line(rec.Ref), name)
		}
		units := unitsOf(cat, lang)
		if s.Xproc {
			if err := suite.CheckXproc(dir); err != nil {
				return err
			}
			units = suite.XprocUnits(dir, lang)
		}
		srcs, why, err := benchSources(units, dir, lang, rec.Inputs.Files)
		if err != nil {
			return err
		}
		bi, err := v.b.BenchImage(ctx, lang, srcs)
		if err != nil {
			return err
		}
		v.made = append(v.made, bi.Ref)
		row := Row{Image: rec.Ref, Recorded: rec.Digest, Rebuilt: bi.Digest, Equal: rec.Digest == bi.Digest}
		if !row.Equal {
			row.Why = append(why, fileDiff(rec.Inputs.Files, bi.Inputs.Files)...)
			if tc := s.Rep.Images[name]; tc.Inputs != nil && bi.Inputs.BaseDigest != tc.Digest {
				row.Why = append(row.Why, fmt.Sprintf("its toolchain image rebuilt to %s, not the recorded %s", termtext.ShortID(bi.Inputs.BaseDigest), termtext.ShortID(tc.Digest)))
			}
			if len(row.Why) == 0 {
				row.Why = []string{"same sources and toolchain: a compiler output or build step is not deterministic"}
			}
			row.Why = append(row.Why, filesDiffer(ctx, v.eng, rec.Ref, bi.Ref)...)
		}
		v.rows = append(v.rows, row)
	}
	return nil
}

// unitsOf are a language's bench sources in the suite, by unit (the
// bench's name).
func unitsOf(cat *suite.Suite, lang suite.Language) map[string]string {
	byUnit := map[string]string{}
	for _, bench := range cat.All {
		if p := bench.Sources[lang.Name]; p != "" {
			byUnit[bench.Name] = p
		}
	}
	return byUnit
}

// benchSources finds, among the suite dir's sources by unit, those a bench
// image was built from (recorded as src/<unit>.<ext>); a recorded source
// the suite no longer has is said so, not silently dropped.
func benchSources(byUnit map[string]string, dir string, lang suite.Language, files map[string]string) ([]image.Source, []string, error) {
	var srcs []image.Source
	var why []string
	for name := range files {
		if !strings.HasPrefix(name, "src/") || name == "src/.keep" {
			continue
		}
		unit := strings.TrimSuffix(strings.TrimPrefix(name, "src/"), "."+lang.Ext)
		p, ok := byUnit[unit]
		if !ok {
			why = append(why, fmt.Sprintf("bench source %s (%s) is no longer in the suite at %s", unit, lang.Name, dir))
			continue
		}
		srcs = append(srcs, image.Source{Unit: unit, Path: p})
	}
	sort.Slice(srcs, func(i, j int) bool { return srcs[i].Unit < srcs[j].Unit })
	return srcs, why, nil
}

func toolchainDiff(lang string, rec report.Toolchain, now image.Toolchain) []string {
	var why []string
	if rec.Inputs.DockerfileSHA256 != now.Inputs.DockerfileSHA256 {
		why = append(why, fmt.Sprintf("images/%s/Dockerfile changed since the report (sha256 %s, now %s)", lang, termtext.ShortID(rec.Inputs.DockerfileSHA256), termtext.ShortID(now.Inputs.DockerfileSHA256)))
	}
	if rec.Inputs.BaseDigest != now.Inputs.BaseDigest {
		why = append(why, fmt.Sprintf("its base rebuilt to %s, not the recorded %s", termtext.ShortID(now.Inputs.BaseDigest), termtext.ShortID(rec.Inputs.BaseDigest)))
	}
	why = append(why, packageDiff(rec.Inputs.Packages, now.Inputs.Packages)...)
	if len(why) == 0 {
		why = []string{"same Dockerfile, base and packages: a build step is not deterministic"}
	}
	return why
}

// fileDiff names the build-context files (bench sources, build script,
// sampler) whose digest changed, appeared or went.
func fileDiff(rec, now map[string]string) []string {
	var why []string
	for _, name := range sortedKeys(rec) {
		switch n, ok := now[name]; {
		case !ok:
			why = append(why, fmt.Sprintf("%s is gone", name))
		case n != rec[name]:
			what := "build file"
			if strings.HasPrefix(name, "src/") {
				what = "bench source"
			}
			why = append(why, fmt.Sprintf("%s %s changed (sha256 %s, now %s)", what, name, termtext.ShortID(rec[name]), termtext.ShortID(n)))
		}
	}
	for _, name := range sortedKeys(now) {
		if _, ok := rec[name]; !ok {
			why = append(why, fmt.Sprintf("%s is new", name))
		}
	}
	return why
}

// packageDiff names the packages whose version differs, or that only one
// side has.
func packageDiff(rec, now []string) []string {
	split := func(list []string) map[string]string {
		m := map[string]string{}
		for _, p := range list {
			if n, v, ok := strings.Cut(p, "="); ok {
				m[n] = v
			}
		}
		return m
	}
	a, b := split(rec), split(now)
	var why []string
	for _, n := range sortedKeys(a) {
		switch v, ok := b[n]; {
		case !ok:
			why = append(why, fmt.Sprintf("package %s %s is not installed now", n, a[n]))
		case v != a[n]:
			why = append(why, fmt.Sprintf("package %s: %s recorded, %s now", n, a[n], v))
		}
	}
	for _, n := range sortedKeys(b) {
		if _, ok := a[n]; !ok {
			why = append(why, fmt.Sprintf("package %s %s is installed now, not recorded", n, b[n]))
		}
	}
	return why
}

func mirrorOf(b report.Base) string {
	// The builder string records the mirror as mmdebstrap's last argument.
	f := strings.Fields(strings.SplitN(b.Inputs.Builder, ";", 2)[0])
	if len(f) > 0 && strings.Contains(f[len(f)-1], "://") {
		return f[len(f)-1]
	}
	return ""
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// filesDiffer names the files that differ between the recorded image (when
// the engine still has it) and the rebuilt one.
func filesDiffer(ctx context.Context, eng image.Engine, recorded, rebuilt string) []string {
	if _, ok, err := eng.Image(ctx, recorded); err != nil || !ok {
		return []string{fmt.Sprintf("%s is not in the engine: no file comparison", recorded)}
	}
	a, err := image.Files(ctx, eng, recorded)
	if err != nil {
		return []string{fmt.Sprintf("listing the files of %s: %v", recorded, err)}
	}
	b, err := image.Files(ctx, eng, rebuilt)
	if err != nil {
		return []string{fmt.Sprintf("listing the files of %s: %v", rebuilt, err)}
	}
	paths, n := image.DiffFiles(a, b, 10)
	if n == 0 {
		return []string{"every file is the same: only the image metadata differs"}
	}
	out := []string{fmt.Sprintf("%d files differ", n)}
	for _, p := range paths {
		out = append(out, "file "+p)
	}
	return out
}
