// Package imagecache is a cache folder of images for CI: each image
// halebench made is kept as DIR/<inputs digest>.tar (a docker-save archive)
// beside DIR/<inputs digest>.json (what it holds: its reference, digest,
// size and sha256), both written atomically, so that a job starting from an
// empty engine loads what an earlier job built instead of building it.
//
// Nothing in the folder is trusted by its name: an entry must be well
// formed and name its own key, the archive must have the size and sha256
// the entry records and hold exactly the one image the entry names (checked
// by package imagearchive), it is loaded under the reference the caller
// gives (never a tag from the archive), and the loaded image must have the
// recorded digest. The caller then checks the image's recorded inputs (see
// imagebuild). Whatever fails is said, removed from the folder and left to
// be rebuilt. It does not decide what an image's key is.
//
// Those checks make an entry agree with itself, not true: whoever can write
// the folder can write an image that claims any inputs. So an entry is
// signed (an HMAC-SHA256 over its key, reference, image digest and layer
// digests) with HALEBENCH_CACHE_KEY when the storing job holds it; a job
// holding the key restores only entries signed with it, and a job without
// one restores every entry unverified, under a reference of the caller's
// choosing that an image built here never has. Each file is opened once,
// never through a link and never blocking on a FIFO, and that descriptor is
// all that is read.
package imagecache
