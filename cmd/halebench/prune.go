package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/hale-lang/halebench/orchestrator/image"
	"github.com/hale-lang/halebench/orchestrator/imagestore"
	"github.com/hale-lang/halebench/orchestrator/session"
)

const pruneHelp = `Usage: halebench prune [flags]

Removes halebench's bench and toolchain images that no report under
--results names and that are not among the --keep latest builds of their
repository, then prunes the engine's build cache down to --cache-keep.
Images it did not make (other repositories, or carrying another tag too) are
never touched, and nothing is forced: an image a container uses stays.
Prints each image kept or removed, and what was freed.

The build cache is the engine's, shared by every build on it: --no-cache
leaves it alone. --scope=NAME limits pruning to the bench images built with
that scope label (org.halebench.scope) and leaves toolchains and the cache
alone.

--cache-dir=DIR trims a cache folder (see --cache-dir of run) instead: the
image entries not used (stored or restored) within --cache-dir-age, those
malformed or of an older format (with their archives), then every layer
blob no remaining entry names, and the leftovers of interrupted writes. The
engine is not asked anything then.

Flags:
`

func runPrune(ctx context.Context, args []string) error {
	var o session.PruneOptions
	cacheKeep := byteSize(20 << 30)
	noCache := false
	fs := flag.NewFlagSet("prune", flag.ContinueOnError)
	addDriverFlag(fs)
	fs.StringVar(&o.ResultsDir, "results", "results", "folder of the reports whose images are kept")
	fs.IntVar(&o.Keep, "keep", 1, "newest builds kept per image repository, named by a report or not")
	fs.StringVar(&o.Scope, "scope", "", "only bench images labelled org.halebench.scope=NAME (toolchains and the build cache are left alone)")
	fs.Var(&cacheKeep, "cache-keep", "prune the build cache down to this size (e.g. 10g)")
	fs.BoolVar(&noCache, "no-cache", false, "leave the build cache alone")
	fs.BoolVar(&o.DryRun, "dry-run", false, "print what would be removed; remove nothing")
	cacheDir := fs.String("cache-dir", "", "trim this cache folder instead of the engine's images")
	cacheAge := fs.Duration("cache-dir-age", 7*24*time.Hour, "with --cache-dir: remove image entries not used for this long (and the layers only they held)")
	if _, err := parseN(fs, args, pruneHelp, 0, ""); err != nil {
		return err
	}
	if *cacheDir != "" {
		return pruneCacheDir(*cacheDir, *cacheAge, o.DryRun)
	}
	if o.Keep < 1 {
		return badInput("prune", errors.New("prune: --keep must be at least 1 (the latest build always stays)"))
	}
	o.CacheKeep = int64(cacheKeep)
	if noCache {
		o.CacheKeep = -1
	}
	s, err := openSession(ctx, session.Options{Kind: "prune", Images: image.Options{NoBuild: true}, Log: stderr})
	if err != nil {
		return err
	}
	defer s.Close()
	p, err := session.Run(ctx, s.Eng, o)
	if err != nil {
		return err
	}
	session.Print(os.Stdout, p, o.DryRun)
	return nil
}

// pruneCacheDir trims a cache folder; the engine is not asked.
func pruneCacheDir(dir string, age time.Duration, dryRun bool) error {
	if dryRun {
		return badInput("prune", errors.New("prune: --dry-run is not offered with --cache-dir (an image's age is in its DIR/<key>.json, field used)"))
	}
	if age < 0 {
		return badInput("prune", errors.New("prune: --cache-dir-age must not be negative"))
	}
	p, err := imagestore.Prune(dir, age, time.Now())
	if err != nil {
		return badInput("prune", err)
	}
	fmt.Printf("cache folder %s: removed %s\n", dir, p)
	return nil
}
