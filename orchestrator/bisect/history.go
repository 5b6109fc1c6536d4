package bisect

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/hale-lang/halebench/orchestrator/gitrepo"
	"github.com/hale-lang/halebench/orchestrator/termtext"
)

// ErrBadRange marks a --good/--bad pair that is not a first-parent range.
var ErrBadRange = errors.New("bad range")

// FirstParent lists good, then every commit on bad's first-parent history
// after good, oldest first, ending with bad: the commits a bisect walks. A
// local repository only (clone a remote first). good must be on bad's
// first-parent line, else the range is bad (ErrBadRange).
func FirstParent(ctx context.Context, repo, good, bad string) ([]Commit, error) {
	g, err := gitrepo.ResolveRef(ctx, repo, good)
	if err != nil {
		return nil, err
	}
	b, err := gitrepo.ResolveRef(ctx, repo, bad)
	if err != nil {
		return nil, err
	}
	if g == b {
		return nil, fmt.Errorf("--good=%s and --bad=%s are one commit %s: %w (give two commits, good the older)", good, bad, termtext.ShortID(g), ErrBadRange)
	}
	out, err := gitrepo.Run(ctx, "-C", repo, "log", "--first-parent", "--reverse", "--format=%H %P%x00%s", g+".."+b)
	if err != nil {
		return nil, err
	}
	goodSubject, err := gitrepo.Run(ctx, "-C", repo, "log", "-1", "--format=%s", g)
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
			return nil, fmt.Errorf("--good=%s (%s) is not on the first-parent history of --bad=%s: %w (give a good that --bad descends from by first parents, e.g. an earlier release tag)", good, termtext.ShortID(g), bad, ErrBadRange)
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
// gitrepo.DefaultCloneTimeout. A local folder is returned as it is.
func MirrorRemote(ctx context.Context, repo, dir string) (string, error) {
	if !gitrepo.IsRemote(repo) {
		return repo, nil
	}
	ctx, cancel := context.WithTimeout(ctx, gitrepo.DefaultCloneTimeout)
	defer cancel()
	if _, err := gitrepo.Run(ctx, "clone", "--quiet", "--bare", "--filter=blob:none", "--", repo, dir); err != nil {
		return "", fmt.Errorf("cloning %s: %w; check the URL and that the network answers, or give a local clone with --hale-git=DIR", repo, err)
	}
	return dir, nil
}
