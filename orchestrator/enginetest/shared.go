package enginetest

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hale-lang/halebench/orchestrator/image"
	"github.com/hale-lang/halebench/orchestrator/suite"
)

// SharedSources are the test programs, relative to the module root, that
// every shared bench image holds (those of its language): the union of what
// the engine tests of runner, engine and xproc run. Adding a program here
// rebuilds the image once; a test that names a program not listed gets an
// image of its own (correct, but one more build per run).
var SharedSources = []string{
	"orchestrator/runner/testdata/*",
	"orchestrator/runner/testdata/hostile/*",
	"xproc/xproc.*",
}

// sharedSet is SharedSources of language l plus paths, as sources sorted by
// path, with absolute paths; two files with one stem are refused.
func sharedSet(l suite.Language, paths []string) ([]image.Source, error) {
	root, err := moduleRoot()
	if err != nil {
		return nil, err
	}
	set := map[string]bool{}
	for _, g := range SharedSources {
		m, err := filepath.Glob(filepath.Join(root, g))
		if err != nil {
			return nil, err
		}
		for _, p := range m {
			if strings.TrimPrefix(filepath.Ext(p), ".") == l.Ext {
				set[p] = true
			}
		}
	}
	for _, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			return nil, err
		}
		set[abs] = true
	}
	var srcs []image.Source
	units := map[string]string{}
	for p := range set {
		unit := strings.TrimSuffix(filepath.Base(p), filepath.Ext(p))
		if other, dup := units[unit]; dup {
			return nil, fmt.Errorf("test programs %s and %s are both unit %s: rename one", other, p, unit)
		}
		units[unit] = p
		srcs = append(srcs, image.Source{Unit: unit, Path: p})
	}
	sort.Slice(srcs, func(i, j int) bool { return srcs[i].Path < srcs[j].Path })
	return srcs, nil
}

// moduleRoot is the folder holding go.mod, above the test's folder.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("no go.mod above %s: run the tests inside the halebench module", dir)
		}
	}
}
