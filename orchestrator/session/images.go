package session

import (
	"context"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/hale-lang/halebench/orchestrator/image"
	"github.com/hale-lang/halebench/orchestrator/suite"
	"github.com/hale-lang/halebench/orchestrator/termtext"
)

// Builder makes or finds images (image.Builder; a fake in tests of
// pure logic).
type Builder interface {
	SamplerToolchain(ctx context.Context) (image.Toolchain, error)
	Base(ctx context.Context) (image.Base, error)
	Toolchain(ctx context.Context, lang suite.Language) (image.Toolchain, error)
	BenchImage(ctx context.Context, lang suite.Language, srcs []image.Source) (image.BenchImage, error)
}

var _ Builder = (*image.Builder)(nil)

// Need is what a verb needs built: the languages, the sources of each
// (none: no bench image for it) and whether a language with no sources
// still wants its toolchain (the subject, whose absence is reported).
type Need struct {
	Langs   []suite.Language
	Sources func(l suite.Language) []image.Source
	// Toolchain says whether a language without sources still gets its
	// toolchain made; nil means every language does.
	Toolchain func(l suite.Language) bool
}

// Images are what BuildImages made or found.
type Images struct {
	Sampler    image.Toolchain            // go's: the sampler is built with it
	Base       *image.Base                // nil when it could not be read
	Toolchains map[string]image.Toolchain // every language asked for, available or not
	Benches    map[string]image.BenchImage
	Order      []string // the languages of Toolchains, in the order asked
}

// BuildImages makes (or finds) the sampler's toolchain, the base and, per
// language, its toolchain and the bench image of its sources: the one way
// every verb gets its images. A language without a toolchain is recorded
// with the reason and said on log; that is not an error. On an error it
// returns what it had made, so an interrupted run reports those images.
func BuildImages(ctx context.Context, b Builder, need Need, log io.Writer) (*Images, error) {
	start := time.Now()
	out := &Images{Toolchains: map[string]image.Toolchain{}, Benches: map[string]image.BenchImage{}}
	var err error
	if out.Sampler, err = b.SamplerToolchain(ctx); err != nil {
		return out, err
	}
	if base, err := b.Base(ctx); err == nil {
		out.Base = &base
	}
	var langs []suite.Language
	srcs := map[string][]image.Source{}
	for _, l := range need.Langs {
		if need.Sources != nil {
			srcs[l.Name] = need.Sources(l)
		}
		if len(srcs[l.Name]) == 0 && need.Toolchain != nil && !need.Toolchain(l) {
			continue
		}
		langs = append(langs, l)
	}
	made := toolchains(ctx, b, langs)
	for _, l := range langs {
		if err := out.build(ctx, b, l, made[l.Name], srcs[l.Name], log); err != nil {
			return out, err
		}
	}
	fmt.Fprintf(log, "images: ready in %.1fs\n", time.Since(start).Seconds())
	return out, nil
}

// made is one toolchain as Builder.Toolchain returned it.
type made struct {
	tc  image.Toolchain
	err error
}

// toolchains makes (or finds) the toolchains of langs side by side: a cold
// start waits for the slowest, not for their sum. Each is had whole before
// any bench image is built on it; all have returned when it does.
func toolchains(ctx context.Context, b Builder, langs []suite.Language) map[string]made {
	out := make(map[string]made, len(langs))
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, l := range langs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tc, err := b.Toolchain(ctx, l)
			mu.Lock()
			out[l.Name] = made{tc, err}
			mu.Unlock()
		}()
	}
	wg.Wait()
	return out
}

func (out *Images) build(ctx context.Context, b Builder, l suite.Language, m made, srcs []image.Source, log io.Writer) error {
	tc, err := m.tc, m.err
	if err != nil {
		return err
	}
	out.Toolchains[l.Name] = tc
	out.Order = append(out.Order, l.Name)
	if tc.Status != image.Available {
		fmt.Fprintf(log, "images: %s %s: %s\n", l.Name, tc.Status, tc.Reason)
		return nil
	}
	if len(srcs) == 0 {
		return nil
	}
	bi, err := b.BenchImage(ctx, l, srcs)
	if err != nil {
		return err
	}
	out.Benches[l.Name] = bi
	fmt.Fprintf(log, "images: %-6s %s (%s); benches %s: %d steps run, %d cached\n", l.Name, tc.Version, termtext.ShortID(tc.ID), termtext.ShortID(bi.ID), bi.Executed, bi.Cached)
	return nil
}
