// Package enginetest connects tests to the real engine. A test that needs the
// engine skips with the reason when none answers — except under CI=true,
// where a missing engine is a failure, never a skip.
//
// enginefake.go holds an engine in memory: a whole engine.Driver,
// registered as "fake" by importing this package (tests do; the halebench
// command does only when built with -tags halebench_fake, for end-to-end
// tests of its verbs). It keeps an image store of tagged images with
// labels, sizes and the order they were made in, a build cache of a given
// size, and labelled containers. A container whose command is the
// sampler's `serve` runs a fake sampler that speaks the sampler's wire
// protocol (images/sampler/wire) on its stdin and stdout, answering each
// job with what Sampler (or Steady) says, so the runner's real pool,
// servers and protocol checks run on it (harness's
// TestAPlanRunsOnTheFakeDriver).
//
// Its images are real as far as halebench reads them (images.go,
// archives.go): each has an image config whose sha256 is its ID and layer
// tars held by diff ID, so Save writes a docker-save archive (Docker
// 20.10's layout: <id>.json, <diff id>/layer.tar, manifest.json) that the
// image package normalises and the cache folder splits, and Load reads
// one back, checking each layer against its diff ID, refusing what is not
// such an archive and storing nothing then. A build (build.go) runs
// nothing: it reads the Dockerfile's stages, and an image build stores
// the image its last stage is FROM plus one small layer naming the
// request's digest (so the same request makes the same image, and a
// second one is a cache hit); a folder build writes each path its last
// stage COPYs, imitating the output of the two programs whose output
// halebench reads back — a root filesystem tar (mmdebstrap's) and apt's
// simulated install (every package at version 0+fake) — and elsewhere a
// line naming the request. So the pipeline's own steps (base, toolchains,
// bench images, normalising, the cache folder) run on it unchanged.
//
// It imitates no more of an engine than that, and its Features say so:
// no process runs, nothing is confined or pinned, no image holds the
// files its Dockerfile would have put there (the sampler binary, the
// compiled benches, the packages: `Command` prints nothing, so no package
// or version is listed), no pull reaches a registry, and every bench's
// samples and counts are what Sampler says (Steady: all ok, 1 ms, one
// fixed instruction count), so checks a program would print (xproc's
// payload checks) are not the program's. What talks to a real engine is
// tested on one (package enginetest).
//
// conformance*.go is the driver contract as a test (Conformance), run
// against the Docker driver on the real engine and against the fake: what
// every driver must do, and what each feature it claims means.
// testdata/conformance is the one program it runs in containers, built
// static at test time.
//
// history.go makes git repositories for tests: a small history
// with tags, a branch and a merge, as a hale repository lays them out.
package enginetest
