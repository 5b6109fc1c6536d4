package engine

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
)

// LabelOwner names the process that made a container: "<hostname>:<pid>".
const LabelOwner = "org.halebench.owner"

// Owner is this process's owner label value.
func Owner() string {
	h, _ := os.Hostname()
	return h + ":" + strconv.Itoa(os.Getpid())
}

// RemoveOrphans removes halebench containers whose owner process, on this
// host, is gone: what a run killed with SIGKILL left. Containers of live
// runs, and of other hosts, are left alone.
func (e *Engine) RemoveOrphans(ctx context.Context) (int, error) {
	f := filters.NewArgs(filters.Arg("label", LabelApp))
	list, err := e.cli.ContainerList(ctx, container.ListOptions{All: true, Filters: f})
	if err != nil {
		return 0, fmt.Errorf("listing halebench containers: %w", err)
	}
	host, _ := os.Hostname()
	n := 0
	for _, c := range list {
		if !orphaned(c.Labels[LabelOwner], host) {
			continue
		}
		if err := (&Container{ID: c.ID, e: e}).Remove(); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

func orphaned(owner, host string) bool {
	h, pidText, ok := strings.Cut(owner, ":")
	if !ok {
		return true // made by no known run
	}
	if h != host {
		return false
	}
	pid, err := strconv.Atoi(pidText)
	if err != nil || pid <= 0 {
		return true
	}
	if pid == os.Getpid() {
		return false
	}
	err = syscall.Kill(pid, 0)
	return err == syscall.ESRCH
}
