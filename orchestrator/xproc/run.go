package xproc

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/hale-lang/halebench/orchestrator/engine"
	"github.com/hale-lang/halebench/orchestrator/imagebuild"
	"github.com/hale-lang/halebench/orchestrator/lifecycle"
	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/report/record"
	"github.com/hale-lang/halebench/orchestrator/status"
	"github.com/hale-lang/halebench/orchestrator/toolchain"
)

// Options are an xproc run's settings (the CLI's flags).
type Options struct {
	Suite      string
	Langs      []toolchain.Language
	Subject    string
	Variants   []string
	Iters      int
	Timeout    time.Duration // per run, of each side
	ResultsDir string
	Images     imagebuild.Options
	Log        io.Writer
}

// ErrInterrupted says the run was cancelled; its partial report is written.
var ErrInterrupted = errors.New("interrupted")

// CheckOptions refuses bad settings before any engine is needed.
func CheckOptions(o Options) error {
	if o.Iters < 1 {
		return fmt.Errorf("--iters=%d: need at least 1 run", o.Iters)
	}
	if o.Timeout <= 0 {
		return fmt.Errorf("--timeout=%s: must be positive", o.Timeout)
	}
	for _, v := range o.Variants {
		if _, ok := Variants[v]; !ok {
			return fmt.Errorf("--variant=%s: want small or large", v)
		}
	}
	return nil
}

// RunOnEngine measures every row of every variant, each pair in its own two
// containers, inside one lifecycle session; it writes the report and
// returns it with its path. A cancelled ctx still writes what was measured,
// and the error is ErrInterrupted.
func RunOnEngine(ctx context.Context, eng *engine.Engine, o Options) (*Report, string, error) {
	if err := CheckOptions(o); err != nil {
		return nil, "", err
	}
	if o.Log == nil {
		o.Log = io.Discard
	}
	s, err := lifecycle.Open(ctx, eng, lifecycle.Options{Kind: "xproc", Images: o.Images, Log: o.Log})
	if err != nil {
		return nil, "", err
	}
	defer s.Close()
	rep := &Report{
		Schema: Schema, GeneratedAt: time.Now().UTC().Format(time.RFC3339Nano), RunID: s.RunID,
		Iters: o.Iters, Subject: o.Subject, Host: report.Host{HostInfo: record.HostInfo(s.Host)},
		Images: map[string]imagebuild.Toolchain{}, BenchImages: map[string]imagebuild.BenchImage{},
		Sharing: Sharing, Notes: Notes, Variants: map[string][]*Result{},
	}
	images, err := buildImages(ctx, s.Builder, o, rep)
	if err != nil {
		return nil, "", err
	}
	if len(images) == 0 {
		return nil, "", errors.New("no language has both a toolchain and an xproc program")
	}
	priv, refused, err := s.ProbePrivilege(ctx)
	if err != nil {
		return nil, "", err
	}
	rep.Host.Privilege, rep.Host.PrivilegeRefusals = record.Privilege(priv), record.Attempts(refused)
	if err := s.LockCPUs(ctx); err != nil {
		return nil, "", err
	}
	measureAll(ctx, s, o, rep, images, priv)
	rep.Status = status.OK
	if ctx.Err() != nil {
		rep.Status = status.Interrupted
	}
	path, err := WriteJSON(rep, o.ResultsDir)
	if err != nil {
		return rep, "", err
	}
	if ctx.Err() != nil {
		return rep, path, ErrInterrupted
	}
	return rep, path, nil
}

// buildImages makes each language's toolchain and an image of its xproc
// programs; it returns the image of each language that has one.
func buildImages(ctx context.Context, b *imagebuild.Builder, o Options, rep *Report) (map[string]string, error) {
	if _, err := b.SamplerToolchain(ctx); err != nil {
		return nil, err
	}
	if base, err := b.Base(ctx); err == nil {
		rep.Base = base
	}
	images := map[string]string{}
	for _, l := range o.Langs {
		tc, err := b.Toolchain(ctx, l)
		if err != nil {
			return nil, err
		}
		rep.Images[l.Name] = tc
		if tc.Status != imagebuild.Available {
			fmt.Fprintf(o.Log, "warning: %s: %s (%s)\n", l.Name, tc.Status, tc.Reason)
			continue
		}
		srcs := Sources(o.Suite, l)
		if len(srcs) == 0 {
			continue
		}
		bi, err := b.BenchImage(ctx, l, srcs)
		if err != nil {
			return nil, err
		}
		rep.BenchImages[l.Name] = bi
		images[l.Name] = bi.Ref
	}
	return images, nil
}

// measureAll runs every row of every variant until done or cancelled.
func measureAll(ctx context.Context, s *lifecycle.Session, o Options, rep *Report, images map[string]string, priv engine.Privilege) {
	for _, v := range o.Variants {
		var results []*Result
		for _, row := range Rows(v, o.Langs) {
			img, ok := images[row.Lang.Name]
			if !ok {
				results = append(results, &Result{Row: row.Name, Title: row.Title, Status: status.Unavailable, Detail: rep.Images[row.Lang.Name].Reason, ElapsedNsSamples: []int64{}})
				continue
			}
			p := &Pair{Eng: s.Eng, Image: img, Privilege: priv, RunID: s.RunID, NCPU: s.Host.LogicalCPUs, Timeout: o.Timeout, Log: o.Log}
			res := p.Measure(ctx, row, v, o.Iters)
			results = append(results, &res)
			record.NoteSampler(&rep.Host, p.Env)
			if ctx.Err() != nil {
				break
			}
		}
		Ratios(results, o.Subject)
		rep.Variants[v] = results
		if ctx.Err() != nil {
			return
		}
	}
}
