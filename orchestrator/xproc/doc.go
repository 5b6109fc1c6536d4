// Package xproc runs the cross-process shared-memory pair: for each
// language, a reader container and a producer container that share one
// /dev/shm, each pinned to its own CPU, timed on the reader's clock alone.
//
// The two containers share an IPC namespace (the reader's is "shareable",
// the producer joins it): POSIX shared memory lives in that namespace's
// /dev/shm, so the segment is visible to both, no host path is mounted, and
// it disappears with the reader's container — no segment can outlive a run.
package xproc
