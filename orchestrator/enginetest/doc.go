// Package enginetest connects tests to the real engine. A test that needs the
// engine skips with the reason when none answers — except under CI=true,
// where a missing engine is a failure, never a skip.
//
// enginefake.go holds an engine in memory: a whole engine.Driver,
// registered as "fake" by importing this package (tests do; the halebench
// command does not). It keeps an image store of tagged images with labels,
// sizes and the order they were made in, a build cache of a given size,
// builds that record what they were asked and store an image whose ID is
// the digest of the request, and labelled containers. A container whose
// command is the sampler's `serve` runs a fake sampler that speaks the
// sampler's wire protocol (images/sampler/wire) on its stdin and stdout,
// answering each job with what Sampler (or Steady) says, so the runner's
// real pool, servers and protocol checks run on it
// (harness's TestAPlanRunsOnTheFakeDriver).
//
// It imitates no more of an engine than that, and its Features say so:
// no process runs, nothing is confined or pinned, image archives and pulls
// fail. What talks to a real engine is tested on one (package enginetest).
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
