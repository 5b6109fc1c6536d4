package imagebuild

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"regexp"
	"strings"
	"sync"

	bkclient "github.com/moby/buildkit/client"
	"github.com/tonistiigi/fsutil"

	"github.com/hale-lang/halebench/orchestrator/termtext"
)

// solver runs one Dockerfile build through BuildKit.
type solver struct {
	bk  *bkclient.Client
	log io.Writer
}

// built is the outcome of one build.
type built struct {
	Ref      string
	Digest   string // containerimage.digest from the moby exporter
	Executed int    // Dockerfile steps that ran (not taken from the cache)
	Cached   int    // Dockerfile steps taken from the cache
	Log      string // the tail of the build's own output
}

// stepName matches the vertices of Dockerfile instructions that do work:
// "[stage-1 3/5] RUN …", "[2/4] COPY …".
var stepName = regexp.MustCompile(`^\[[^\]]*\d+/\d+\] (RUN|COPY|ADD) `)

// exportImage exports the result into the engine's image store as ref.
func exportImage(ref string) bkclient.ExportEntry {
	return bkclient.ExportEntry{Type: "moby", Attrs: map[string]string{"name": ref}}
}

// exportLocal writes the result's files into dir on this host.
func exportLocal(dir string) bkclient.ExportEntry {
	return bkclient.ExportEntry{Type: "local", OutputDir: dir}
}

// solve runs one Dockerfile build. noCache asks BuildKit to run every step
// again (the dockerfile frontend's no-cache attribute), for this solve only:
// the shared build cache is left as it is.
func (s *solver) solve(ctx context.Context, contextDir, dockerfileDir string, buildArgs map[string]string, noCache bool, export bkclient.ExportEntry, what string) (built, error) {
	ctxFS, err := fsutil.NewFS(contextDir)
	if err != nil {
		return built{}, fmt.Errorf("building %s: build context %s: %w", what, contextDir, err)
	}
	dfFS, err := fsutil.NewFS(dockerfileDir)
	if err != nil {
		return built{}, fmt.Errorf("building %s: %w", what, err)
	}
	attrs := map[string]string{"filename": "Dockerfile"}
	for k, v := range buildArgs {
		if strings.HasPrefix(k, "label:") || k == "force-network-mode" {
			attrs[k] = v // an image label (see benchLabels)
			continue
		}
		attrs["build-arg:"+k] = v
	}
	if noCache {
		attrs["no-cache"] = ""
	}
	opt := bkclient.SolveOpt{
		SharedKey:     freshKey(),
		Frontend:      "dockerfile.v0",
		FrontendAttrs: attrs,
		LocalMounts:   map[string]fsutil.FS{"context": ctxFS, "dockerfile": dfFS},
		Exports:       []bkclient.ExportEntry{export},
	}
	ch := make(chan *bkclient.SolveStatus)
	var b built
	var wg sync.WaitGroup
	var logTail tailBuf
	logTail.max = 8000
	wg.Add(1)
	go func() {
		defer wg.Done()
		b.Executed, b.Cached = s.watch(ch, what, &logTail)
	}()
	res, err := s.bk.Solve(ctx, nil, opt, ch)
	wg.Wait()
	// The tail is what a build (a compiler, cargo, a build.rs) printed: it
	// reaches errors, reasons and CI logs, so it is cleaned here, once.
	b.Log = termtext.Clean(string(logTail.b))
	if err != nil {
		return b, fmt.Errorf("building %s: %w\n%s", what, cleanError{err}, indent(b.Log))
	}
	b.Ref = export.Attrs["name"]
	b.Digest = res.ExporterResponse["containerimage.digest"]
	return b, nil
}

// watch reports each Dockerfile step once as it completes and counts what
// ran and what came from the cache.
func (s *solver) watch(ch chan *bkclient.SolveStatus, what string, logTail *tailBuf) (executed, cached int) {
	done := map[string]bool{}
	names := map[string]string{}
	for st := range ch {
		for _, v := range st.Vertexes {
			names[v.Digest.String()] = v.Name
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
			fmt.Fprintf(s.log, "  %s: %s %s\n", what, termtext.Line(state), termtext.Line(shorten(v.Name, 90)))
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
