package lifecycle

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand"
	"os"
	"strings"
	"time"

	"github.com/hale-lang/halebench/orchestrator/engine"
	"github.com/hale-lang/halebench/orchestrator/imagebuild"
	"github.com/hale-lang/halebench/orchestrator/runner"
	bkclient "github.com/moby/buildkit/client"
)

// Options say how a session is made.
type Options struct {
	Kind         string // "run" or "xproc": the run id's prefix
	Images       imagebuild.Options
	Unprivileged bool // ask for no privilege at all
	MemLimit     int64
	Log          io.Writer
}

// Session is one run's hold on the engine, from Open to Close.
type Session struct {
	RunID   string
	Host    engine.HostInfo
	Builder *imagebuild.Builder
	Eng     *engine.Engine

	opts    Options
	bk      *bkclient.Client
	priv    *engine.Privilege
	pool    *runner.Pool
	release func()
}

// Open names the run, removes the containers killed runs left, reads the
// host and, unless nothing is to be built, dials BuildKit.
func Open(ctx context.Context, eng *engine.Engine, o Options) (*Session, error) {
	if o.Log == nil {
		o.Log = io.Discard
	}
	s := &Session{Eng: eng, opts: o, RunID: newRunID(o.Kind)}
	s.opts.Images.RunID = s.RunID
	sw, err := eng.RemoveOrphans(ctx)
	if err != nil {
		return nil, err
	}
	if sw.Removed > 0 {
		fmt.Fprintf(o.Log, "cleanup: removed %d containers left by a killed halebench run\n", sw.Removed)
	}
	if len(sw.Left) > 0 {
		shown := sw.Left
		if len(shown) > 3 {
			shown = append(shown[:3:3], fmt.Sprintf("and %d more", len(sw.Left)-3))
		}
		fmt.Fprintf(o.Log, "cleanup: left %d halebench containers whose owner cannot be proven gone (remove one with `docker rm -f ID` once no run uses it): %s\n",
			len(sw.Left), strings.Join(shown, "; "))
	}
	if s.Host, err = eng.Info(ctx); err != nil {
		return nil, err
	}
	if !o.Images.NoBuild {
		if s.bk, err = eng.BuildKit(ctx); err != nil {
			return nil, err
		}
	}
	s.Builder = imagebuild.New(eng, s.bk, o.Log, s.opts.Images)
	return s, nil
}

func newRunID(kind string) string {
	if kind == "" {
		kind = "run"
	}
	return fmt.Sprintf("%s-%s-%d-%04x", kind, time.Now().UTC().Format("20060102T150405"), os.Getpid(), rand.Intn(1<<16))
}

// ProbePrivilege finds the most privilege the host grants a container,
// always on the same image (the sampler's toolchain image, which every run
// has), and keeps it for the sampler containers. It returns the stronger
// modes the engine refused on the way.
func (s *Session) ProbePrivilege(ctx context.Context) (engine.Privilege, []engine.Attempt, error) {
	tc, err := s.Builder.SamplerToolchain(ctx)
	if err != nil {
		return engine.Privilege{}, nil, err
	}
	priv, refused, err := s.Eng.ProbePrivilege(ctx, tc.Ref, s.RunID, s.opts.Unprivileged)
	if err != nil {
		return priv, refused, err
	}
	s.priv = &priv
	if priv.Mode != engine.ModePrivileged {
		fmt.Fprintf(s.opts.Log, "privilege: running %s (%d stronger modes refused by the engine; see host.privilege_refusals)\n", priv, len(refused))
	}
	return priv, refused, nil
}

// Privilege is what ProbePrivilege found.
func (s *Session) Privilege() (engine.Privilege, bool) {
	if s.priv == nil {
		return engine.Privilege{}, false
	}
	return *s.priv, true
}

// LockCPUs waits for this host's CPU lock; Close releases it.
func (s *Session) LockCPUs(ctx context.Context) error {
	if s.release != nil {
		return nil
	}
	release, err := LockCPUs(ctx, s.opts.Log)
	if err != nil {
		return err
	}
	s.release = release
	return nil
}

var errNoPrivilege = errors.New("sampling before the privilege probe (a bug: call ProbePrivilege first)")

// Sample runs a job in the sampler container for w, started on first use.
func (s *Session) Sample(ctx context.Context, w runner.Where, j runner.Job) runner.Outcome {
	if s.pool == nil {
		if s.priv == nil {
			panic(errNoPrivilege)
		}
		s.pool = runner.NewPool(runner.OnEngine(s.Eng), *s.priv, s.RunID, s.opts.MemLimit, s.opts.Log)
	}
	return s.pool.Sample(ctx, w, j)
}

// CloseSamplers ends the sampler containers and lists what was started.
func (s *Session) CloseSamplers() []runner.Started {
	if s.pool == nil {
		return []runner.Started{}
	}
	s.pool.Close()
	return s.pool.Started()
}

// Close ends the samplers, removes whatever container of the run is still
// there, releases the CPU lock and hangs up BuildKit.
func (s *Session) Close() {
	s.CloseSamplers()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if n, err := s.Eng.RemoveRun(ctx, s.RunID); err != nil {
		fmt.Fprintf(s.opts.Log, "warning: removing the run's containers: %v (docker ps -a --filter label=%s=%s)\n", err, engine.LabelRun, s.RunID)
	} else if n > 0 {
		fmt.Fprintf(s.opts.Log, "cleanup: removed %d containers of this run still there at its end\n", n)
	}
	if s.release != nil {
		s.release()
		s.release = nil
	}
	if s.bk != nil {
		s.bk.Close()
		s.bk = nil
	}
}
