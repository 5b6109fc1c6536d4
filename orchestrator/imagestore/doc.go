// Package imagestore is a cache folder of images for CI: each image
// halebench made is kept as its config and layer tars, each a blob under
// DIR/blobs/sha256/<its sha256>, shared by every image that holds it, beside
// DIR/<inputs digest>.json (its entry: its reference, digest, the digests of
// its blobs and layers), all written atomically with modes 0644 and 0755
// (a CI cache step reads them as another user); so a job starting from an
// empty engine loads what an earlier job built instead of building it, and
// the folder is the sum of the images' distinct layers, not one whole
// archive per image (the base again in each toolchain's, and both again in
// each bench image's).
//
// A restore reassembles a docker-archive stream (the config, the layer
// tars, a manifest.json naming only the reference the caller gives) from
// the blobs and has the engine load it. Nothing in the folder is trusted by
// its name: an entry must be well formed, of this format (an older one is
// said and removed, never misread) and name its own key; every blob is
// opened relative to DIR/blobs/sha256 opened one folder at a time, never
// through a link nor blocking on a FIFO, must be a regular file of the
// recorded size named by a hex digest, and is checked against that digest
// as it is read — a changed layer cuts the stream before its manifest, so
// the engine loads nothing, and the blob is removed. The config must be the
// image's digest and name the entry's layers, and the loaded image must
// have that digest and those layers. The caller then checks the image's
// recorded inputs (see orchestrator/image). Whatever fails is said, removed from
// the folder and left to be rebuilt. It does not decide what an image's
// key is.
//
// Those checks make an entry agree with itself, not true: whoever can write
// the folder can write an image that claims any inputs. So an entry is
// signed (an HMAC-SHA256 over its key, reference, image digest and the
// digests of its layers and blobs: a swapped blob is caught by its digest,
// a swapped entry by the signature) with HALEBENCH_CACHE_KEY when the
// storing job holds it; a job holding the key restores only entries signed
// with it, and a job without one restores every entry unverified, under a
// reference of the caller's choosing that an image built here never has.
//
// load.go and read.go load docker-save archives into the engine, checked:
// an archive is read before anything is loaded (bounded, no sparse entries, no links but the layer links docker save itself writes,
// its manifest.json holding exactly the images the caller expects under the
// tags the caller expects), every tag it carries is rewritten to the name
// the caller gives, and after loading each image's digest is checked.
//
// It reads a bundle's images.tar (package evidence); a cache folder keeps
// layers, not archives (cache.go and split.go read the engine's save stream
// into them and writes the stream it loads, and opens its files with Open).
// It does not decide which archive to trust or where archives live.
package imagestore
