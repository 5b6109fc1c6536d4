// Package imagearchive saves images into docker-save archives and loads them
// back, checked: an archive is read before anything is loaded (bounded, no
// sparse entries, no links but the layer links docker save itself writes,
// its manifest.json holding exactly the images the caller expects under the
// tags the caller expects), every tag it carries is rewritten to the name
// the caller gives, and after loading each image's digest is checked.
//
// It is the one place halebench reads an image archive: a bundle's
// images.tar (package evidence) and a cache folder's archives (package
// imagecache). It does not decide which archive to trust or where archives
// live.
package imagearchive
