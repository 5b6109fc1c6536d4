// Package imagearchive loads docker-save archives into the engine, checked:
// an archive is read before anything is loaded (bounded, no sparse entries, no links but the layer links docker save itself writes,
// its manifest.json holding exactly the images the caller expects under the
// tags the caller expects), every tag it carries is rewritten to the name
// the caller gives, and after loading each image's digest is checked.
//
// It reads a bundle's images.tar (package evidence); a cache folder keeps
// layers, not archives (package imagecache reads the engine's save stream
// into them and writes the stream it loads, and opens its files with Open).
// It does not decide which archive to trust or where archives live.
package imagearchive
