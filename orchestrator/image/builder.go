package image

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/hale-lang/halebench/images"
	"github.com/hale-lang/halebench/orchestrator/engine"
	"github.com/hale-lang/halebench/orchestrator/imagestore"
	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/suite"
	"github.com/hale-lang/halebench/orchestrator/termtext"
)

// Engine is what the builder needs of the engine.
type Engine interface {
	Image(ctx context.Context, ref string) (engine.Image, bool, error)
	Command(ctx context.Context, img, runID string, argv []string) (string, error)
	Pull(ctx context.Context, ref string) error
	Save(ctx context.Context, refs ...string) (io.ReadCloser, error)
	Load(ctx context.Context, archive io.Reader) error
	RemoveImage(ctx context.Context, ref string) error
	Tag(ctx context.Context, src, dst string) error
}

// Every driver is an Engine.
var _ Engine = engine.Driver(nil)

// Options choose where images come from.
type Options struct {
	BaseImage string // a local image to build FROM instead of making one
	Mirror    string // Debian mirror for mmdebstrap
	// Subject makes the toolchain of the language that is a subject build
	// (hale's, orchestrator/subject); nil: that toolchain is unavailable.
	Subject SubjectBuild
	NoBuild bool // use existing images only
	RunID   string
	Scope   string // labels the bench images (org.halebench.scope), so `prune --scope` can be kept to them
	// SourceDateEpoch is every time stamped into an image (0: DefaultEpoch).
	SourceDateEpoch int64
	// NoCache rebuilds every image and every step (no-cache solves; the
	// shared build cache is not pruned), as verify does.
	NoCache bool
	// Prefix names the images' repositories (default "halebench"); verify
	// builds under its own so the images it checks stay as they are.
	Prefix string
	// Pins are, per toolchain, the name=version packages to install instead
	// of resolving them anew (verify passes the recorded ones).
	Pins map[string][]string
	// CacheDir is a cache folder (orchestrator/imagestore): images are restored
	// from it before a build and kept in it after one ("": none).
	CacheDir string
	// CacheKey signs the entries kept in CacheDir and, when set, is
	// required of those restored (HALEBENCH_CACHE_KEY; see Provenance).
	CacheKey []byte
	// Arch is the architecture of the images (amd64, arm64; "": the
	// engine's own); EngineArch is the engine's (Docker's names are mapped,
	// "": amd64). When they differ the images' programs run under the
	// host's emulator (binfmt_misc with QEMU's user-mode emulator).
	Arch, EngineArch string
}

// Builder makes images. Its methods may be called from several goroutines
// at once (toolchains are made side by side): the base is made once, a
// toolchain asked for twice at once is made once, the cache folder takes
// one transfer at a time and the log gets whole writes.
type Builder struct {
	eng    Engine
	sv     *solver
	log    io.Writer
	opts   Options
	baseMu sync.Mutex // held while the base is made or found
	made   *Base
	mu     sync.Mutex                // guards tcs and untrusted
	tcs    map[string]*toolchainCall // toolchains made, found or being made by this builder
	cache  *imagestore.Cache         // nil without Options.CacheDir
	// cacheMu is held during each transfer to or from the cache folder.
	cacheMu sync.Mutex
	// untrusted are the images handed out that may not run privileged,
	// with why (see Provenance).
	untrusted map[string]string
	// native makes the images of the engine's own architecture when this
	// builder's are foreign: the sampler is built there (it runs natively,
	// so its seccomp filter sees the host's system calls, the emulator's
	// among them); nil when the images are the engine's own.
	native *Builder
}

// toolchainCall is one making of a language's toolchain: done is closed
// when tc and err are set.
type toolchainCall struct {
	done chan struct{}
	tc   Toolchain
	err  error
}

// lockedWriter makes each Write whole when builds log side by side.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// New returns a builder. bk may be nil when opts.NoBuild is set.
func New(eng Engine, bk Solver, log io.Writer, opts Options) *Builder {
	if opts.Mirror == "" {
		opts.Mirror = DefaultMirror
	}
	if opts.SourceDateEpoch == 0 {
		opts.SourceDateEpoch = DefaultEpoch
	}
	if opts.Prefix == "" {
		opts.Prefix = "halebench"
	}
	log = &lockedWriter{w: log}
	b := &Builder{eng: eng, sv: &solver{s: bk, log: log}, log: log, opts: opts}
	if opts.CacheDir != "" && !opts.NoCache {
		b.cache = imagestore.New(opts.CacheDir, eng, log, opts.CacheKey)
	}
	b.sv.platform = b.platform()
	if b.Foreign() {
		nopts := opts
		nopts.Arch = b.engineArch()
		b.native = New(eng, bk, log, nopts)
		b.native.cache, b.native.log = b.cache, log
		b.native.sv.log = log
	}
	return b
}

// Toolchain is one language's toolchain image, as the report records it.
type Toolchain struct {
	Lang       string         `json:"-"`
	Status     outcome.Status `json:"status"` // available, unavailable, build_failed
	Reason     string         `json:"reason,omitempty"`
	Ref        string         `json:"reference,omitempty"`
	ID         string         `json:"id,omitempty"`
	Digest     string         `json:"digest,omitempty"`
	Base       string         `json:"base,omitempty"`
	Version    string         `json:"version,omitempty"`
	BuildFlags string         `json:"build_flags,omitempty"`
	Executed   int            `json:"steps_executed"`
	Cached     int            `json:"steps_cached"`
	Inputs     *Inputs        `json:"inputs,omitempty"`
	// Hale is how hale-cli was built (only for hale built here).
	Hale *HaleBuild `json:"hale_build,omitempty"`
	// Warnings are what the toolchain got wrong without being unusable
	// (hale's release rule); a run requiring its subject refuses them.
	Warnings []string `json:"warnings,omitempty"`
	// Provenance is where the image came from and what vouches for it.
	Provenance *Provenance `json:"provenance,omitempty"`
	layers     []string    // the image's layers, which its bench image's must start with
}

// What a toolchain can be: orchestrator/judge's names, so that what a
// status means is decided there alone.
const (
	Available   = outcome.Available
	Unavailable = outcome.Unavailable
	BuildFailed = outcome.BuildFailed
)

// Base makes or finds the base image.
func (b *Builder) Base(ctx context.Context) (Base, error) {
	b.baseMu.Lock()
	defer b.baseMu.Unlock()
	if b.made != nil {
		return *b.made, nil
	}
	base, err := b.makeBase(ctx)
	if err != nil {
		return Base{}, err
	}
	b.made = &base
	return base, nil
}

// Toolchain makes or finds one language's toolchain image, once per
// builder. A language that cannot be had (hale with no source and no image)
// comes back Unavailable with the reason and how to provide it; that is not
// an error. A call while another makes the same toolchain waits for it and
// shares its outcome; one that failed is tried again by the next call.
func (b *Builder) Toolchain(ctx context.Context, lang suite.Language) (Toolchain, error) {
	b.mu.Lock()
	c, ok := b.tcs[lang.Name]
	if ok {
		select {
		case <-c.done:
			ok = c.err == nil
		default:
		}
	}
	if ok {
		b.mu.Unlock()
		<-c.done
		return c.tc, c.err
	}
	c = &toolchainCall{done: make(chan struct{})}
	if b.tcs == nil {
		b.tcs = map[string]*toolchainCall{}
	}
	b.tcs[lang.Name] = c
	b.mu.Unlock()
	c.tc, c.err = b.makeToolchain(ctx, lang)
	close(c.done)
	return c.tc, c.err
}

// SamplerToolchain is the toolchain image (go's) in which the sampler every
// bench image carries is built: without it nothing can run.
func (b *Builder) SamplerToolchain(ctx context.Context) (Toolchain, error) {
	if b.native != nil {
		return b.native.SamplerToolchain(ctx)
	}
	lang := suite.SamplerLang()
	tc, err := b.Toolchain(ctx, lang)
	if err != nil {
		return tc, err
	}
	if tc.Status != Available {
		return tc, fmt.Errorf("the %s toolchain image (which builds the sampler) is %s: %s", lang.Name, tc.Status, tc.Reason)
	}
	return tc, nil
}

func (b *Builder) makeToolchain(ctx context.Context, lang suite.Language) (Toolchain, error) {
	tc := Toolchain{Lang: lang.Name, BuildFlags: lang.BuildFlags()}
	if lang.SubjectBuild {
		return b.subject(ctx, tc, lang)
	}
	base, err := b.Base(ctx)
	if err != nil {
		return tc, err
	}
	df, err := images.FS.ReadFile(lang.Image + "/Dockerfile")
	if err != nil {
		return tc, fmt.Errorf("no toolchain definition images/%s/Dockerfile: %w", lang.Image, err)
	}
	dir, err := b.materialize(map[string][]byte{"Dockerfile": df})
	if err != nil {
		return tc, err
	}
	defer os.RemoveAll(dir)
	tc.Base = base.Ref + "@" + base.ID
	s := image{
		repo: b.opts.Prefix + "/toolchain-" + lang.Name, key: inputsDigest(base.ID, string(df), b.epochString()),
		contextDir: dir, dfDir: dir, args: map[string]string{"BASE": base.Ref},
		in:   &Inputs{DockerfileSHA256: sha256Hex(df), BaseDigest: base.ID},
		what: "toolchain " + lang.Name, parent: base.layers, parentWhy: parentWhy(base.Ref, base.Provenance),
		tag: archTag(b.arch()), arch: b.arch(),
	}
	s.prepare = b.pinPackages(ctx, base, df, lang.Name, s.what, s.args)
	if err := b.buildOrFind(ctx, &tc, s); err != nil {
		return tc, err
	}
	return b.finish(ctx, tc, lang)
}

// pinPackages is the prepare step of an image whose Dockerfile names its
// Debian packages (ARG PACKAGES): it passes the pins given for pinKey, or
// those apt resolves on base, as the PACKAGES build argument.
func (b *Builder) pinPackages(ctx context.Context, base Base, df []byte, pinKey, what string, args map[string]string) func() error {
	return func() error {
		names := dockerfilePackages(df)
		if len(names) == 0 {
			return nil
		}
		pins, ok := b.opts.Pins[pinKey]
		if !ok {
			var err error
			if pins, err = b.resolvePins(ctx, base, names, what); err != nil {
				return err
			}
		}
		args["PACKAGES"] = strings.Join(pins, " ")
		return nil
	}
}

// labelArgs holds the build arguments an image was made with that are not
// image references (those differ between builders; their digests are in the
// inputs): with it a found image's inputs can be told without a rebuild.
const labelArgs = "org.halebench.build-args"

// image is one image to build, or to find already made from these inputs.
type image struct {
	repo       string // prefix/toolchain-c; the tag is key's first 16 hex digits
	key        string // inputsDigest of what it is made from
	contextDir string
	dfDir      string
	args       map[string]string
	prepare    func() error // when not nil, runs only when a build is needed (resolving package pins)
	in         *Inputs
	what       string
	parent     []string // the layers it must start with: those of the image it is built FROM
	parentWhy  string   // why an image it is built FROM is not trusted ("": they are)
	tag        string   // what the tag ends with: its architecture's archTag
	arch       string   // its architecture, checked on an image found under its tag
}

func (s image) ref() string { return s.repo + ":" + s.key[:16] + s.tag }

// buildOrFind builds s, or finds it already made from these inputs (checked
// on the image, not taken by its tag), or with NoBuild requires it to exist.
// A built image is normalised (layer.go) so that its digest depends on
// its inputs alone.
func (b *Builder) buildOrFind(ctx context.Context, tc *Toolchain, s image) error {
	s.in.Builder, s.in.SourceDateEpoch = builderName(), b.opts.SourceDateEpoch
	s.in.BuildArgs = s.args
	tc.Inputs = s.in
	img, ok, err := b.eng.Image(ctx, s.ref())
	if err != nil {
		return err
	}
	if ok {
		if used, err := b.useFound(ctx, tc, img, s); used || err != nil {
			b.keep(ctx, s.key, tc.Ref, tc.ID, err)
			return err
		}
	}
	if used, err := b.fromCache(ctx, tc, s); used || err != nil {
		return err
	}
	if b.opts.NoBuild {
		return fmt.Errorf("%s: image %s does not exist and --no-build was given; run without --no-build (or `halebench images`) once", s.what, s.ref())
	}
	err = b.build(ctx, tc, s)
	b.keep(ctx, s.key, tc.Ref, tc.ID, err)
	return err
}

// had records how tc's image s was had: its provenance, and whether it
// is trusted.
func (b *Builder) had(tc *Toolchain, origin, checked string, s image) {
	tc.Provenance = provenance(origin, checked, s.parentWhy)
	b.note(tc.Ref, tc.Provenance)
}

// useFound takes the image found under s's tag when its labels and layers
// say it was made from s's inputs; otherwise it says why on the log and
// leaves it to be rebuilt (an error under NoBuild).
func (b *Builder) useFound(ctx context.Context, tc *Toolchain, img engine.Image, s image) (bool, error) {
	if b.opts.NoCache && !b.opts.NoBuild {
		return false, nil
	}
	why := checkFound(img, s.key, b.epochString(), s.parent)
	if w := archWhy(img.Arch, s.arch); w != "" {
		why = strings.TrimPrefix(why+"; "+w, "; ")
	}
	if why != "" {
		if b.opts.NoBuild {
			return false, fmt.Errorf("%s: image %s is not what these inputs make (%s) and --no-build was given; run without --no-build to rebuild it", s.what, s.ref(), why)
		}
		fmt.Fprintf(b.log, "%s: found %s but not using it (%s): rebuilding\n", s.what, s.ref(), why)
		return false, nil
	}
	restoreArgs(s.args, img.Labels[labelArgs])
	tc.Ref, tc.ID, tc.Digest, tc.layers = s.ref(), img.ID, img.ID, img.Layers
	b.had(tc, OriginFound, CheckedEngine, s)
	if b.opts.NoBuild {
		return true, nil
	}
	return true, b.stamp(ctx, s.ref())
}

// build runs s's Dockerfile and normalises the result under s's tag.
func (b *Builder) build(ctx context.Context, tc *Toolchain, s image) error {
	if s.prepare != nil {
		if err := s.prepare(); err != nil {
			return err
		}
	}
	s.args["SOURCE_DATE_EPOCH"] = b.epochString()
	ref, raw := s.ref(), s.ref()+"-unnormalised"
	// The temporary image goes whatever happens, also when the run is
	// being interrupted (its context cancelled): an interrupted build
	// leaves no …-unnormalised image behind.
	defer func() { _ = b.eng.RemoveImage(context.WithoutCancel(ctx), raw) }()
	res, err := b.sv.solve(ctx, s.contextDir, s.dfDir, s.args, b.opts.NoCache, exportImage(raw), s.what)
	if err != nil {
		return err
	}
	labels := map[string]string{LabelEpoch: b.epochString(), labelArgs: plainArgs(s.args), LabelInputs: s.key}
	id, err := Normalise(ctx, b.eng, raw, ref, b.opts.SourceDateEpoch, labels)
	if err == nil {
		err = b.eng.RemoveImage(ctx, raw)
	}
	if err != nil {
		return fmt.Errorf("%s: normalising the image: %w", s.what, err)
	}
	img, ok, err := b.eng.Image(ctx, ref)
	if err != nil || !ok || img.ID != id {
		return fmt.Errorf("%s: image %s is not there after its build (found %v, id %s, want %s): %v", s.what, ref, ok, img.ID, id, err)
	}
	tc.Ref, tc.ID, tc.Digest, tc.Executed, tc.Cached, tc.layers = ref, id, id, res.Executed, res.Cached, img.Layers
	b.had(tc, OriginBuilt, CheckedBuild, s)
	return b.stamp(ctx, ref)
}

// stamp tags ref again, which sets the engine's own record of when the
// image was last tagged here. A reproducible image's creation time is its
// SOURCE_DATE_EPOCH, the same for every build of one epoch; this local
// time (outside the image and its digest) is what tells the latest build
// for `prune`.
func (b *Builder) stamp(ctx context.Context, ref string) error {
	return b.eng.Tag(ctx, ref, ref)
}

func (b *Builder) epochString() string { return strconv.FormatInt(b.opts.SourceDateEpoch, 10) }

// plainArgs are the build arguments that are not image references, as
// sorted KEY=VALUE lines.
func plainArgs(args map[string]string) string {
	var lines []string
	for k, v := range args {
		if k == "BASE" || k == "TOOLCHAIN" || k == "GO_TOOLCHAIN" {
			continue
		}
		lines = append(lines, k+"="+v)
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

func restoreArgs(args map[string]string, label string) {
	for _, l := range strings.Split(label, "\n") {
		if k, v, ok := strings.Cut(l, "="); ok {
			args[k] = v
		}
	}
}

// finish asks the image for its toolchain's version.
func (b *Builder) finish(ctx context.Context, tc Toolchain, lang suite.Language) (Toolchain, error) {
	out, err := b.eng.Command(ctx, tc.Ref, b.opts.RunID, lang.Version)
	if err != nil {
		tc.Status, tc.Reason = Unavailable, fmt.Sprintf("%s does not run in %s: %s", strings.Join(lang.Version, " "), tc.Ref, termtext.Clean(err.Error()))
		return tc, nil
	}
	tc.Version = versionLine(out)
	if tc.Inputs != nil {
		if tc.Inputs.Packages, err = b.packages(ctx, tc.Ref); err != nil {
			return tc, err
		}
	}
	if tc.Digest == "" {
		tc.Digest = tc.ID
	}
	tc.Status = Available
	return tc, nil
}

// materialize writes files into a fresh temporary directory.
func (b *Builder) materialize(files map[string][]byte) (string, error) {
	dir, err := os.MkdirTemp("", "halebench-ctx-")
	if err != nil {
		return "", err
	}
	for name, data := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			os.RemoveAll(dir)
			return "", err
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			os.RemoveAll(dir)
			return "", err
		}
	}
	return dir, nil
}

// versionLine is the first line of what a tool printed (a --version),
// cleaned by termtext.
func versionLine(s string) string {
	return termtext.Line(strings.TrimSpace(termtext.Headline(s, 0)))
}
