package harness

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/hale-lang/halebench/orchestrator/baseline"
	"github.com/hale-lang/halebench/orchestrator/catalogue"
	"github.com/hale-lang/halebench/orchestrator/engine"
	"github.com/hale-lang/halebench/orchestrator/imagebuild"
	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/toolchain"
)

func buildImages(ctx context.Context, b *imagebuild.Builder, suite *catalogue.Suite, langs []toolchain.Language, subject string, rep *report.Report, log io.Writer) (map[string]imagebuild.BenchImage, error) {
	start := time.Now()
	goTC, err := b.SamplerToolchain(ctx)
	if err != nil {
		return nil, err
	}
	if base, err := b.Base(ctx); err == nil {
		rep.Base = base
	}
	out := map[string]imagebuild.BenchImage{}
	for _, l := range langs {
		var srcs []imagebuild.Source
		// Every bench of the language, even with --bench: one image serves
		// all runs of these sources, and --no-build finds it.
		for _, bench := range suite.All {
			if p := bench.Sources[l.Name]; p != "" {
				srcs = append(srcs, imagebuild.Source{Unit: bench.Name, Path: p})
			}
		}
		if len(srcs) == 0 && l.Name != subject {
			continue
		}
		tc, err := b.Toolchain(ctx, l)
		if err != nil {
			return nil, err
		}
		rep.Images[l.Name] = tc
		if tc.Status != imagebuild.Available {
			fmt.Fprintf(log, "images: %s %s: %s\n", l.Name, tc.Status, tc.Reason)
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
		fmt.Fprintf(log, "images: %-6s %s (%s); benches %s: %d steps run, %d cached\n", l.Name, tc.Version, short(tc.ID), short(bi.ID), bi.Executed, bi.Cached)
	}
	if _, ok := rep.Images["go"]; !ok {
		rep.Images["go"] = goTC
	}
	fmt.Fprintf(log, "images: ready in %.1fs\n", time.Since(start).Seconds())
	return out, nil
}

func updateBaselines(o Options, rep *report.Report, tc imagebuild.Toolchain) error {
	m := map[string]baseline.Measured{}
	for _, rb := range rep.Benches {
		if rb.ElapsedNsMedian == nil || rb.Status == "parity_mismatch" {
			continue
		}
		v := baseline.Measured{Kind: rb.Kind, ElapsedNs: *rb.ElapsedNsMedian, MaxRSSKB: *rb.MaxRSSKBMedian}
		if rb.MemPeakKBMedian != nil {
			v.MemPeakKB = *rb.MemPeakKBMedian
		}
		m[rb.Name] = v
	}
	if len(m) == 0 {
		fmt.Fprintf(o.Log, "baselines: no %s result to record; %s unchanged\n", rep.Subject, o.Baselines)
		return nil
	}
	host := fmt.Sprintf("%s, %d CPUs, kernel %s", rep.Host.CPUModel, rep.Host.LogicalCPUs, rep.Host.Kernel)
	names, err := baseline.Update(o.Baselines, m, baseline.Provenance{Subject: rep.Subject, Toolchain: tc.Version, Host: host}, time.Now())
	if err != nil {
		return err
	}
	fmt.Fprintf(o.Log, "baselines: %d benches of %s rewritten in %s\n", len(names), rep.Subject, o.Baselines)
	return nil
}

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
		data, err := catalogue.ReadSource(p)
		if err != nil {
			return "", err
		}
		sum := sha256.Sum256(data)
		fmt.Fprintf(h, "%s %x\n", p, sum)
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), nil
}

// RemoveOrphans removes the containers that a killed halebench run left
// (their owner is gone) and says so on log.
func RemoveOrphans(ctx context.Context, eng *engine.Engine, log io.Writer) error {
	sw, err := eng.RemoveOrphans(ctx)
	if err != nil {
		return err
	}
	if sw.Removed > 0 {
		fmt.Fprintf(log, "cleanup: removed %d containers left by a killed halebench run\n", sw.Removed)
	}
	if len(sw.Left) > 0 {
		shown := sw.Left
		if len(shown) > 3 {
			shown = append(shown[:3:3], fmt.Sprintf("and %d more", len(sw.Left)-3))
		}
		fmt.Fprintf(log, "cleanup: left %d halebench containers whose owner cannot be proven gone (remove one with `docker rm -f ID` once no run uses it): %s\n",
			len(sw.Left), strings.Join(shown, "; "))
	}
	return nil
}
