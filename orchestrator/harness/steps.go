package harness

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/hale-lang/halebench/orchestrator/baseline"
	"github.com/hale-lang/halebench/orchestrator/catalogue"
	"github.com/hale-lang/halebench/orchestrator/imagebuild"
	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/status"
)

// buildImages makes (or finds) the sampler's toolchain, the base and, per
// language, its toolchain and bench image, recording each in the report.
// A language without a toolchain is recorded with the reason; that is not
// an error. It returns the bench images that exist.
func buildImages(ctx context.Context, b Images, p *Plan, rep *report.Report) (map[string]imagebuild.BenchImage, error) {
	start := time.Now()
	goTC, err := b.SamplerToolchain(ctx)
	if err != nil {
		return nil, err
	}
	if base, err := b.Base(ctx); err == nil {
		rep.Base = base
	}
	out := map[string]imagebuild.BenchImage{}
	for _, l := range p.Langs {
		var srcs []imagebuild.Source
		// Every bench of the language, even with --bench: one image serves
		// all runs of these sources, and --no-build finds it.
		for _, bench := range p.Suite.All {
			if path := bench.Sources[l.Name]; path != "" {
				srcs = append(srcs, imagebuild.Source{Unit: bench.Name, Path: path})
			}
		}
		if len(srcs) == 0 && l.Name != p.Subject.Name {
			continue
		}
		tc, err := b.Toolchain(ctx, l)
		if err != nil {
			return nil, err
		}
		rep.Images[l.Name] = tc
		if tc.Status != imagebuild.Available {
			fmt.Fprintf(p.Log, "images: %s %s: %s\n", l.Name, tc.Status, tc.Reason)
			continue
		}
		if len(srcs) == 0 {
			continue
		}
		bi, err := b.BenchImage(ctx, l, srcs)
		if err != nil {
			return nil, err
		}
		rep.BenchImages[l.Name] = bi
		out[l.Name] = bi
		fmt.Fprintf(p.Log, "images: %-6s %s (%s); benches %s: %d steps run, %d cached\n", l.Name, tc.Version, short(tc.ID), short(bi.ID), bi.Executed, bi.Cached)
	}
	if _, ok := rep.Images["go"]; !ok {
		rep.Images["go"] = goTC
	}
	fmt.Fprintf(p.Log, "images: ready in %.1fs\n", time.Since(start).Seconds())
	return out, nil
}

// updateBaselines writes the subject's medians into the baselines file.
func updateBaselines(p *Plan, rep *report.Report) error {
	m := map[string]baseline.Measured{}
	for _, rb := range rep.Benches {
		if rb.ElapsedNsMedian == nil || rb.Status == status.ParityMismatch {
			continue
		}
		v := baseline.Measured{Kind: rb.Kind, ElapsedNs: *rb.ElapsedNsMedian, MaxRSSKB: *rb.MaxRSSKBMedian}
		if rb.MemPeakKBMedian != nil {
			v.MemPeakKB = *rb.MemPeakKBMedian
		}
		m[rb.Name] = v
	}
	if len(m) == 0 {
		fmt.Fprintf(p.Log, "baselines: no %s result to record; %s unchanged\n", rep.Subject, p.Baselines)
		return nil
	}
	host := fmt.Sprintf("%s, %d CPUs, kernel %s", rep.Host.CPUModel, rep.Host.LogicalCPUs, rep.Host.Kernel)
	tc := rep.Images[rep.Subject]
	names, err := baseline.Update(p.Baselines, m, baseline.Provenance{Subject: rep.Subject, Toolchain: tc.Version, Host: host}, time.Now())
	if err != nil {
		return err
	}
	fmt.Fprintf(p.Log, "baselines: %d benches of %s rewritten in %s\n", len(names), rep.Subject, p.Baselines)
	return nil
}

// sourcesDigest names the bench sources a run measured.
func sourcesDigest(s *catalogue.Suite) (string, error) {
	h := sha256.New()
	var paths []string
	for _, b := range s.Benches {
		for _, p := range b.Sources {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			return "", err
		}
		sum := sha256.Sum256(data)
		fmt.Fprintf(h, "%s %x\n", p, sum)
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), nil
}

func short(id string) string {
	id = strings.TrimPrefix(id, "sha256:")
	if len(id) > 12 {
		return id[:12]
	}
	return id
}
