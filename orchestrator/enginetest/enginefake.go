package enginetest

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/hale-lang/halebench/orchestrator/engine"
)

// Engine is an image store and a build cache in memory; its zero value
// is empty and ready. Safe for concurrent use.
type Engine struct {
	mu     sync.Mutex
	images map[string]*fakeImage // by ID
	tags   map[string]string     // reference → ID
	layers map[string][]byte     // layer tars by diff ID, shared by the images holding them
	built  map[string]bool       // the build requests done before: the build cache's hits
	ticks  int                   // makes MadeAt: one second per image made or tagged
	cache  []int64               // the build cache's records, oldest first
	// Builds are the builds asked for, in order.
	Builds []engine.Build
	// Removed are the references RemoveImage was given, in order.
	Removed []string

	containers map[string]*container // by ID
	// Sampler answers the jobs of the fake's sampler containers (nil:
	// Steady).
	Sampler SampleFunc
	// Created are the containers asked for, in order; Jobs the jobs the
	// fake samplers read off the wire, in order.
	Created []engine.Spec
	Jobs    []Job
}

// fakeImage is one image: its config (the JSON an engine stores, whose
// sha256 is the ID) and its layers, bottom first, with what the config
// says that callers look at.
type fakeImage struct {
	id         string
	config     []byte
	layers     []string // diff IDs, keys of Engine.layers
	arch       string
	labels     map[string]string
	size       int64
	madeAt     time.Time
	containers int64
	volumes    []string // the VOLUMEs an imported image declares
}

// epoch is the fake's first "made at" time; its clock ticks per change,
// never by the wall clock, so the order of builds is the order of calls.
var epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// notFound answers engine.IsNotFound.
type notFound struct{ ref string }

func (e notFound) Error() string { return "no such image: " + e.ref }
func (e notFound) NotFound()     {}

// Add stores an image of size bytes with labels under ref (a tag) and
// returns its ID; the same ref added again names a new image. The image
// has one layer, which records ref and when it was added.
func (f *Engine) Add(ref string, labels map[string]string, size int64) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.ticks++
	seed := fmt.Sprintf("added %s at tick %d", ref, f.ticks)
	im := newImage(configSpec{labels: labels, layers: []string{f.putLayer(markerLayer(seed))}, createdBy: seed})
	im.size = size
	return f.keep(im, ref).id
}
func (f *Engine) now() time.Time { return epoch.Add(time.Duration(f.ticks) * time.Second) }

// Use marks the image ref names as used by n containers.
func (f *Engine) Use(ref string, n int64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if im := f.lookup(ref); im != nil {
		im.containers = n
	}
}

// SetCache makes the build cache these records, by size.
func (f *Engine) SetCache(records ...int64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.cache = append([]int64(nil), records...)
}

func (f *Engine) lookup(ref string) *fakeImage {
	if id, ok := f.tags[ref]; ok {
		return f.images[id]
	}
	return f.images[ref]
}

func (f *Engine) tagsOf(id string) []string {
	var out []string
	for t, i := range f.tags {
		if i == id {
			out = append(out, t)
		}
	}
	sort.Strings(out)
	return out
}

// Image looks ref (a tag or an ID) up.
func (f *Engine) Image(_ context.Context, ref string) (engine.Image, bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	im := f.lookup(ref)
	if im == nil {
		return engine.Image{}, false, nil
	}
	return engine.Image{Ref: ref, ID: im.id, Labels: im.labels, Layers: slices.Clone(im.layers), Arch: im.arch}, true, nil
}

// Tag gives src the further reference dst, and counts as the image's
// latest making (as the engine's last tag time does).
func (f *Engine) Tag(_ context.Context, src, dst string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	im := f.lookup(src)
	if im == nil {
		return notFound{src}
	}
	f.ticks++
	im.madeAt = f.now()
	f.tags[dst] = im.id
	return nil
}

// RemoveImage removes a tag, or an untagged image by its ID; the image
// goes with its last tag. A reference that names nothing is no error.
func (f *Engine) RemoveImage(_ context.Context, ref string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.Removed = append(f.Removed, ref)
	im := f.lookup(ref)
	if im == nil {
		return nil
	}
	if _, isTag := f.tags[ref]; isTag {
		delete(f.tags, ref)
	} else if len(f.tagsOf(im.id)) > 0 {
		return fmt.Errorf("removing image %s: it still has tags %v", ref, f.tagsOf(im.id))
	}
	if len(f.tagsOf(im.id)) == 0 {
		delete(f.images, im.id)
		f.dropUnusedLayers()
	}
	return nil
}

// StoredImages lists the store, ordered by ID. No layer is shared; an
// image's containers are those made from it, and as many more as Use said.
func (f *Engine) StoredImages(context.Context) ([]engine.StoredImage, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	uses := map[string]int64{}
	for _, c := range f.containers {
		if im := f.lookup(c.spec.Image); im != nil {
			uses[im.id]++
		}
	}
	var out []engine.StoredImage
	for _, im := range f.images {
		out = append(out, engine.StoredImage{ID: im.id, Tags: f.tagsOf(im.id), Labels: im.labels,
			Created: epoch, Size: im.size, Containers: im.containers + uses[im.id]})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

// ImageMadeAt is when the image was last made or tagged, on the fake's clock.
func (f *Engine) ImageMadeAt(_ context.Context, ref string) (time.Time, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if im := f.lookup(ref); im != nil {
		return im.madeAt, nil
	}
	return time.Time{}, notFound{ref}
}

// BuildCacheUsage is the cache's records and size; all of it reclaimable.
func (f *Engine) BuildCacheUsage(context.Context) (int, int64, int64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var size int64
	for _, r := range f.cache {
		size += r
	}
	return len(f.cache), size, size, nil
}

// PruneBuildCache drops the oldest records until keep bytes remain.
func (f *Engine) PruneBuildCache(_ context.Context, keep int64) (int64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var size, freed int64
	for _, r := range f.cache {
		size += r
	}
	for len(f.cache) > 0 && size > keep {
		size, freed = size-f.cache[0], freed+f.cache[0]
		f.cache = f.cache[1:]
	}
	return freed, nil
}
