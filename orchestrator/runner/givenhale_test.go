package runner_test

import (
	"bytes"
	"context"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hale-lang/halebench/orchestrator/engine"
	"github.com/hale-lang/halebench/orchestrator/enginetest"
	"github.com/hale-lang/halebench/orchestrator/image"
	"github.com/hale-lang/halebench/orchestrator/subject"
	"github.com/hale-lang/halebench/orchestrator/suite"
)

// givenKit is the set-up the engine tests of a given image share: the real
// engine and its BuildKit, a run id, the build log, and images built for
// the test (a stand-in hale whose build output the test controls, a given
// base), each removed when the test ends.
type givenKit struct {
	t     *testing.T
	ctx   context.Context
	eng   engine.Driver
	bk    engine.Builder
	runID string
	log   bytes.Buffer
	tc    string
}

// newGivenKit dials the engine; name makes the run id (test-NAME-time).
func newGivenKit(t *testing.T, ctx context.Context, name string) *givenKit {
	t.Helper()
	eng := enginetest.Connect(t)
	return &givenKit{t: t, ctx: ctx, eng: eng, bk: enginetest.BuildKit(t, eng), runID: "test-" + name + "-" + time.Now().Format("150405.000")}
}

// tag is a tag made of the run id, unique to this test run.
func (k *givenKit) tag() string {
	return strings.ToLower(strings.ReplaceAll(k.runID, ".", "-"))
}

// cToolchain is the ref of halebench's own c toolchain, which a stand-in
// hale is built on (its clang compiles a .hl file as C).
func (k *givenKit) cToolchain() string {
	k.t.Helper()
	if k.tc != "" {
		return k.tc
	}
	c, _ := suite.ByName("c")
	tc, err := image.New(k.eng, k.bk, &k.log, image.Options{RunID: k.runID}).Toolchain(k.ctx, c)
	if err != nil || tc.Status != image.Available {
		k.t.Fatalf("c toolchain %+v: %v\n%s", tc, err, k.log.String())
	}
	k.tc = tc.Ref
	return tc.Ref
}

// build builds the Dockerfile dockerfile with files beside it (each mode
// 0755) as halebench-test/NAME:TAG; args are its build arguments (FROM is
// the image it starts from by convention). The image is removed at the
// test's end.
func (k *givenKit) build(name, dockerfile string, files, args map[string]string) string {
	k.t.Helper()
	ref := "halebench-test/" + name + ":" + k.tag()
	dir := k.t.TempDir()
	files["Dockerfile"] = dockerfile
	for f, data := range files {
		if err := os.WriteFile(filepath.Join(dir, f), []byte(data), 0o755); err != nil {
			k.t.Fatal(err)
		}
	}
	if _, err := k.bk.Build(k.ctx, engine.Build{Context: dir, Dockerfile: dir, Args: args, Image: ref, What: "the test image " + name}); err != nil {
		k.t.Fatalf("building the test image %s: %v", name, err)
	}
	k.t.Cleanup(func() { _ = k.eng.RemoveImage(context.Background(), ref) })
	return ref
}

// standInHale builds a given hale image: the c toolchain plus hale (the
// script given) at /usr/local/bin/hale, plus the Dockerfile lines extra
// (which may COPY any of files).
func (k *givenKit) standInHale(name, hale, extra string, files map[string]string) string {
	k.t.Helper()
	all := map[string]string{"hale": hale}
	for f, data := range files {
		all[f] = data
	}
	df := "ARG FROM\nFROM ${FROM}\nCOPY hale /usr/local/bin/hale\n" + extra
	return k.build(name, df, all, map[string]string{"FROM": k.cToolchain()})
}

// benchImage builds the bench image of language lang from srcs (unit →
// source text, compiled in unit order), with given as hale's toolchain image when it is not "".
// The image is removed at the test's end.
func (k *givenKit) benchImage(lang, given string, srcs map[string]string) (image.BenchImage, error) {
	k.t.Helper()
	l, _ := suite.ByName(lang)
	dir := k.t.TempDir()
	var sources []image.Source
	for _, unit := range slices.Sorted(maps.Keys(srcs)) { // in name order, as a suite's
		p := filepath.Join(dir, unit+"."+l.Ext)
		if err := os.WriteFile(p, []byte(srcs[unit]), 0o644); err != nil {
			k.t.Fatal(err)
		}
		sources = append(sources, image.Source{Unit: unit, Path: p})
	}
	o := image.Options{RunID: k.runID}
	if given != "" {
		o.Subject = subject.Build{Image: given}
	}
	bi, err := image.New(k.eng, k.bk, &k.log, o).BenchImage(k.ctx, l, sources)
	if err == nil {
		k.t.Cleanup(func() { _ = k.eng.RemoveImage(context.Background(), bi.Ref) })
	}
	return bi, err
}

// mustBenchImage is benchImage that fails the test on an error.
func (k *givenKit) mustBenchImage(lang, given string, srcs map[string]string) image.BenchImage {
	k.t.Helper()
	bi, err := k.benchImage(lang, given, srcs)
	if err != nil {
		k.t.Fatalf("%v\n%s", err, k.log.String())
	}
	return bi
}

// privilege is the most this engine grants a sampler container.
func (k *givenKit) privilege(ref string) engine.Privilege {
	k.t.Helper()
	priv, _, err := k.eng.ProbePrivilege(k.ctx, ref, k.runID, false)
	if err != nil {
		k.t.Fatal(err)
	}
	return priv
}
