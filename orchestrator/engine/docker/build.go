package docker

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"net"
	"regexp"
	"strings"
	"sync"
	"time"

	bkclient "github.com/moby/buildkit/client"
	"github.com/tonistiigi/fsutil"

	"github.com/hale-lang/halebench/orchestrator/engine"
	"github.com/hale-lang/halebench/orchestrator/termtext"
)

// BuildKit is the engine's embedded BuildKit, dialled by Engine.BuildKit.
type BuildKit struct {
	bk   *bkclient.Client
	host string
}

var _ engine.Builder = (*BuildKit)(nil)

// Builder is the engine's embedded BuildKit (BuildKit).
func (e *Engine) Builder(ctx context.Context) (engine.Builder, error) {
	bk, err := e.BuildKit(ctx)
	if err != nil {
		return nil, err
	}
	return bk, nil
}

// BuildKit dials the engine's embedded BuildKit over its /grpc and /session
// endpoints, the way buildx's docker driver does, and checks it answers.
func (e *Engine) BuildKit(ctx context.Context) (*BuildKit, error) {
	bk, err := bkclient.New(ctx, "",
		bkclient.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) {
			return e.cli.DialHijack(ctx, "/grpc", "h2c", nil)
		}),
		bkclient.WithSessionDialer(func(ctx context.Context, proto string, meta map[string][]string) (net.Conn, error) {
			return e.cli.DialHijack(ctx, "/session", proto, meta)
		}),
	)
	if err != nil {
		return nil, fmt.Errorf("buildkit at %s/grpc: %w", e.host, err)
	}
	pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if _, err := bk.ListWorkers(pctx); err != nil {
		bk.Close()
		return nil, fmt.Errorf("buildkit unavailable at %s/grpc (the engine must have BuildKit: Docker 18.09 or newer, not disabled by DOCKER_BUILDKIT=0 or the daemon's features.buildkit): %w", e.host, err)
	}
	return &BuildKit{bk: bk, host: e.host}, nil
}

// Close hangs up.
func (k *BuildKit) Close() error { return k.bk.Close() }

// stepName matches the vertices of Dockerfile instructions that do work:
// "[stage-1 3/5] RUN …", "[2/4] COPY …".
var stepName = regexp.MustCompile(`^\[[^\]]*\d+/\d+\] (RUN|COPY|ADD) `)

// solveOpt is b as BuildKit's dockerfile frontend takes it.
func solveOpt(b engine.Build) (bkclient.SolveOpt, error) {
	ctxFS, err := fsutil.NewFS(b.Context)
	if err != nil {
		return bkclient.SolveOpt{}, fmt.Errorf("building %s: build context %s: %w", b.What, b.Context, err)
	}
	dfFS, err := fsutil.NewFS(b.Dockerfile)
	if err != nil {
		return bkclient.SolveOpt{}, fmt.Errorf("building %s: %w", b.What, err)
	}
	attrs := map[string]string{"filename": "Dockerfile"}
	for k, v := range b.Args {
		if strings.HasPrefix(k, "label:") || k == "force-network-mode" {
			attrs[k] = v
			continue
		}
		attrs["build-arg:"+k] = v
	}
	if b.NoCache {
		attrs["no-cache"] = ""
	}
	if b.Platform != "" {
		attrs["platform"] = b.Platform
	}
	export := bkclient.ExportEntry{Type: "moby", Attrs: map[string]string{"name": b.Image}}
	if b.Dir != "" {
		export = bkclient.ExportEntry{Type: "local", OutputDir: b.Dir}
	}
	return bkclient.SolveOpt{
		SharedKey:     freshKey(),
		Frontend:      "dockerfile.v0",
		FrontendAttrs: attrs,
		LocalMounts:   map[string]fsutil.FS{"context": ctxFS, "dockerfile": dfFS},
		Exports:       []bkclient.ExportEntry{export},
	}, nil
}

// Build runs one Dockerfile build.
func (k *BuildKit) Build(ctx context.Context, b engine.Build) (engine.Built, error) {
	if (b.Image == "") == (b.Dir == "") {
		return engine.Built{}, fmt.Errorf("building %s: give the build an image reference or a folder, one of them (Image %q, Dir %q)", b.What, b.Image, b.Dir)
	}
	if b.Log == nil {
		b.Log = io.Discard
	}
	opt, err := solveOpt(b)
	if err != nil {
		return engine.Built{}, err
	}
	ch := make(chan *bkclient.SolveStatus)
	var out engine.Built
	var wg sync.WaitGroup
	logTail := tailBuf{max: 8000}
	wg.Add(1)
	go func() {
		defer wg.Done()
		out.Executed, out.Cached = watch(ch, b.What, b.Log, &logTail)
	}()
	res, err := k.bk.Solve(ctx, nil, opt, ch)
	wg.Wait()
	// The tail is what a build (a compiler, cargo, a build.rs) printed: it
	// reaches errors, reasons and CI logs, so it is cleaned here, once.
	out.Log = termtext.Clean(string(logTail.b))
	if err != nil {
		return out, fmt.Errorf("building %s: %w\n%s", b.What, cleanError{err}, indent(out.Log))
	}
	out.Digest = res.ExporterResponse["containerimage.digest"]
	return out, nil
}

// watch reports each Dockerfile step once as it completes and counts what
// ran and what came from the cache.
func watch(ch chan *bkclient.SolveStatus, what string, log io.Writer, logTail *tailBuf) (executed, cached int) {
	done := map[string]bool{}
	for st := range ch {
		for _, v := range st.Vertexes {
			if v.Completed == nil || done[v.Digest.String()] || !stepName.MatchString(v.Name) {
				continue
			}
			done[v.Digest.String()] = true
			if v.Cached {
				// Taken from the cache: counted, not shown.
				cached++
				continue
			}
			executed++
			state := "ran"
			if v.Started != nil {
				state = fmt.Sprintf("ran %.1fs", v.Completed.Sub(*v.Started).Seconds())
			}
			if v.Error != "" {
				state = "error: " + v.Error
			}
			fmt.Fprintf(log, "  %s: %s %s\n", what, termtext.Line(state), termtext.Line(shorten(v.Name, 90)))
		}
		for _, l := range st.Logs {
			logTail.Write(l.Data)
		}
	}
	return executed, cached
}

// cleanError is BuildKit's error with its message cleaned by termtext (it
// quotes the failing step's command); errors.Is and As still see the cause.
type cleanError struct{ err error }

func (e cleanError) Error() string { return termtext.Clean(e.err.Error()) }
func (e cleanError) Unwrap() error { return e.err }

type tailBuf struct {
	max int
	b   []byte
}

func (t *tailBuf) Write(p []byte) {
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = append(t.b[:0:0], t.b[len(t.b)-t.max:]...)
	}
}

func shorten(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= n {
		return s
	}
	return s[:n-1] + "…"
}

func indent(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	return "    " + strings.ReplaceAll(s, "\n", "\n    ")
}

// freshKey is a solve's own session key. BuildKit keeps one copy of a local
// source (the build context, the Dockerfile's folder) per name and session
// key, and brings it up to date by each file's name, size, mode and mtime;
// every context halebench writes has fixed mtimes (for reproducible
// images), so under a shared key a source edited to the same size (a digit
// in a bench) kept the old bytes, and two builds at once swapped contexts.
// A key of its own gives each solve a fresh copy: whole contexts are sent,
// and nothing of another build's stands in for them.
func freshKey() string {
	var b [16]byte
	rand.Read(b[:]) // never returns an error (it ends the program instead)
	return "halebench-" + hex.EncodeToString(b[:])
}
