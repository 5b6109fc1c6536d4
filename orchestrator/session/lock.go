package session

import (
	"archive/tar"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/hale-lang/halebench/orchestrator/engine"
)

// The engine's lock is one container of a fixed name: the engine makes a
// name once, atomically, whoever asks — root, a docker-group user, or
// halebench's own image in a container — so the one thing every run on an
// engine shares is what makes them take turns. It is created, never
// started, from an empty image, and carries the owner identity the orphan
// sweep judges by: a holder killed with SIGKILL is provably gone, and the
// sweep removes its lock like its other containers.
const (
	LockName  = "halebench-lock"
	lockImage = "halebench/lock:1"
	lockRun   = "halebench-lock" // its run label: no run's Close removes it
	// LabelLockVerb and LabelLockSince say who holds the lock since when.
	LabelLockVerb  = "org.halebench.lock.verb"
	LabelLockSince = "org.halebench.lock.since"
)

// LockWait is how long a verb waits for the engine before it gives up.
var LockWait = 2 * time.Hour

// Lock takes the engine's lock for verb: a run builds, samples and writes
// its report under it, and images, verify, own-image, prune, bundle and
// replay hold it too, so no two of them overlap on one engine. A process
// that holds it already takes it again at once (replay runs the suite
// inside its own hold); only the outer release frees it. Waiting names the
// holder on log and ends after LockWait.
func Lock(ctx context.Context, eng Locker, verb string, log io.Writer) (release func(), err error) {
	return lock(ctx, eng, verb, log, LockWait)
}

func lock(ctx context.Context, eng Locker, verb string, log io.Writer, wait time.Duration) (func(), error) {
	if err := lockImageOn(ctx, eng); err != nil {
		return nil, err
	}
	giveUp := time.Now().Add(wait)
	said := ""
	for {
		c, err := eng.Create(ctx, engine.Spec{Image: lockImage, Name: LockName, RunID: lockRun, Cmd: []string{"halebench-lock"},
			Labels: map[string]string{LabelLockVerb: verb, LabelLockSince: time.Now().UTC().Format(time.RFC3339Nano)}})
		if err == nil {
			fmt.Fprintf(log, "lock: %s took the engine at %s\n", verb, time.Now().UTC().Format(time.RFC3339Nano))
			return func() { unlock(c, verb, log) }, nil
		}
		if !isConflict(err) {
			return nil, fmt.Errorf("taking the engine's lock (container %s): %w", LockName, err)
		}
		holder, mine, err := lockHolder(ctx, eng)
		if err != nil {
			return nil, err
		}
		if mine {
			return func() {}, nil
		}
		if holder != said {
			fmt.Fprintf(log, "waiting for the engine: %s holds it (lock container %s)\n", holder, LockName)
			said = holder
		}
		// A holder that is provably gone loses the lock with its containers.
		sw, err := eng.RemoveOrphans(ctx)
		if err != nil {
			return nil, err
		}
		if sw.Removed > 0 {
			fmt.Fprintf(log, "cleanup: removed %d containers left by a killed halebench run\n", sw.Removed)
		}
		if time.Now().After(giveUp) {
			return nil, fmt.Errorf("the engine is still held after %s by %s: let it finish or stop it (if it is gone, `docker rm %s`), then run again", wait, holder, LockName)
		}
		select {
		case <-ctx.Done():
			return nil, ErrInterrupted
		case <-time.After(time.Second):
		}
	}
}

// unlock removes the lock container; the time it is stamped with comes
// before the removal is asked, so it is never later than the next holder's.
func unlock(c engine.Container, verb string, log io.Writer) {
	fmt.Fprintf(log, "lock: %s releases the engine at %s\n", verb, time.Now().UTC().Format(time.RFC3339Nano))
	if err := c.Remove(); err != nil {
		fmt.Fprintf(log, "warning: releasing the engine's lock: %v (the next run removes it once this process is gone)\n", err)
	}
}

// lockHolder names who holds the lock, and says whether it is this
// process. A lock gone between the create and this look is nobody's.
func lockHolder(ctx context.Context, eng Locker) (string, bool, error) {
	l, err := eng.ContainerLabels(ctx, LockName)
	if engine.IsNotFound(err) {
		return "nobody (just released)", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("reading the engine's lock (container %s): %w", LockName, err)
	}
	if l[engine.LabelOwnerID] == engine.SelfIdentity().String() {
		return "", true, nil
	}
	verb := l[LabelLockVerb]
	if verb == "" {
		verb = "run"
	}
	return fmt.Sprintf("halebench %s of %s (process %s) since %s", verb, l[engine.LabelOwner], l[engine.LabelOwnerID], l[LabelLockSince]), false, nil
}

func isConflict(err error) bool {
	var c interface{ Conflict() }
	return errors.As(err, &c) || strings.Contains(err.Error(), "is already in use")
}

// lockImageOn makes the lock's image, an empty one, if the engine lacks it.
func lockImageOn(ctx context.Context, eng Locker) error {
	if _, ok, err := eng.Image(ctx, lockImage); err != nil || ok {
		return err
	}
	var empty bytes.Buffer
	if err := tar.NewWriter(&empty).Close(); err != nil {
		return err
	}
	return eng.Import(ctx, &empty, lockImage, nil)
}
