package engine

import (
	"context"
	"fmt"
	"strings"
)

// Command runs argv in a throw-away sandboxed container of img and returns
// its stdout. For short probes such as `go version`.
func (e *Engine) Command(ctx context.Context, img, runID string, argv []string) (string, error) {
	return e.probe(ctx, Spec{Image: img, Cmd: argv, RunID: runID})
}

// probe runs one throw-away container to its end and returns its stdout; a
// non-zero exit is an error carrying its stderr.
func (e *Engine) probe(ctx context.Context, s Spec) (string, error) {
	s.Labels = map[string]string{"org.halebench.role": "probe"}
	c, err := e.Create(ctx, s)
	if err != nil {
		return "", err
	}
	defer c.Remove()
	if err := c.Start(ctx); err != nil {
		return "", err
	}
	code, err := c.Wait(ctx)
	if err != nil {
		return "", err
	}
	out, errOut, err := c.Output(ctx, 64<<10)
	if err != nil {
		return "", err
	}
	if code != 0 {
		return out, fmt.Errorf("%s in %s exited %d: %s", strings.Join(s.Cmd, " "), s.Image, code, strings.TrimSpace(errOut))
	}
	return out, nil
}
