package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/hale-lang/halebench/orchestrator/engine"
	"github.com/hale-lang/halebench/orchestrator/harness"
	"github.com/hale-lang/halebench/orchestrator/imagebuild"
	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/toolchain"
	"github.com/hale-lang/halebench/orchestrator/xproc"
)

const xprocHelp = `Usage: halebench xproc [flags]

The cross-process shared-memory pair: per language, a reader container and a
producer container sharing one /dev/shm (one IPC namespace), pinned to
different CPUs; the reader times from the first record to the last and checks
the payload. Node's row (†) is two threads in one container: not comparable.
Writes results/xproc-<stamp>.json and prints the seed's two tables. Gates
nothing.

Flags:
`

func runXproc(ctx context.Context, args []string) error {
	var o common
	var iters int
	var variant, results string
	var jsonOut bool
	var timeout time.Duration
	fs := flag.NewFlagSet("xproc", flag.ContinueOnError)
	o.addFlags(fs)
	fs.IntVar(&iters, "iters", 10, "runs of each pair")
	fs.StringVar(&variant, "variant", "", "small or large (default both)")
	fs.StringVar(&results, "results", "results", "folder for the JSON report")
	fs.BoolVar(&jsonOut, "json", false, "print only the JSON report on stdout")
	fs.DurationVar(&timeout, "timeout", 2*time.Minute, "per-run timeout of each side")
	if err := parse(fs, args, xprocHelp); err != nil {
		return err
	}
	variants := []string{"small", "large"}
	if variant != "" {
		if _, ok := xproc.Variants[variant]; !ok {
			return &harness.UsageError{Msg: fmt.Sprintf("--variant=%s: want small or large", variant)}
		}
		variants = []string{variant}
	}
	if iters < 1 {
		return &harness.UsageError{Msg: "--iters must be at least 1"}
	}
	langs, err := toolchain.Parse(o.langs)
	if err != nil {
		return &harness.UsageError{Msg: err.Error()}
	}
	log := logTo(o.quiet)
	eng, err := engine.Connect(ctx)
	if err != nil {
		return err
	}
	defer eng.Close()
	if err := harness.RemoveOrphans(ctx, eng, log); err != nil {
		return err
	}
	info, err := eng.Info(ctx)
	if err != nil {
		return err
	}
	bk, err := eng.BuildKit(ctx)
	if err != nil {
		return err
	}
	defer bk.Close()
	runID := fmt.Sprintf("xproc-%s-%d", time.Now().UTC().Format("20060102T150405"), os.Getpid())
	opts, err := o.imageOptions()
	if err != nil {
		return err
	}
	opts.RunID = runID
	b := imagebuild.New(eng, bk, log, opts)
	rep := &xproc.Report{
		Schema: xproc.Schema, GeneratedAt: time.Now().UTC().Format(time.RFC3339Nano), RunID: runID,
		Iters: iters, Subject: o.subject, Host: report.Host{HostInfo: info},
		Images: map[string]imagebuild.Toolchain{}, BenchImages: map[string]imagebuild.BenchImage{},
		Sharing: xproc.Sharing, Notes: xproc.Notes, Variants: map[string][]*xproc.Result{},
	}
	if _, err := b.SamplerToolchain(ctx); err != nil {
		return err
	}
	if base, err := b.Base(ctx); err == nil {
		rep.Base = base
	}
	images := map[string]string{}
	for _, l := range langs {
		tc, err := b.Toolchain(ctx, l)
		if err != nil {
			return err
		}
		rep.Images[l.Name] = tc
		if tc.Status != imagebuild.Available {
			fmt.Fprintf(log, "warning: %s: %s (%s)\n", l.Name, tc.Status, tc.Reason)
			continue
		}
		srcs := xproc.Sources(o.suite, l)
		if len(srcs) == 0 {
			continue
		}
		bi, err := b.BenchImage(ctx, l, srcs)
		if err != nil {
			return err
		}
		rep.BenchImages[l.Name] = bi
		images[l.Name] = bi.Ref
	}
	var probe string
	for _, ref := range images {
		probe = ref
	}
	if probe == "" {
		return &harness.UsageError{Msg: "no language has both a toolchain and an xproc program"}
	}
	priv, refused, err := eng.ProbePrivilege(ctx, probe, runID, false)
	if err != nil {
		return err
	}
	rep.Host.Privilege, rep.Host.PrivilegeRefusals = priv, refused
	release, err := harness.LockCPUs(ctx, log)
	if err != nil {
		return err
	}
	defer release()
	rep.Status = "ok"
	for _, v := range variants {
		var results []*xproc.Result
		for _, row := range xproc.Rows(v, langs) {
			img, ok := images[row.Lang.Name]
			if !ok {
				tc := rep.Images[row.Lang.Name]
				results = append(results, &xproc.Result{Row: row.Name, Title: row.Title, Status: "unavailable", Detail: tc.Reason, ElapsedNsSamples: []int64{}})
				continue
			}
			p := &xproc.Pair{Eng: eng, Image: img, Privilege: priv, RunID: runID, NCPU: info.LogicalCPUs, Timeout: timeout, Log: log}
			res := p.Measure(ctx, row, v, iters)
			results = append(results, &res)
			if rep.Host.MemPeakSource == "" && p.Env.MemPeakSource != "" {
				rep.Host.MemPeakSource, rep.Host.MemPeakError = p.Env.MemPeakSource, p.Env.MemPeakError
				rep.Host.ContainerCgroup = p.Env.CgroupVersion
				if rep.Host.CPUModel == "" {
					rep.Host.CPUModel = p.Env.CPUModel
				}
			}
			if ctx.Err() != nil {
				rep.Status = "interrupted"
				break
			}
		}
		xproc.Ratios(results, o.subject)
		rep.Variants[v] = results
		if ctx.Err() != nil {
			break
		}
	}
	path, werr := xproc.WriteJSON(rep, results)
	if jsonOut {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		enc.Encode(rep)
	} else {
		xproc.Tables(os.Stdout, rep)
	}
	if werr != nil {
		return werr
	}
	fmt.Fprintf(log, "report: %s\n", path)
	if ctx.Err() != nil {
		return harness.ErrInterrupted
	}
	return nil
}
