package lifecycle

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// LockCPUs makes runs on one host take turns at sampling, so that the CPUs
// one run pins are not silently shared with another. The second run says
// whom it waits for, and waits.
func LockCPUs(ctx context.Context, log io.Writer) (func(), error) {
	path := filepath.Join(os.TempDir(), "halebench-cpus.lock")
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o666)
	if err != nil {
		return nil, fmt.Errorf("CPU lock %s: %w", path, err)
	}
	said := false
	for {
		err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
		if err == nil {
			break
		}
		if err != unix.EWOULDBLOCK {
			f.Close()
			return nil, fmt.Errorf("CPU lock %s: %w", path, err)
		}
		if !said {
			holder, _ := os.ReadFile(path)
			fmt.Fprintf(log, "waiting for the CPUs: another halebench run (%s) is sampling on this host\n", strings.TrimSpace(string(holder)))
			said = true
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, ctx.Err()
		case <-time.After(500 * time.Millisecond):
		}
	}
	f.Truncate(0)
	f.WriteAt([]byte(fmt.Sprintf("pid %d since %s\n", os.Getpid(), time.Now().UTC().Format(time.RFC3339))), 0)
	return func() {
		f.Truncate(0)
		unix.Flock(int(f.Fd()), unix.LOCK_UN)
		f.Close()
	}, nil
}
