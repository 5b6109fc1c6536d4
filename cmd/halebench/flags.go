package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/hale-lang/halebench/orchestrator/image"
	"github.com/hale-lang/halebench/orchestrator/subject"
	"github.com/hale-lang/halebench/orchestrator/suite"
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
	suite   string
	langs   string
	subject string
	images  image.Given
	hale    subject.Build
	out     outputFlags
}

func (c *common) addFlags(fs *flag.FlagSet) {
	fs.StringVar(&c.suite, "suite", ".", "the suite: the folder holding benches/ (or the seed's micro/ and app/), xproc/ and baselines.json")
	fs.StringVar(&c.langs, "lang", "", "comma-separated languages to run: "+strings.ReplaceAll(suite.Names(), ", ", ",")+" (default all)")
	fs.StringVar(&c.subject, "subject", "hale", "the language whose regressions gate; the others are comparatives")
	fs.BoolVar(&c.images.NoBuild, "no-build", false, "build nothing: use the images a previous build made for these sources")
	fs.StringVar(&c.images.BaseImage, "base-image", "", "Debian trixie image to build the toolchains FROM: local, or pulled where a registry answers, only pinned by digest (REPO@sha256:...); default: bootstrap one inside the engine with mmdebstrap")
	fs.StringVar(&c.images.Mirror, "mirror", image.DefaultMirror, "Debian mirror the base is bootstrapped from")
	fs.StringVar(&c.images.Platform, "platform", "", "the images' platform: linux/amd64 or linux/arm64 (default: the engine's own); another than the engine's runs under its emulator: times and memory are then not measurements and never gate, counts do")
	fs.StringVar(&c.hale.Src, "hale-src", "", "hale source tree to build hale-cli from (default ../hale beside the suite; where that is absent, the pinned release "+subject.DefaultRef+" from "+subject.DefaultURL+", or $HALEBENCH_HALE_URL)")
	fs.StringVar(&c.hale.Image, "hale-image", "", "local `IMAGE` with hale on PATH, instead of --hale-src")
	addHaleFlags(fs, &c.hale)
	c.out.addFlags(fs)
	addCacheFlags(fs, &c.images)
	addDriverFlag(fs)
	fs.BoolVar(&c.images.NoCache, "no-cache", false, "rebuild every image and step without BuildKit's cache (the shared cache is not pruned)")
}

// imageOptions are the image flags as package image takes them, the hale
// inputs given by flag checked before any engine is dialled; with
// --print-cache-key it prints the key and returns errKeyPrinted.
func (c *common) imageOptions(verb string) (image.Options, error) {
	o, key, err := c.hale.ImageOptions(c.images, c.suite)
	if key != "" {
		fmt.Println(key)
		return o, errKeyPrinted
	}
	return o, badInput(verb, err)
}

// parse parses a verb's flags wherever they stand among its arguments
// (`compare OLD NEW --alpha=0.05`); after "--" every argument is taken as
// it is. It returns the other arguments. Its errors name the verb.
func parse(fs *flag.FlagSet, args []string, help string) ([]string, error) {
	verb := fs.Name()
	fs.SetOutput(io.Discard) // the errors are returned, said once by exitCode
	fs.Usage = func() {}
	var pos, rest []string
	for i, a := range args {
		if a == "--" {
			args, rest = args[:i], args[i+1:]
			break
		}
	}
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fmt.Print(help)
				fs.SetOutput(os.Stdout)
				fs.PrintDefaults()
				return nil, errHelp
			}
			return nil, badInput(verb, fmt.Errorf("%s: %w", verb, err))
		}
		if fs.NArg() == 0 {
			break
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
	return append(pos, rest...), nil
}

// parseN parses like parse and wants exactly n other arguments, named by
// what (e.g. "one report file, REPORT.json").
func parseN(fs *flag.FlagSet, args []string, help string, n int, what string) ([]string, error) {
	pos, err := parse(fs, args, help)
	if err != nil {
		return nil, err
	}
	if len(pos) != n {
		if n == 0 {
			return nil, badInput(fs.Name(), fmt.Errorf("%s: unexpected argument %q (flags are --name=value)", fs.Name(), pos[0]))
		}
		return nil, badInput(fs.Name(), fmt.Errorf("%s: give %s (got %d arguments)", fs.Name(), what, len(pos)))
	}
	return pos, nil
}
