package image_test

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/hale-lang/halebench/orchestrator/enginetest"
	"github.com/hale-lang/halebench/orchestrator/image"
	"github.com/hale-lang/halebench/orchestrator/suite"
)

// Two builds of the base, the c toolchain and its bench image from the same
// inputs, every step run again (no cache), give the same digests. Two
// no-cache builds of everything take minutes: a slow test.
func TestSlowNoCacheRebuildSameDigests(t *testing.T) {
	enginetest.Slow(t)
	eng := enginetest.Connect(t)
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Minute)
	defer cancel()
	bk := enginetest.BuildKit(t, eng)
	c, _ := suite.ByName("c")
	srcs := []image.Source{{Unit: "hello", Path: "testdata/hello.c"}}
	opts := image.Options{RunID: "test-repro", Prefix: "halebench-test-repro", SourceDateEpoch: 1767225600, NoCache: true}
	var refs []string
	t.Cleanup(func() {
		for _, r := range refs {
			_ = eng.RemoveImage(context.Background(), r)
		}
	})
	type digests struct{ base, goTC, cTC, bench string }
	build := func() (digests, image.Toolchain, image.Toolchain) {
		var log bytes.Buffer
		b := image.New(eng, bk, &log, opts)
		base, err := b.Base(ctx)
		if err != nil {
			t.Fatalf("%v\n%s", err, log.String())
		}
		gtc, err := b.SamplerToolchain(ctx)
		if err != nil {
			t.Fatalf("%v\n%s", err, log.String())
		}
		ctc, err := b.Toolchain(ctx, c)
		if err != nil || ctc.Status != image.Available {
			t.Fatalf("c toolchain %+v: %v\n%s", ctc, err, log.String())
		}
		bi, err := b.BenchImage(ctx, c, srcs)
		if err != nil {
			t.Fatalf("%v\n%s", err, log.String())
		}
		if bi.Executed == 0 {
			t.Fatalf("a no-cache build ran no step: %+v", bi)
		}
		refs = append(refs, base.Ref, gtc.Ref, ctc.Ref, bi.Ref)
		return digests{base.ID, gtc.Digest, ctc.Digest, bi.Digest}, gtc, ctc
	}
	first, gtc, ctc := build()
	// The second build installs exactly the versions the first recorded.
	opts.Pins = map[string][]string{}
	opts.Pins["c"] = splitPins(ctc.Inputs.BuildArgs["PACKAGES"])
	opts.Pins["go"] = splitPins(gtc.Inputs.BuildArgs["PACKAGES"])
	second, _, ctc2 := build()
	if first != second {
		t.Fatalf("digests differ between two no-cache builds:\nfirst  %+v\nsecond %+v", first, second)
	}
	if ctc.Inputs.SourceDateEpoch != 1767225600 || len(ctc.Inputs.Packages) == 0 || ctc.Inputs.DockerfileSHA256 == "" {
		t.Fatalf("inputs not recorded: %+v", ctc.Inputs)
	}
	if len(ctc2.Inputs.Packages) != len(ctc.Inputs.Packages) {
		t.Fatalf("package sets differ: %d vs %d", len(ctc.Inputs.Packages), len(ctc2.Inputs.Packages))
	}
}

func splitPins(s string) []string {
	var out []string
	for _, f := range bytes.Fields([]byte(s)) {
		out = append(out, string(f))
	}
	return out
}
