// Package atomicfile writes an output file (a report, a page, a bundle)
// whole or not at all, and never through a link: the data goes to a new
// temporary file beside the target (created exclusively, so no planted
// name is opened), then is renamed over it. A target that is a symlink or
// not a regular file is refused. It reads nothing and knows no format.
package atomicfile
