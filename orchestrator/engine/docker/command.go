package docker

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/hale-lang/halebench/orchestrator/engine"
)

// ProbeTimeout bounds every probe (a toolchain's --version, `cat` of a
// build record, dpkg-query, the privilege probe): a toolchain under test
// may be anyone's, and its --version may never return.
var ProbeTimeout = 2 * time.Minute

// Command runs argv in a throw-away sandboxed container of img and returns
// its stdout. For short probes such as `go version`; it is stopped and
// removed after ProbeTimeout.
func (e *Engine) Command(ctx context.Context, img, runID string, argv []string) (string, error) {
	return e.probe(ctx, engine.Spec{Image: img, Cmd: argv, RunID: runID})
}

// probe runs one throw-away container to its end, within ProbeTimeout, and
// returns its stdout; a non-zero exit is an error carrying its stderr.
func (e *Engine) probe(parent context.Context, s engine.Spec) (string, error) {
	ctx, cancel := context.WithTimeout(parent, ProbeTimeout)
	defer cancel()
	out, err := e.probeIn(ctx, s)
	if err != nil && parent.Err() == nil && ctx.Err() == context.DeadlineExceeded {
		return "", fmt.Errorf("%s in %s did not finish within %s (a probe that hangs); the container was removed: check that image's toolchain", strings.Join(s.Cmd, " "), s.Image, ProbeTimeout)
	}
	return out, err
}

func (e *Engine) probeIn(ctx context.Context, s engine.Spec) (string, error) {
	s.Labels = map[string]string{"org.halebench.role": "probe"}
	c, err := e.create(ctx, s)
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

// ProbePrivilege starts `true` in img under each candidate until one starts,
// and returns it with the refusals met on the way.
func (e *Engine) ProbePrivilege(ctx context.Context, img, runID string, unprivileged bool) (engine.Privilege, []engine.Attempt, error) {
	var tried []engine.Attempt
	for _, p := range engine.Candidates(unprivileged) {
		err := e.tryStart(ctx, img, runID, p)
		if err == nil {
			return p, tried, nil
		}
		if ctx.Err() != nil {
			return engine.Privilege{}, tried, ctx.Err()
		}
		tried = append(tried, engine.Attempt{Privilege: p, Error: err.Error()})
	}
	return engine.Privilege{}, tried, fmt.Errorf("no container could start from %s, even unprivileged: %s", img, tried[len(tried)-1].Error)
}

func (e *Engine) tryStart(ctx context.Context, img, runID string, p engine.Privilege) error {
	_, err := e.probe(ctx, engine.Spec{Image: img, Cmd: []string{"true"}, RunID: runID, Privilege: p})
	return err
}
