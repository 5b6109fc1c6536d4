package subject

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/hale-lang/halebench/orchestrator/gitrepo"
	"github.com/hale-lang/halebench/orchestrator/image"
)

// DefaultURL is hale's official repository, where the pinned release
// (DefaultRef) is fetched from when no hale input is given and ../hale
// is absent. HALEBENCH_HALE_URL overrides it (tests point it at a closed
// port).
const DefaultURL = "https://github.com/hale-lang/hale"

// HaleURL is the repository the pinned release is tried from.
func URL() string {
	if u := os.Getenv("HALEBENCH_HALE_URL"); u != "" {
		return u
	}
	return DefaultURL
}

var hexPrefix = regexp.MustCompile(`^[0-9a-f]{4,40}$`)

// cloneRef puts the tree of one ref (tag, branch or commit id) of a git
// repository (a URL, or a local folder, bare or not) in dir, without .git,
// and returns the commit it is. A remote is given gitrepo.DefaultCloneTimeout.
func cloneRef(ctx context.Context, repo, ref, dir string) (string, error) {
	url, want := repo, ref
	if gitrepo.IsRemote(repo) {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, gitrepo.DefaultCloneTimeout)
		defer cancel()
	} else {
		abs, err := filepath.Abs(repo)
		if err != nil {
			return "", err
		}
		// A local ref is resolved first: an unknown one is said as such,
		// and a commit id (maybe abbreviated) is fetched as its full id;
		// a tag or branch by its name (as any git server allows).
		id, err := gitrepo.ResolveRef(ctx, abs, ref)
		if err != nil {
			return "", err
		}
		if hexPrefix.MatchString(ref) {
			want = id
		}
		url = "file://" + abs
	}
	if strings.HasPrefix(want, "-") {
		return "", fmt.Errorf("ref %q: %w", ref, gitrepo.ErrUnknownRef)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	steps := [][]string{
		{"-C", dir, "init", "--quiet"},
		{"-C", dir, "fetch", "--quiet", "--depth=1", "--", url, want},
		{"-C", dir, "-c", "advice.detachedHead=false", "checkout", "--quiet", "FETCH_HEAD"},
	}
	for _, s := range steps {
		if _, err := gitrepo.Run(ctx, s...); err != nil {
			return "", fmt.Errorf("fetching %s at %s: %w; check the URL or folder, that the ref exists (--hale-ref: a tag, a branch or a full commit id for a remote) and that the network answers", repo, ref, err)
		}
	}
	id, err := gitrepo.Run(ctx, "-C", dir, "rev-parse", "HEAD")
	if err != nil {
		return "", fmt.Errorf("reading the commit of %s at %s: %w", repo, ref, err)
	}
	if err := os.RemoveAll(filepath.Join(dir, ".git")); err != nil {
		return "", err
	}
	return id, nil
}

// probeRemote asks a remote whether it has ref, within gitrepo.DefaultProbeTimeout:
// where the network is closed this fails in seconds.
func probeRemote(ctx context.Context, url, ref string) error {
	ctx, cancel := context.WithTimeout(ctx, gitrepo.DefaultProbeTimeout)
	defer cancel()
	out, err := gitrepo.Run(ctx, "ls-remote", "--", url, ref)
	if err != nil {
		return err
	}
	if out == "" {
		return fmt.Errorf("%s has no ref %s", url, ref)
	}
	return nil
}

// haleTree says whether dir holds a hale source tree.
func haleTree(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, "crates", "hale-cli"))
	return err == nil
}

// pinnedRelease is hale by default: no hale flag was given and ../hale is
// absent, so the pinned release is fetched from hale's official
// repository. Where the network does not answer this is said (what was
// tried, why it failed) in seconds, and hale is unavailable.
func (b *build) pinnedRelease(ctx context.Context, hb *image.HaleBuild, srcDir string, p *haleParts) (string, error) {
	url := URL()
	hb.Git, hb.Ref = url, DefaultRef
	fmt.Fprintf(b.log, "toolchain hale: no hale source at %s; trying the pinned release %s from %s\n", b.Src, DefaultRef, url)
	err := probeRemote(ctx, url, DefaultRef)
	var commit string
	if err == nil {
		commit, err = cloneRef(ctx, url, DefaultRef, srcDir)
	}
	if err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		// The reason is returned, not logged: whoever asked for the
		// toolchain says it, once (session's "images: hale unavailable").
		why := fmt.Sprintf("no hale source at %s, and the pinned release %s could not be fetched from %s (%s); %s",
			b.Src, DefaultRef, url, lastLine(err.Error()), haleHowTo)
		return why, nil
	}
	hb.Commit, p.src = commit, commit
	return "", nil
}
