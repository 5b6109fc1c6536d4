package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/hale-lang/halebench/orchestrator/imagestore"
	"github.com/hale-lang/halebench/orchestrator/session"
	"github.com/hale-lang/halebench/orchestrator/termtext"
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
	o := session.PruneOptions{CacheKeep: 20 << 30}
	fs := flag.NewFlagSet("prune", flag.ContinueOnError)
	addDriverFlag(fs)
	fs.StringVar(&o.ResultsDir, "results", "results", "folder of the reports whose images are kept")
	fs.IntVar(&o.Keep, "keep", 1, "newest builds kept per image repository, named by a report or not")
	fs.StringVar(&o.Scope, "scope", "", "only bench images labelled org.halebench.scope=NAME (toolchains and the build cache are left alone)")
	fs.Var((*termtext.SizeValue)(&o.CacheKeep), "cache-keep", "prune the build cache down to this `SIZE` (e.g. 10g)")
	fs.BoolVar(&o.NoCache, "no-cache", false, "leave the build cache alone")
	fs.BoolVar(&o.DryRun, "dry-run", false, "print what would be removed; remove nothing")
	cacheDir := fs.String("cache-dir", "", "trim this cache folder instead of the engine's images")
	cacheAge := fs.Duration("cache-dir-age", 7*24*time.Hour, "with --cache-dir: remove image entries not used for this long (and the layers only they held)")
	if _, err := parseN(fs, args, pruneHelp, 0, ""); err != nil {
		return err
	}
	if *cacheDir != "" {
		p, err := imagestore.Trim(*cacheDir, *cacheAge, o.DryRun)
		if err != nil {
			return badInput("prune", err)
		}
		fmt.Printf("cache folder %s: removed %s\n", *cacheDir, p)
		return nil
	}
	if err := o.Check(); err != nil {
		return badInput("prune", err)
	}
	eng, err := dial(ctx)
	if err != nil {
		return err
	}
	defer eng.Close()
	return session.Prune(ctx, eng, o, stderr, os.Stdout)
}
