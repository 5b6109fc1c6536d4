package session

import (
	"context"
	"errors"
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
	// BenchFailed is why a language's bench image could not be had where
	// its build was cancelled at halebench's deadline (image.DeadlineError):
	// its benches are build_failed saying so, and the verb goes on.
	BenchFailed map[string]string
	Order       []string // the languages of Toolchains, in the order asked
}

// BuildImages makes (or finds) the base, the sampler's toolchain and, per
// language, its toolchain and the bench image of its sources: the one way
// every verb gets its images. After the base, every language goes side by
// side (its toolchain, then its bench image), so a cold start waits for
// the slowest language rather than their sum; the log's summary lines come
// in the order asked. A language without a toolchain is recorded with the
// reason and said on log; that is not an error. On an error it returns
// what it had made, so an interrupted run reports those images; every
// build has returned when it does.
func BuildImages(ctx context.Context, b Builder, need Need, log io.Writer) (*Images, error) {
	start := time.Now()
	out := &Images{Toolchains: map[string]image.Toolchain{}, Benches: map[string]image.BenchImage{}, BenchFailed: map[string]string{}}
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
	var samplerErr error
	made := sideBySide(ctx, langs, func(ctx context.Context) { out.Sampler, samplerErr = b.SamplerToolchain(ctx) },
		func(ctx context.Context, l suite.Language) made { return makeLang(ctx, b, l, srcs[l.Name]) })
	if samplerErr != nil {
		return out, samplerErr
	}
	for _, l := range langs {
		if err := out.add(l, made[l.Name], log); err != nil {
			return out, err
		}
	}
	fmt.Fprintf(log, "images: ready in %.1fs\n", time.Since(start).Seconds())
	return out, nil
}

// made is what one language got: its toolchain and, where it has sources
// and the toolchain is available, its bench image; or the error that
// stopped it.
type made struct {
	tc     image.Toolchain
	bench  *image.BenchImage
	failed string // why the bench image's build was cancelled at the deadline
	err    error
}

func makeLang(ctx context.Context, b Builder, l suite.Language, srcs []image.Source) made {
	tc, err := b.Toolchain(ctx, l)
	if err != nil || tc.Status != image.Available || len(srcs) == 0 {
		return made{tc: tc, err: err}
	}
	bi, err := b.BenchImage(ctx, l, srcs)
	if dl := (*image.DeadlineError)(nil); errors.As(err, &dl) {
		return made{tc: tc, failed: dl.Error()}
	}
	if err != nil {
		return made{tc: tc, err: err}
	}
	return made{tc: tc, bench: &bi}
}

// sideBySide runs first and each language's one at once, and returns when
// all have: what each language made, by name.
func sideBySide(ctx context.Context, langs []suite.Language, first func(context.Context), one func(context.Context, suite.Language) made) map[string]made {
	out := make(map[string]made, len(langs))
	var mu sync.Mutex
	var wg sync.WaitGroup
	wg.Add(1 + len(langs))
	go func() { defer wg.Done(); first(ctx) }()
	for _, l := range langs {
		go func() {
			defer wg.Done()
			m := one(ctx, l)
			mu.Lock()
			out[l.Name] = m
			mu.Unlock()
		}()
	}
	wg.Wait()
	return out
}

// add records what language l made, saying it on log.
func (out *Images) add(l suite.Language, m made, log io.Writer) error {
	if m.err != nil && m.tc.Status == "" {
		return m.err
	}
	out.Toolchains[l.Name] = m.tc
	out.Order = append(out.Order, l.Name)
	if m.err != nil {
		return m.err
	}
	if m.tc.Status != image.Available {
		fmt.Fprintf(log, "images: %s %s: %s\n", l.Name, m.tc.Status, m.tc.Reason)
		return nil
	}
	if m.failed != "" {
		out.BenchFailed[l.Name] = m.failed
		fmt.Fprintf(log, "images: %s build_failed: %s\n", l.Name, m.failed)
		return nil
	}
	if m.bench == nil {
		return nil
	}
	bi := *m.bench
	out.Benches[l.Name] = bi
	fmt.Fprintf(log, "images: %-6s %s (%s); benches %s: %d steps run, %d cached\n", l.Name, m.tc.Version, termtext.ShortID(m.tc.ID), termtext.ShortID(bi.ID), bi.Executed, bi.Cached)
	return nil
}
