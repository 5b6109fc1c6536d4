package imagearchive

import (
	"context"
	"fmt"
	"io"
	"os"
)

// Save writes the image ref (which must have digest id) as a docker-save
// archive to the file w, at most max bytes, then checks what it wrote as
// Load would. w is synced; naming it is the caller's.
func Save(ctx context.Context, eng Engine, ref, id string, w *os.File, max int64) error {
	img, ok, err := eng.Image(ctx, ref)
	if err != nil {
		return err
	}
	if !ok || img.ID != id {
		return fmt.Errorf("saving %s: it has digest %q, not %s", ref, img.ID, id)
	}
	rc, err := eng.Save(ctx, ref)
	if err != nil {
		return err
	}
	defer rc.Close()
	n, err := io.Copy(w, io.LimitReader(rc, max+1))
	if err != nil {
		return fmt.Errorf("saving %s: %w", ref, err)
	}
	if n > max {
		return fmt.Errorf("saving %s: its archive is over %d bytes", ref, max)
	}
	if err := w.Sync(); err != nil {
		return err
	}
	if err := CheckFile(w, map[string]string{ref: id}); err != nil {
		return fmt.Errorf("saving %s: the engine's archive of it: %w", ref, err)
	}
	return nil
}
