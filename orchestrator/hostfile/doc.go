// Package hostfile is the one checked reader of files on this host that
// halebench did not write itself: what a build exported (the sampler and
// the clock gate, apt's resolution, a rootfs archive), a suite's sources,
// a checkout's manifests. Such a file is opened below a folder halebench
// chose (the export folder, the suite's root) never through a link at any
// level of the path below it (openat2 RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS,
// or one component at a time with O_NOFOLLOW where openat2 is missing),
// without blocking (O_NONBLOCK: a FIFO does not hang the open), then
// checked on the open descriptor to be a regular file (a FIFO, /dev/zero
// or a folder is refused before a byte is read) and read up to a cap.
// Every refusal names the file. It is not a writer; report writes files.
package hostfile
