package session

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
	"github.com/hale-lang/halebench/orchestrator/image"
)

// ErrInterrupted says a verb was cancelled (a signal) and wound down: its
// containers are removed and, for a run, what it measured is written. It is
// the only such error; the CLI maps it to exit 130.
var ErrInterrupted = errors.New("interrupted")

// Options say how a session is made.
type Options struct {
	Kind string // the verb: "run", "xproc", "images", "verify", …; the run id's prefix and the lock's holder
	// Engine is the engine, dialled by the caller (cmd/halebench wires the
	// driver in), who also hangs it up after Close: a session never dials.
	Engine       engine.Driver
	Images       image.Options // NoBuild: no BuildKit is dialled
	Unprivileged bool          // ask for no privilege at all
	MemLimit     int64
	Log          io.Writer
}

// Session is one verb's hold on the engine, from Open to Close: every verb
// that uses the engine gets it, its images and its samplers through one.
type Session struct {
	RunID   string
	Host    engine.HostInfo
	Builder *image.Builder
	Eng     engine.Driver
	// Features are what the engine can do, asked once at Open: a verb
	// that needs one refuses, naming it (engine.Features.Need).
	Features engine.Features

	opts     Options
	bk       engine.Builder
	sampling *Sampling
	release  func()
}

// Open takes the engine's lock (held until Close: building, sampling and
// the report all happen under it), names the run, removes the containers
// killed runs left, reads the host and, unless nothing is to be built,
// dials BuildKit. Check every input before: Open is where the engine is
// first asked anything.
func Open(ctx context.Context, o Options) (*Session, error) {
	if o.Log == nil {
		o.Log = io.Discard
	}
	if o.Engine == nil {
		return nil, errors.New("session.Open: no engine (the caller dials one)")
	}
	s := &Session{Eng: o.Engine, opts: o, RunID: newRunID(o.Kind)}
	s.opts.Images.RunID = s.RunID
	if err := s.open(ctx); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

func (s *Session) open(ctx context.Context) error {
	var err error
	if s.release, err = Lock(ctx, s.Eng, s.opts.Kind, s.opts.Log); err != nil {
		return err
	}
	if err := sweep(ctx, s.Eng, s.opts.Log); err != nil {
		return err
	}
	if s.Host, err = s.Eng.Info(ctx); err != nil {
		return err
	}
	// The engine's architecture, read from it: the images are of it unless
	// --platform asks for another.
	s.opts.Images.EngineArch = image.NormArch(s.Host.Arch)
	if err := s.needs(ctx); err != nil {
		return err
	}
	if !s.opts.Images.NoBuild {
		if s.bk, err = s.Eng.Builder(ctx); err != nil {
			return err
		}
	}
	s.Builder = image.New(s.Eng, s.BuildKit(), s.opts.Log, s.opts.Images)
	return nil
}

// needs asks the engine's features, says them on the log, and refuses
// what the session cannot do on it: images built without BuildKit, or
// normalised without image archives. Images of a platform the engine
// neither runs nor says it emulates are warned of.
func (s *Session) needs(ctx context.Context) error {
	f, err := s.Eng.Features(ctx)
	if err != nil {
		return err
	}
	s.Features = f
	s.Host.Driver = f.Driver
	fmt.Fprintf(s.opts.Log, "engine: %s driver, API %s, cgroup %s, platforms %s: %s\n", f.Driver, f.API, f.Cgroup, strings.Join(f.Platforms, " "), f)
	if !s.opts.Images.NoBuild {
		if err := f.Need("building images", engine.FeatBuildKit, engine.FeatArchives); err != nil {
			return err
		}
	}
	// Said, not refused: whether the builder's list of emulated platforms
	// is refreshed when an emulator is registered after the engine started
	// is not established on every engine (the build itself fails if none is).
	if a := s.opts.Images.Arch; a != "" && a != s.opts.Images.EngineArch {
		if err := f.NeedPlatform("--platform=linux/"+a, "linux/"+a); err != nil {
			fmt.Fprintf(s.opts.Log, "warning: %v\n", err)
		}
	}
	return nil
}

// sweep removes the containers of runs that are provably gone and says
// which it could not judge.
func sweep(ctx context.Context, eng Locker, log io.Writer) error {
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

func newRunID(kind string) string {
	if kind == "" {
		kind = "run"
	}
	return fmt.Sprintf("%s-%s-%d-%04x", kind, time.Now().UTC().Format("20060102T150405"), os.Getpid(), rand.Intn(1<<16))
}

// BuildKit is what builds the session's images (nil when
// Options.Images.NoBuild).
func (s *Session) BuildKit() image.Solver {
	if s.bk == nil {
		return nil
	}
	return s.bk
}

// Close ends the samplers, removes whatever container of the run is still
// there, releases the lock and hangs up BuildKit; the engine is the
// caller's to hang up.
func (s *Session) Close() {
	if s.sampling != nil {
		s.sampling.CloseSamplers()
	}
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

// BuilderWith is a builder like the session's but with other image
// options (ab's two sides: two hale builds), sharing the session's engine,
// BuildKit and run id.
func (s *Session) BuilderWith(o image.Options) *image.Builder {
	o.RunID = s.RunID
	o.EngineArch = s.opts.Images.EngineArch
	if o.Arch == "" {
		o.Arch = s.opts.Images.Arch
	}
	return image.New(s.Eng, s.BuildKit(), s.opts.Log, o)
}
