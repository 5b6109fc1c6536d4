package engine

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"syscall"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
)

// LabelOwner names the process that made a container: "<hostname>:<pid>".
const LabelOwner = "org.halebench.owner"

var shortID = regexp.MustCompile(`^[0-9a-f]{12}$`)

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
	running := map[string]bool{}
	all, err := e.cli.ContainerList(ctx, container.ListOptions{})
	if err != nil {
		return 0, fmt.Errorf("listing running containers: %w", err)
	}
	for _, c := range all {
		if len(c.ID) >= 12 {
			running[c.ID[:12]] = true
		}
	}
	n := 0
	for _, c := range list {
		if !orphaned(c.Labels[LabelOwner], host, running) {
			continue
		}
		if err := (&Container{ID: c.ID, e: e}).Remove(); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// orphaned says whether the run that made a container is gone. A run on
// this host is gone when its pid is; a run inside a container (halebench's
// own image: its hostname is the container's short id) is gone when that
// container no longer runs. Runs on other hosts are never judged.
func orphaned(owner, host string, running map[string]bool) bool {
	h, pidText, ok := strings.Cut(owner, ":")
	if !ok {
		return true // made by no known run
	}
	if h != host {
		return shortID.MatchString(h) && !running[h]
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
