package image_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hale-lang/halebench/orchestrator/enginetest"
	"github.com/hale-lang/halebench/orchestrator/image"
	"github.com/hale-lang/halebench/orchestrator/subject"
	"github.com/hale-lang/halebench/orchestrator/suite"
)

func TestToolchainAndBenchImages(t *testing.T) {
	eng := enginetest.Connect(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	bk := enginetest.BuildKit(t, eng)
	var log bytes.Buffer
	b := image.New(eng, bk, &log, image.Options{RunID: "test-images"})
	c, _ := suite.ByName("c")
	goLang, _ := suite.ByName("go")
	ctc, err := b.Toolchain(ctx, c)
	if err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	if ctc.Status != image.Available || !strings.Contains(ctc.Version, "clang version") {
		t.Fatalf("c toolchain = %+v", ctc)
	}
	gtc, err := b.Toolchain(ctx, goLang)
	if err != nil || gtc.Status != image.Available || !strings.HasPrefix(gtc.Version, "go version go1.") {
		t.Fatalf("go toolchain = %+v, %v", gtc, err)
	}
	srcs := []image.Source{{Unit: "hello", Path: "testdata/hello.c"}, {Unit: "broken", Path: "testdata/broken.c"}, {Unit: "bomb", Path: "testdata/bomb.c"}}
	bi, err := b.BenchImage(ctx, c, srcs)
	if err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	if bi.ID == "" || !strings.HasPrefix(bi.Ref, "halebench/bench-c:") {
		t.Fatalf("bench image = %+v", bi)
	}

	// Nothing changed: a second round finds the images made for these inputs
	// and executes no step.
	log.Reset()
	// Two asking for it at once (toolchains are made side by side) get one
	// outcome.
	b2 := image.New(eng, bk, &log, image.Options{RunID: "test-images"})
	var ctcAlso image.Toolchain
	var errAlso error
	both := make(chan struct{})
	go func() { ctcAlso, errAlso = b2.Toolchain(ctx, c); close(both) }()
	ctc2, err := b2.Toolchain(ctx, c)
	<-both
	if err != nil || errAlso != nil {
		t.Fatal(err, errAlso)
	}
	if ctcAlso.ID != ctc2.ID || ctcAlso.Ref != ctc2.Ref {
		t.Errorf("two calls at once: %s and %s", ctcAlso.ID, ctc2.ID)
	}
	bi2, err := b2.BenchImage(ctx, c, srcs)
	if err != nil {
		t.Fatal(err)
	}
	if ctc2.Executed != 0 || bi2.Executed != 0 || ctc2.ID != ctc.ID || bi2.ID != bi.ID {
		t.Fatalf("second build executed toolchain %d, bench %d steps (ids %s/%s, %s/%s); want all cached\n%s",
			ctc2.Executed, bi2.Executed, ctc.ID, ctc2.ID, bi.ID, bi2.ID, log.String())
	}

	// The broken sibling left its compiler message, the good one a binary;
	// the macro bomb ran into the compile's memory cap.
	out, err := eng.Command(ctx, bi.Ref, "test-images", []string{"sh", "-c", "ls /bench/bin; cat " + image.FailedPath("broken")})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "hello\n") || !strings.Contains(out, "undefined_symbol") || strings.Contains(out, "bomb\n") {
		t.Fatalf("bench image contents:\n%s", out)
	}
	out, err = eng.Command(ctx, bi.Ref, "test-images", []string{"cat", image.FailedPath("bomb")})
	if err != nil || !strings.Contains(out, "out of memory") {
		t.Fatalf("the macro bomb's build log (want the compiler out of memory under the cap): %v\n%s", err, out)
	}
	// Nothing of the compilers' scratch (clang's crash reproducer) is left
	// in the image's layers (a container's /tmp is a fresh tmpfs: the
	// layers are read instead).
	files, err := image.Files(ctx, eng, bi.Ref)
	if err != nil {
		t.Fatal(err)
	}
	for p := range files {
		if p = strings.Trim(p, "/"); strings.HasPrefix(p, "tmp/") {
			t.Errorf("the bench image holds %s", p)
		}
	}
}

func TestHaleUnavailableWithoutSource(t *testing.T) {
	eng := enginetest.Connect(t)
	b := image.New(eng, nil, &bytes.Buffer{}, image.Options{Subject: subject.Build{Src: t.TempDir()}})
	hale, _ := suite.ByName("hale")
	tc, err := b.Toolchain(context.Background(), hale)
	if err != nil {
		t.Fatal(err)
	}
	if tc.Status != image.Unavailable || !strings.Contains(tc.Reason, "--hale-src") || !strings.Contains(tc.Reason, "--hale-image") {
		t.Fatalf("hale toolchain = %+v, want unavailable with how to provide it", tc)
	}
}

// A --base-image that is neither local nor pullable says so and what to do.
func TestBaseImageNotLocalNotPullable(t *testing.T) {
	eng := enginetest.Connect(t)
	b := image.New(eng, nil, &bytes.Buffer{}, image.Options{BaseImage: "registry.invalid/debian:trixie@sha256:0000000000000000000000000000000000000000000000000000000000000000"})
	// Bounded: a pull that hangs instead of failing ends the test, not CI.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	_, err := b.Base(ctx)
	if ctx.Err() != nil {
		t.Fatalf("no answer from the pull within 2 minutes: %v", err)
	}
	if err == nil || !strings.Contains(err.Error(), "could not be pulled") || !strings.Contains(err.Error(), "mmdebstrap") {
		t.Fatalf("err = %v", err)
	}
}

// A tag moved onto another image (as a hostile bundle's archive could do) is
// not taken: under --no-build the toolchain and the base are refused, naming
// why; the right image under the same tag is taken. The tags live under a
// prefix of the test's own and are removed after it; nothing is built.
func TestRetaggedImageRefused(t *testing.T) {
	eng := enginetest.Connect(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	bk := enginetest.BuildKit(t, eng)
	var log bytes.Buffer
	b := image.New(eng, bk, &log, image.Options{RunID: "test-retag"})
	c, _ := suite.ByName("c")
	goLang, _ := suite.ByName("go")
	base, err := b.Base(ctx)
	if err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	ctc, err := b.Toolchain(ctx, c)
	if err != nil || ctc.Status != image.Available {
		t.Fatalf("c toolchain %+v: %v\n%s", ctc, err, log.String())
	}
	gtc, err := b.Toolchain(ctx, goLang)
	if err != nil || gtc.Status != image.Available {
		t.Fatalf("go toolchain %+v: %v\n%s", gtc, err, log.String())
	}
	const prefix = "halebench-test-retag"
	baseTag := prefix + base.Ref[strings.Index(base.Ref, "/"):]
	cTag := prefix + ctc.Ref[strings.Index(ctc.Ref, "/"):]
	t.Cleanup(func() {
		for _, r := range []string{baseTag, cTag} {
			_ = eng.RemoveImage(context.Background(), r)
		}
	})
	noBuild := func() (image.Toolchain, error) {
		return image.New(eng, nil, &log, image.Options{RunID: "test-retag", Prefix: prefix, NoBuild: true}).Toolchain(ctx, c)
	}
	tag := func(src, dst string) {
		if err := eng.Tag(ctx, src, dst); err != nil {
			t.Fatal(err)
		}
	}
	tag(base.Ref, baseTag)
	tag(gtc.Ref, cTag) // the go toolchain under the c toolchain's tag
	if tc, err := noBuild(); err == nil || !strings.Contains(err.Error(), "not what these inputs make") {
		t.Fatalf("the go toolchain under c's tag was taken: %+v, %v", tc, err)
	}
	tag(ctc.Ref, cTag)
	if tc, err := noBuild(); err != nil || tc.ID != ctc.ID {
		t.Fatalf("the c toolchain under its own tag was refused: %+v, %v\n%s", tc, err, log.String())
	}
	tag(gtc.Ref, baseTag) // a toolchain (two layers, other labels) under the base's tag
	_, err = image.New(eng, nil, &log, image.Options{RunID: "test-retag", Prefix: prefix, NoBuild: true}).Base(ctx)
	if err == nil || !strings.Contains(err.Error(), "layers") {
		t.Fatalf("a toolchain under the base's tag was taken as the base: %v", err)
	}
}
