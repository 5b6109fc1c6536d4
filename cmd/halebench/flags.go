package main

import (
	"context"

	"errors"
	"flag"
	"fmt"
	"github.com/hale-lang/halebench/orchestrator/engine"
	bkclient "github.com/moby/buildkit/client"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/hale-lang/halebench/orchestrator/imagebuild"
	"golang.org/x/sys/unix"
)

var errHelp = errors.New("help shown")

// inputError marks an error the user makes right by changing what they
// gave (a flag, a file, the suite): exit 2, with the message as it is and
// a pointer to the verb's help. The error it wraps stays reachable.
type inputError struct {
	verb string
	err  error
}

func (e *inputError) Error() string { return e.err.Error() }
func (e *inputError) Unwrap() error { return e.err }

// badInput wraps err as the user's to fix (nil stays nil).
func badInput(verb string, err error) error {
	if err == nil {
		return nil
	}
	return &inputError{verb: verb, err: err}
}

// common are the flags every verb that builds images shares.
type common struct {
	suite     string
	langs     string
	subject   string
	noBuild   bool
	baseImage string
	mirror    string
	haleSrc   string
	haleImage string
	hale      haleFlags
	quiet     bool
	noCache   bool
}

func (c *common) addFlags(fs *flag.FlagSet) {
	fs.StringVar(&c.suite, "suite", ".", "folder holding benches/, xproc/ and baselines.json")
	fs.StringVar(&c.langs, "lang", "", "comma-separated languages to run: hale,go,node,python,c,rust (default all)")
	fs.StringVar(&c.subject, "subject", "hale", "the language whose regressions gate; the others are comparatives")
	fs.BoolVar(&c.noBuild, "no-build", false, "build nothing: use the images a previous build made for these sources")
	fs.StringVar(&c.baseImage, "base-image", "", "Debian trixie image to build the toolchains FROM: local, or pulled if a registry answers (pin it by digest); default: make one with mmdebstrap")
	fs.StringVar(&c.mirror, "mirror", imagebuild.DefaultMirror, "Debian mirror for mmdebstrap")
	fs.StringVar(&c.haleSrc, "hale-src", "", "hale source tree to build hale-cli from (default ../hale beside the suite)")
	fs.StringVar(&c.haleImage, "hale-image", "", "local image with `hale` on PATH, instead of --hale-src")
	c.hale.addFlags(fs)
	fs.BoolVar(&c.quiet, "quiet", false, "no progress on stderr")
	fs.BoolVar(&c.noCache, "no-cache", false, "rebuild every image and step without BuildKit's cache (the shared cache is not pruned)")
}

func (c *common) imageOptions() (imagebuild.Options, error) {
	src := c.haleSrc
	if src == "" && c.haleImage == "" && c.hale.git == "" {
		src = filepath.Join(c.suite, "..", "hale")
	}
	epoch, _, err := imagebuild.SourceDateEpoch(c.suite)
	if err != nil {
		return imagebuild.Options{}, badInput("", err)
	}
	o := imagebuild.Options{BaseImage: c.baseImage, Mirror: c.mirror, HaleSrc: src, HaleImage: c.haleImage, NoBuild: c.noBuild,
		NoCache: c.noCache, SourceDateEpoch: epoch}
	c.hale.apply(&o)
	return o, nil
}

func parse(fs *flag.FlagSet, args []string, help string) error {
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), help)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return errHelp
		}
		return badInput(fs.Name(), err)
	}
	if fs.NArg() > 0 {
		return badInput(fs.Name(), fmt.Errorf("unexpected argument %q (flags are --name=value)", fs.Arg(0)))
	}
	return nil
}

// byteSize parses 512m, 4g, 1048576.
type byteSize int64

func (b *byteSize) String() string { return strconv.FormatInt(int64(*b), 10) }

func (b *byteSize) Set(s string) error {
	s = strings.ToLower(strings.TrimSpace(s))
	mult := int64(1)
	for suf, m := range map[string]int64{"k": 1 << 10, "m": 1 << 20, "g": 1 << 30} {
		if strings.HasSuffix(s, suf) {
			mult, s = m, strings.TrimSuffix(s, suf)
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 {
		return fmt.Errorf("%q is not a size (e.g. 512m, 4g)", s)
	}
	*b = byteSize(n * mult)
	return nil
}

// isTerminal says whether f is a terminal (the live progress line is drawn
// only there).
func isTerminal(f *os.File) bool {
	_, err := unix.IoctlGetTermios(int(f.Fd()), unix.TCGETS)
	return err == nil
}

func logTo(quiet bool) *os.File {
	if quiet {
		f, _ := os.Open(os.DevNull)
		return f
	}
	return os.Stderr
}

// connectBuildKit dials the engine and its BuildKit, for the verbs that
// build images without a whole run around them; done hangs up both.
func connectBuildKit(ctx context.Context) (*engine.Engine, *bkclient.Client, func(), error) {
	eng, err := engine.Connect(ctx)
	if err != nil {
		return nil, nil, nil, err
	}
	bk, err := eng.BuildKit(ctx)
	if err != nil {
		eng.Close()
		return nil, nil, nil, err
	}
	return eng, bk, func() { bk.Close(); eng.Close() }, nil
}
