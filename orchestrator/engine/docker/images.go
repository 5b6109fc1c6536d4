package docker

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/docker/docker/api/types/image"

	"github.com/hale-lang/halebench/orchestrator/engine"
)

// Image looks a local image up; ok is false when it does not exist.
func (e *Engine) Image(ctx context.Context, ref string) (engine.Image, bool, error) {
	ins, err := e.cli.ImageInspect(ctx, ref)
	if err != nil {
		if isNotFound(err) {
			return engine.Image{}, false, nil
		}
		return engine.Image{}, false, fmt.Errorf("inspecting image %s: %w", ref, err)
	}
	img := engine.Image{Ref: ref, ID: ins.ID, Layers: ins.RootFS.Layers, RepoDigests: ins.RepoDigests, Arch: ins.Architecture}
	if ins.Config != nil {
		img.Labels = ins.Config.Labels
	}
	return img, true, nil
}

// Import makes an image from a root filesystem tarball (the engine lock's
// empty image, session/lock.go).
func (e *Engine) Import(ctx context.Context, rootfs io.Reader, ref string, changes []string) error {
	rc, err := e.cli.ImageImport(ctx, image.ImportSource{Source: rootfs, SourceName: "-"}, ref, image.ImportOptions{Changes: changes})
	if err != nil {
		return fmt.Errorf("importing %s: %w", ref, err)
	}
	return drainMessages(rc, "importing "+ref)
}

// drainMessages reads the engine's JSON progress stream to its end; the
// engine reports a failure inside the stream, not as a status.
func drainMessages(rc io.ReadCloser, what string) error {
	defer rc.Close()
	dec := json.NewDecoder(rc)
	for {
		var msg struct {
			Error string `json:"error"`
		}
		if err := dec.Decode(&msg); err == io.EOF {
			return nil
		} else if err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		if msg.Error != "" {
			return fmt.Errorf("%s: %s", what, msg.Error)
		}
	}
}

// Pull fetches an image from its registry, e.g. one pinned by digest
// (debian:trixie@sha256:…). It fails at once where no registry is reachable.
func (e *Engine) Pull(ctx context.Context, ref string) error {
	rc, err := e.cli.ImagePull(ctx, ref, image.PullOptions{})
	if err != nil {
		return fmt.Errorf("pulling %s: %w", ref, err)
	}
	return drainMessages(rc, "pulling "+ref)
}
