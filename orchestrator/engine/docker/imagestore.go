package docker

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/docker/docker/api/types"
	"github.com/docker/docker/api/types/build"
	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/image"

	"github.com/hale-lang/halebench/orchestrator/engine"
)

// StoredImages lists the image store from the image list, with each
// image's shared size where the engine's API gives it there (1.42 and
// later; -1 before: its own size is then unknown), and the containers
// using it counted from the container list. Not from the engine's
// disk-usage report, which gives shared sizes on every API but walks
// every layer of the store (80 s on a crowded fuse-overlayfs engine,
// against 0.1 s for the list).
func (e *Engine) StoredImages(ctx context.Context) ([]engine.StoredImage, error) {
	list, err := e.cli.ImageList(ctx, image.ListOptions{SharedSize: true})
	if err != nil {
		return nil, fmt.Errorf("listing images at %s: %w", e.host, err)
	}
	ctrs, err := e.cli.ContainerList(ctx, container.ListOptions{All: true})
	if err != nil {
		return nil, fmt.Errorf("listing the containers that use images at %s: %w", e.host, err)
	}
	uses := map[string]int64{}
	for _, c := range ctrs {
		uses[c.ImageID]++
	}
	out := make([]engine.StoredImage, 0, len(list))
	for _, s := range list {
		img := engine.StoredImage{ID: s.ID, Labels: s.Labels, Created: time.Unix(s.Created, 0), Size: s.Size, SharedSize: s.SharedSize, Containers: uses[s.ID]}
		for _, t := range s.RepoTags {
			if t != "<none>:<none>" {
				img.Tags = append(img.Tags, t)
			}
		}
		out = append(out, img)
	}
	return out, nil
}

// ImageMadeAt is when an image was made on this engine, to the
// nanosecond: the time it was last tagged here where the engine kept one
// (a build loads and tags its result), else its creation time. A
// reproducible image's creation time is its SOURCE_DATE_EPOCH, the same
// for every build of one epoch, so it cannot tell builds apart.
func (e *Engine) ImageMadeAt(ctx context.Context, ref string) (time.Time, error) {
	ins, err := e.cli.ImageInspect(ctx, ref)
	if err != nil {
		return time.Time{}, fmt.Errorf("inspecting image %s: %w", ref, err)
	}
	if !ins.Metadata.LastTagTime.IsZero() {
		return ins.Metadata.LastTagTime, nil
	}
	return time.Parse(time.RFC3339Nano, ins.Created)
}

// BuildCacheUsage is what the engine's BuildKit cache holds: its records'
// total size and how much of it no build is using now.
func (e *Engine) BuildCacheUsage(ctx context.Context) (records int, size, reclaimable int64, err error) {
	du, err := e.diskUsage(ctx, types.BuildCacheObject)
	if err != nil {
		return 0, 0, 0, fmt.Errorf("reading the build cache's size at %s: %w", e.host, err)
	}
	for _, c := range du.BuildCache {
		if c == nil || c.Shared {
			continue
		}
		records++
		size += c.Size
		if !c.InUse {
			reclaimable += c.Size
		}
	}
	return records, size, reclaimable, nil
}

// PruneBuildCache removes the least recently used build cache records
// until keep bytes remain, and says how much it freed. The cache is the
// engine's, shared by every build on it.
func (e *Engine) PruneBuildCache(ctx context.Context, keep int64) (int64, error) {
	rep, err := e.cli.BuildCachePrune(ctx, build.CachePruneOptions{KeepStorage: keep})
	if err != nil {
		return 0, fmt.Errorf("pruning the build cache at %s: %w", e.host, err)
	}
	return int64(rep.SpaceReclaimed), nil
}

// diskUsage is the engine's disk usage report of one kind of object. An
// engine computes one such report at a time and refuses a second meanwhile
// (Docker 20.10: "a disk usage operation is already running", when
// another client, another halebench prune or test, asks too): that is
// waited out, a second at a time, as long as ctx allows.
func (e *Engine) diskUsage(ctx context.Context, what types.DiskUsageObject) (types.DiskUsage, error) {
	for {
		du, err := e.cli.DiskUsage(ctx, types.DiskUsageOptions{Types: []types.DiskUsageObject{what}})
		if err == nil || !strings.Contains(err.Error(), "disk usage operation is already running") {
			return du, err
		}
		select {
		case <-ctx.Done():
			return du, err
		case <-time.After(time.Second):
		}
	}
}
