package imagebuild

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/hale-lang/halebench/orchestrator/termtext"
)

// DefaultCloneTimeout bounds a clone or fetch from a remote repository, so
// a network that does not answer is said in seconds, not after TCP's own
// timeouts.
const DefaultCloneTimeout = 30 * time.Second

// DefaultProbeTimeout bounds the first look at a remote (git ls-remote)
// before halebench commits to a clone: where the network is closed the
// pinned release is given up on in this long.
const DefaultProbeTimeout = 10 * time.Second

// DefaultHaleURL is hale's official repository, where the pinned release
// (DefaultHaleRef) is fetched from when no hale input is given and ../hale
// is absent. HALEBENCH_HALE_URL overrides it (tests point it at a closed
// port).
const DefaultHaleURL = "https://github.com/hale-lang/hale"

// HaleURL is the repository the pinned release is tried from.
func HaleURL() string {
	if u := os.Getenv("HALEBENCH_HALE_URL"); u != "" {
		return u
	}
	return DefaultHaleURL
}

// Commit is one commit of hale's history: its full id and subject line.
type Commit struct {
	ID      string `json:"id"`
	Subject string `json:"subject"`
}

// ErrUnknownRef marks a ref the repository does not have.
var ErrUnknownRef = errors.New("unknown ref")

// ErrBadRange marks a --good/--bad pair that is not a first-parent range.
var ErrBadRange = errors.New("bad range")

var fullID = regexp.MustCompile(`^[0-9a-f]{40}$`)

var hexPrefix = regexp.MustCompile(`^[0-9a-f]{4,40}$`)

// isRemote says whether repo is a URL (or scp-like address) rather than a
// folder on this host.
func isRemote(repo string) bool {
	if st, err := os.Stat(repo); err == nil && st.IsDir() {
		return false
	}
	return strings.Contains(repo, "://") || strings.Contains(repo, "@")
}

// gitCmd runs git in gitEnv (a clean environment, no terminal prompt: a
// remote asking for a password fails instead of waiting) and returns its
// trimmed stdout.
func gitCmd(ctx context.Context, args ...string) (string, error) {
	if _, err := exec.LookPath("git"); err != nil {
		return "", fmt.Errorf("--hale-git needs git on this host (apt-get install git), or give a checkout with --hale-src=DIR")
	}
	cmd := gitCommand(ctx, args...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if ctx.Err() == context.DeadlineExceeded {
			msg = "no answer in time (" + msg + ")"
		}
		return "", fmt.Errorf("git %s: %v: %s", args[0], err, termtext.Clean(msg))
	}
	return strings.TrimSpace(string(out)), nil
}

// ResolveRef names the commit a ref (tag, branch, full or abbreviated
// commit id) of a local repository points at. An unknown ref wraps
// ErrUnknownRef.
func ResolveRef(ctx context.Context, repo, ref string) (string, error) {
	if strings.HasPrefix(ref, "-") || ref == "" {
		return "", fmt.Errorf("ref %q: %w (give a tag, a branch or a commit id)", ref, ErrUnknownRef)
	}
	id, err := gitCmd(ctx, "-C", repo, "rev-parse", "--verify", "--quiet", ref+"^{commit}")
	if err != nil || !fullID.MatchString(id) {
		return "", fmt.Errorf("%s has no commit named %q: %w (give a tag, a branch or a commit id of that repository)", repo, ref, ErrUnknownRef)
	}
	return id, nil
}

// cloneRef puts the tree of one ref (tag, branch or commit id) of a git
// repository (a URL, or a local folder, bare or not) in dir, without .git,
// and returns the commit it is. A remote is given DefaultCloneTimeout.
func cloneRef(ctx context.Context, repo, ref, dir string) (string, error) {
	url, want := repo, ref
	if isRemote(repo) {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, DefaultCloneTimeout)
		defer cancel()
	} else {
		abs, err := filepath.Abs(repo)
		if err != nil {
			return "", err
		}
		// A local ref is resolved first: an unknown one is said as such,
		// and a commit id (maybe abbreviated) is fetched as its full id;
		// a tag or branch by its name (as any git server allows).
		id, err := ResolveRef(ctx, abs, ref)
		if err != nil {
			return "", err
		}
		if hexPrefix.MatchString(ref) {
			want = id
		}
		url = "file://" + abs
	}
	if strings.HasPrefix(want, "-") {
		return "", fmt.Errorf("ref %q: %w", ref, ErrUnknownRef)
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
		if _, err := gitCmd(ctx, s...); err != nil {
			return "", fmt.Errorf("fetching %s at %s: %w; check the URL or folder, that the ref exists (--hale-ref: a tag, a branch or a full commit id for a remote) and that the network answers", repo, ref, err)
		}
	}
	id, err := gitCmd(ctx, "-C", dir, "rev-parse", "HEAD")
	if err != nil {
		return "", fmt.Errorf("reading the commit of %s at %s: %w", repo, ref, err)
	}
	if err := os.RemoveAll(filepath.Join(dir, ".git")); err != nil {
		return "", err
	}
	return id, nil
}

// FirstParent lists good, then every commit on bad's first-parent history
// after good, oldest first, ending with bad: the commits a bisect walks. A
// local repository only (clone a remote first). good must be on bad's
// first-parent line, else the range is bad (ErrBadRange).
func FirstParent(ctx context.Context, repo, good, bad string) ([]Commit, error) {
	g, err := ResolveRef(ctx, repo, good)
	if err != nil {
		return nil, err
	}
	b, err := ResolveRef(ctx, repo, bad)
	if err != nil {
		return nil, err
	}
	if g == b {
		return nil, fmt.Errorf("--good=%s and --bad=%s are one commit %s: %w (give two commits, good the older)", good, bad, g[:12], ErrBadRange)
	}
	out, err := gitCmd(ctx, "-C", repo, "log", "--first-parent", "--reverse", "--format=%H %P%x00%s", g+".."+b)
	if err != nil {
		return nil, err
	}
	goodSubject, err := gitCmd(ctx, "-C", repo, "log", "-1", "--format=%s", g)
	if err != nil {
		return nil, err
	}
	// A subject is anyone's words (a pull request's commits): cleaned here,
	// where it enters.
	list := []Commit{{ID: g, Subject: termtext.Line(goodSubject)}}
	for i, line := range strings.Split(out, "\n") {
		head, subject, _ := strings.Cut(line, "\x00")
		f := strings.Fields(head)
		if len(f) == 0 {
			continue
		}
		if i == 0 && (len(f) < 2 || f[1] != g) {
			return nil, fmt.Errorf("--good=%s (%s) is not on the first-parent history of --bad=%s: %w (give a good that --bad descends from by first parents, e.g. an earlier release tag)", good, g[:12], bad, ErrBadRange)
		}
		list = append(list, Commit{ID: f[0], Subject: termtext.Line(subject)})
	}
	if len(list) < 2 || list[len(list)-1].ID != b {
		return nil, fmt.Errorf("--bad=%s does not descend from --good=%s: %w (is the order swapped?)", bad, good, ErrBadRange)
	}
	return list, nil
}

// MirrorRemote makes a bare, blob-less clone of a remote repository in dir
// (a bisect's history to list and fetch commits from), within
// DefaultCloneTimeout. A local folder is returned as it is.
func MirrorRemote(ctx context.Context, repo, dir string) (string, error) {
	if !isRemote(repo) {
		return repo, nil
	}
	ctx, cancel := context.WithTimeout(ctx, DefaultCloneTimeout)
	defer cancel()
	if _, err := gitCmd(ctx, "clone", "--quiet", "--bare", "--filter=blob:none", "--", repo, dir); err != nil {
		return "", fmt.Errorf("cloning %s: %w; check the URL and that the network answers, or give a local clone with --hale-git=DIR", repo, err)
	}
	return dir, nil
}

// probeRemote asks a remote whether it has ref, within DefaultProbeTimeout:
// where the network is closed this fails in seconds.
func probeRemote(ctx context.Context, url, ref string) error {
	ctx, cancel := context.WithTimeout(ctx, DefaultProbeTimeout)
	defer cancel()
	out, err := gitCmd(ctx, "ls-remote", "--", url, ref)
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
func (b *Builder) pinnedRelease(ctx context.Context, hb *HaleBuild, srcDir string, p *haleParts) (string, error) {
	url := HaleURL()
	hb.Git, hb.Ref = url, DefaultHaleRef
	fmt.Fprintf(b.log, "toolchain hale: no hale source at %s; trying the pinned release %s from %s\n", b.opts.HaleSrc, DefaultHaleRef, url)
	err := probeRemote(ctx, url, DefaultHaleRef)
	var commit string
	if err == nil {
		commit, err = cloneRef(ctx, url, DefaultHaleRef, srcDir)
	}
	if err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		// The reason is returned, not logged: whoever asked for the
		// toolchain says it, once (lifecycle's "images: hale unavailable").
		why := fmt.Sprintf("no hale source at %s, and the pinned release %s could not be fetched from %s (%s); %s",
			b.opts.HaleSrc, DefaultHaleRef, url, lastLine(err.Error()), haleHowTo)
		return why, nil
	}
	hb.Commit, p.src = commit, commit
	return "", nil
}
