package engine

import (
	"context"
	"fmt"
	"strings"
)

// Command runs argv in a throw-away sandboxed container of img and returns
// its stdout. For short probes such as `go version`.
func (e *Engine) Command(ctx context.Context, img, runID string, argv []string) (string, error) {
	c, err := e.Create(ctx, Spec{Image: img, Cmd: argv, RunID: runID, Labels: map[string]string{"org.halebench.role": "probe"}})
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
		return out, fmt.Errorf("%s in %s exited %d: %s", strings.Join(argv, " "), img, code, strings.TrimSpace(errOut))
	}
	return out, nil
}
