package subject

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"

	"github.com/hale-lang/halebench/orchestrator/gitrepo"
	"github.com/hale-lang/halebench/orchestrator/image"
)

// cargo's target dir is a BuildKit cache mount (images/hale/Dockerfile), and
// a hale build runs the tree's own build scripts (build.rs, proc macros)
// with that dir writable: what one build leaves there, a later build links.
// So the dir is not shared between builds of different trust:
//
//   - a release tag of the repository (a version tag the tree's
//     [workspace.package] version agrees with, which the repository names
//     as a tag of the commit fetched) shares one dir per repository with
//     that repository's other release tags: nothing but released code of
//     that repository ever wrote it;
//   - a --hale-src tree has one per folder: the user's own tree, warm from
//     one edit to the next, written by nothing else;
//   - any other ref (a commit id, a branch, a pull request's head: what ab
//     and bisect build) gets a dir emptied before it builds, so nothing an
//     earlier build left reaches it.
const (
	haleCacheRelease = "halebench-hale-target-release-" // + the repository's digest
	haleCacheSrc     = "halebench-hale-target-src-"     // + the folder's digest
	haleCacheRef     = "halebench-hale-target-ref"      // emptied before each build
)

// haleCacheArgs are the build arguments naming the target dir's cache mount
// for hale built as hb (HALE_TARGET_CACHE: recorded, and written into the
// Dockerfile by haleDockerfile) and whether it is emptied first
// (HALE_TARGET_FRESH=1).
func (b *build) haleCacheArgs(ctx context.Context, hb *image.HaleBuild) map[string]string {
	id, fresh := haleCacheRef, "1"
	switch {
	case hb.Src != "":
		abs, err := filepath.Abs(hb.Src)
		if err == nil {
			id, fresh = haleCacheSrc+sha256Hex([]byte(abs))[:16], "0"
		}
	case releaseTag(ctx, hb):
		id, fresh = haleCacheRelease+sha256Hex([]byte(repoIdentity(hb.Git)))[:16], "0"
	}
	return map[string]string{"HALE_TARGET_CACHE": id, "HALE_TARGET_FRESH": fresh}
}

// CacheRelease and CacheRef are the cache mount ids of a release tag's
// target dir (+ the repository's digest) and of any other ref's; the image
// package's
// test of the mount builds with them.
const (
	CacheRelease = haleCacheRelease
	CacheRef     = haleCacheRef
)

// TargetDockerfile is images/hale/Dockerfile with the target dir's cache
// mount of args (haleDockerfile).
func TargetDockerfile(df []byte, args map[string]string) []byte { return haleDockerfile(df, args) }

// haleDockerfile is images/hale/Dockerfile with the target dir's cache id
// args name. The engine's BuildKit (v0.8) does not expand a build argument
// in a --mount option (tried: ${HALE_TARGET_CACHE} named one id for every
// build), so the id is written into the Dockerfile the build is given; the
// image's inputs digest is of the Dockerfile as shipped.
func haleDockerfile(df []byte, args map[string]string) []byte {
	return bytes.Replace(df, []byte("id="+haleCacheRef+","), []byte("id="+args["HALE_TARGET_CACHE"]+","), 1)
}

// releaseTag says whether hb was fetched at a release tag: a version tag
// that the tree's [workspace.package] version agrees with and that the
// repository names as a tag (not a branch of that name) of the commit
// fetched.
func releaseTag(ctx context.Context, hb *image.HaleBuild) bool {
	if !versionTag.MatchString(hb.Ref) || strings.TrimPrefix(hb.Ref, "v") != hb.WorkspaceVersion || !gitrepo.FullID.MatchString(hb.Commit) {
		return false
	}
	return tagCommit(ctx, hb.Git, hb.Ref) == hb.Commit
}

// tagCommit is the commit refs/tags/<tag> of repo names ("" when none or
// when the repository does not answer in time).
func tagCommit(ctx context.Context, repo, tag string) string {
	if !gitrepo.IsRemote(repo) {
		id, err := gitrepo.Run(ctx, "-C", repo, "rev-parse", "--verify", "--quiet", "refs/tags/"+tag+"^{commit}")
		if err != nil {
			return ""
		}
		return id
	}
	ctx, cancel := context.WithTimeout(ctx, gitrepo.DefaultProbeTimeout)
	defer cancel()
	out, err := gitrepo.Run(ctx, "ls-remote", "--", repo, "refs/tags/"+tag, "refs/tags/"+tag+"^{}")
	if err != nil {
		return ""
	}
	// An annotated tag lists the tag object, then the commit as ^{}.
	id := ""
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) != 2 {
			continue
		}
		if f[1] == "refs/tags/"+tag+"^{}" || id == "" {
			id = f[0]
		}
	}
	return id
}

// repoIdentity is what names a repository for its release dir: a local
// folder by its absolute path, a URL as given.
func repoIdentity(repo string) string {
	if gitrepo.IsRemote(repo) {
		return repo
	}
	if abs, err := filepath.Abs(repo); err == nil {
		return abs
	}
	return repo
}

// CacheKey names hale's inputs for image.CacheKey, without the
// engine (image.SubjectBuild): the image, the repository and ref, the
// source tree by its commit and the vendored crates by name.
func (h Build) CacheKey() []string {
	return []string{h.Image, h.Git, h.Ref, haleSrcID(h.Src), dirNames(h.Vendor)}
}

// haleSrcID names a hale source tree by its git commit where it has one
// (a checkout's mtimes differ between CI jobs), else by its path.
func haleSrcID(src string) string {
	if src == "" {
		return ""
	}
	ctx, cancel := context.WithTimeout(context.Background(), gitrepo.DefaultProbeTimeout)
	defer cancel()
	out, err := gitrepo.Command(ctx, "-C", src, "rev-parse", "HEAD").Output()
	if err == nil {
		return "git:" + strings.TrimSpace(string(out))
	}
	return "path:" + src
}

// dirNames lists a folder's entries (the vendored crates, by name and version).
func dirNames(dir string) string {
	if dir == "" {
		return ""
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return "unreadable:" + dir
	}
	names := make([]string, 0, len(ents))
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return strings.Join(names, ",")
}
