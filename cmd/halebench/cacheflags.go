package main

import (
	"errors"
	"flag"

	"github.com/hale-lang/halebench/orchestrator/image"
)

// errKeyPrinted ends a verb given --print-cache-key (exit 0): the key is
// all it was asked for.
var errKeyPrinted = errors.New("cache key printed")

// addCacheFlags gives a verb that builds images the cache folder's flags.
func addCacheFlags(fs *flag.FlagSet, g *image.Given) {
	fs.StringVar(&g.CacheDir, "cache-dir", "", "cache folder for CI: images are restored from `DIR` (checked) instead of built, and kept there after a build; entries are signed with $HALEBENCH_CACHE_KEY when set, and a restore no key vouches for runs unprivileged")
	fs.BoolVar(&g.PrintKey, "print-cache-key", false, "print the key a CI cache step stores --cache-dir under (a digest of the images' inputs) and exit")
}
