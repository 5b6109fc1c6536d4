// Package runner takes the samples of each (bench, language) pair. A Server
// is one sandboxed, CPU-pinned container of a language's bench image whose
// sampler (images/sampler) takes jobs on stdin: a Job becomes one wire.Job
// line, the sampler runs its warm-ups and samples as child processes, each
// in a fresh cgroup, and answers with one wire.Result line carrying the
// job's nonce. The types on that channel are the sampler's own wire package
// (images/sampler/wire), which this package aliases (Sample, Env,
// Privileges, SamplerResult) rather than mirrors. One container per
// language and cpuset serves a whole run, so a sample costs a fork+exec and
// a cgroup mkdir, and a container start is paid a handful of times per run.
// An xproc pair (Pool.SamplePair) is two such containers sharing one IPC
// namespace, its producer's job sent when its reader's bench says ready.
//
// It decides nothing about regressions or parity; it reports what it saw.
package runner
