// Package xproc runs the cross-process shared-memory pair: for each
// language, a reader and a producer, each a job on its own long-lived
// sampler container of the run's pool (runner.Pool.SamplePair), the two
// containers sharing one /dev/shm and each pinned to its own CPU, timed on
// the reader's clock alone. It plans the jobs and reads their outcomes; it
// starts no container of its own.
//
// The two containers share an IPC namespace (the reader's is "shareable",
// the producer joins it): POSIX shared memory lives in that namespace's
// /dev/shm, so the segment is visible to both and no host path is mounted.
// The reader's sampler empties that shared room before and after each of
// its samples, and the next reader job is sent only once both jobs of a
// run answered: nothing a bench writes reaches another run.
package xproc
