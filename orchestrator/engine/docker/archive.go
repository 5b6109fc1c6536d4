package docker

import (
	"context"
	"fmt"
	"io"

	"github.com/docker/docker/api/types/image"
	"github.com/docker/docker/client"
)

// Save streams images as a docker archive (docker save): manifest.json, each
// image's config and its layers as uncompressed tars.
func (e *Engine) Save(ctx context.Context, refs ...string) (io.ReadCloser, error) {
	rc, err := e.cli.ImageSave(ctx, refs)
	if err != nil {
		return nil, fmt.Errorf("saving images %v: %w", refs, err)
	}
	return rc, nil
}

// Load reads a docker archive into the engine's image store (docker load).
func (e *Engine) Load(ctx context.Context, archive io.Reader) error {
	resp, err := e.cli.ImageLoad(ctx, archive, client.ImageLoadWithQuiet(true))
	if err != nil {
		return fmt.Errorf("loading an image archive: %w", err)
	}
	return drainMessages(resp.Body, "loading an image archive")
}

// RemoveImage removes one reference halebench made (a tag, or an ID). The
// image itself goes only when no other tag names it; it is never forced.
func (e *Engine) RemoveImage(ctx context.Context, ref string) error {
	_, err := e.cli.ImageRemove(ctx, ref, image.RemoveOptions{PruneChildren: true})
	if err != nil && !isNotFound(err) {
		return fmt.Errorf("removing image %s: %w", ref, err)
	}
	return nil
}

// Tag gives the image src the further reference dst.
func (e *Engine) Tag(ctx context.Context, src, dst string) error {
	if err := e.cli.ImageTag(ctx, src, dst); err != nil {
		return fmt.Errorf("tagging %s as %s: %w", src, dst, err)
	}
	return nil
}
