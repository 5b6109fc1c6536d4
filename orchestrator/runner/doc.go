// Package runner takes the samples of each (bench, language) pair. A Server
// is one sandboxed, CPU-pinned container of a language's bench image whose
// sampler takes jobs on stdin: each job runs the warm-up and every sample as
// child processes and answers with the sampler's verdict. One container per
// language and cpuset serves a whole run, so a sample costs a fork+exec and
// a cgroup mkdir, and a container start is paid a handful of times per run.
//
// It decides nothing about regressions or parity; it reports what it saw.
package runner
