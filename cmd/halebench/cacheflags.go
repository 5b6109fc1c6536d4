package main

import (
	"errors"
	"flag"
	"fmt"
	"os"

	"github.com/hale-lang/halebench/orchestrator/image"
	"github.com/hale-lang/halebench/orchestrator/imagestore"
)

// errKeyPrinted ends a verb given --print-cache-key (exit 0): the key is
// all it was asked for.
var errKeyPrinted = errors.New("cache key printed")

// cacheFlags are the cache folder's flags, among the common ones.
type cacheFlags struct {
	dir      string
	printKey bool
}

func (c *cacheFlags) addFlags(fs *flag.FlagSet) {
	fs.StringVar(&c.dir, "cache-dir", "", "cache folder for CI: images are restored from `DIR` (checked) instead of built, and kept there after a build; entries are signed with $HALEBENCH_CACHE_KEY when set, and a restore no key vouches for runs unprivileged")
	fs.BoolVar(&c.printKey, "print-cache-key", false, "print the key a CI cache step stores --cache-dir under (a digest of the images' inputs) and exit")
}

// apply checks the folder (before any engine is asked) and sets it in o; with
// --print-cache-key it prints the key and returns errKeyPrinted.
func (c *cacheFlags) apply(verb, suite string, o *image.Options) error {
	if c.printKey {
		key, err := image.CacheKey(*o, suite)
		if err != nil {
			return badInput(verb, err)
		}
		fmt.Println(key)
		return errKeyPrinted
	}
	if c.dir == "" {
		return nil
	}
	if err := imagestore.Prepare(c.dir); err != nil {
		return badInput(verb, err)
	}
	o.CacheDir = c.dir
	key, err := imagestore.SigningKey(os.Getenv("HALEBENCH_CACHE_KEY"))
	o.CacheKey = key
	return badInput(verb, err)
}
