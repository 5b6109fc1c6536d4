package session

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/hale-lang/halebench/orchestrator/engine"
	"github.com/hale-lang/halebench/orchestrator/hostfile"
	"github.com/hale-lang/halebench/orchestrator/image"
	"github.com/hale-lang/halebench/orchestrator/termtext"
)

// Engine is what pruning needs of the engine.
type Engine interface {
	StoredImages(ctx context.Context) ([]engine.StoredImage, error)
	ImageMadeAt(ctx context.Context, ref string) (time.Time, error)
	RemoveImage(ctx context.Context, ref string) error
	BuildCacheUsage(ctx context.Context) (records int, size, reclaimable int64, err error)
	PruneBuildCache(ctx context.Context, keep int64) (int64, error)
}

// Every driver is an Engine (prune's).
var _ Engine = engine.Driver(nil)

// Options say what may go.
type PruneOptions struct {
	ResultsDir string // reports here name the images to keep
	Keep       int    // newest builds kept per image repository (at least 1)
	// Scope, when set, limits pruning to the bench images labelled with it
	// (image.Options.Scope): toolchain images and the build cache,
	// which every scope shares, are then left alone.
	Scope     string
	CacheKeep int64 // prune the build cache down to this many bytes; <0 leaves it alone
	NoCache   bool  // leave the build cache alone (Prune sets CacheKeep to -1)
	DryRun    bool  // say what would go, remove nothing
}

// Image is one of halebench's images and what becomes of it.
type Image struct {
	ID, Repo  string
	Tags      []string
	Created   time.Time
	Unique    int64 // bytes no other image shares: what removing it frees; -1 unknown
	Remove    bool
	Reason    string
	RemoveErr error
}

// Name is how the image is shown: its first tag, or its ID.
func (im Image) Name() string {
	if len(im.Tags) > 0 {
		return im.Tags[0]
	}
	return im.ID
}

// Plan is what prune decided.
type Plan struct {
	Images []Image
	Cache  CachePlan
}

// CachePlan is the build cache's part.
type CachePlan struct {
	Considered  bool
	Records     int
	Size        int64
	Reclaimable int64
	Keep        int64
	Prune       bool
	Why         string
	Freed       int64
	Err         error
}

// Kind of an image halebench made: "bench" or "toolchain"; "" for any
// other image, which prune never touches. An image is halebench's when
// every tag it has is in halebench's bench or toolchain repositories, or,
// untagged, when it carries the bench label.
func Kind(img engine.StoredImage) (kind, repo string) {
	if len(img.Tags) == 0 {
		if img.Labels[image.LabelKind] == "bench" && img.Labels[image.LabelLang] != "" {
			return "bench", image.BenchRepo + img.Labels[image.LabelLang]
		}
		return "", ""
	}
	for _, t := range img.Tags {
		r := repoOf(t)
		var k string
		switch {
		case strings.HasPrefix(r, image.BenchRepo):
			k = "bench"
		case strings.HasPrefix(r, image.ToolchainRepo):
			k = "toolchain"
		default:
			return "", "" // someone else's tag on it: not ours to remove
		}
		if kind == "" {
			kind, repo = k, r
		}
	}
	return kind, repo
}

func repoOf(tag string) string {
	if i := strings.LastIndex(tag, ":"); i > strings.LastIndex(tag, "/") {
		return tag[:i]
	}
	return tag
}

// Decide marks which images go. Kept: any image a report names (by tag or
// ID), the Keep newest of each repository, images a container uses.
// Everything else of halebench's in scope goes. Pure: no engine.
func Decide(images []engine.StoredImage, created map[string]time.Time, named map[string]string, opts PruneOptions) []Image {
	keep := opts.Keep
	if keep < 1 {
		keep = 1
	}
	byRepo := map[string][]Image{}
	for _, img := range images {
		kind, repo := Kind(img)
		if kind == "" {
			continue
		}
		if opts.Scope != "" && (kind != "bench" || img.Labels[image.LabelScope] != opts.Scope) {
			continue
		}
		im := Image{ID: img.ID, Repo: repo, Tags: append([]string(nil), img.Tags...), Created: img.Created, Unique: -1}
		sort.Strings(im.Tags)
		if t, ok := created[img.ID]; ok {
			im.Created = t
		}
		if img.SharedSize >= 0 {
			im.Unique = img.Size - img.SharedSize
		}
		switch {
		case namedBy(im, named) != "":
			im.Reason = "named by " + namedBy(im, named)
		case img.Containers > 0:
			im.Reason = "used by a container"
		}
		byRepo[repo] = append(byRepo[repo], im)
	}
	var out []Image
	var repos []string
	for r := range byRepo {
		repos = append(repos, r)
	}
	sort.Strings(repos)
	for _, r := range repos {
		ims := byRepo[r]
		sort.SliceStable(ims, func(i, j int) bool { return ims[i].Created.After(ims[j].Created) })
		for i := range ims {
			if ims[i].Reason != "" {
				continue
			}
			if i < keep {
				ims[i].Reason = "latest build"
				if i > 0 {
					ims[i].Reason = fmt.Sprintf("one of the %d latest builds", keep)
				}
				continue
			}
			ims[i].Remove = true
			ims[i].Reason = "named by no report, not among the latest builds"
		}
		out = append(out, ims...)
	}
	return out
}

func namedBy(im Image, named map[string]string) string {
	if f, ok := named[im.ID]; ok {
		return f
	}
	for _, t := range im.Tags {
		if f, ok := named[t]; ok {
			return f
		}
	}
	return ""
}

// maxStoredBytes bounds each file Named reads: the most a stored report
// may be (report.MaxFileBytes; TestNamed holds the two equal), so a stray
// huge file under results/ is refused, not read whole.
const maxStoredBytes = 64 << 20

// Named reads every report under dir (run-*.json, ab-*.json, xproc-*.json, any
// schema) and collects each image reference and ID in it, with the report
// that names it. Each is read as a file halebench did not write
// (orchestrator/hostfile: never through a link, regular, bounded), since
// results/ may hold reports copied from elsewhere. A report that cannot be
// read is an error: pruning on a partial view would remove what it names.
func Named(dir string) (map[string]string, error) {
	named := map[string]string{}
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		data, err := hostfile.Read(dir, filepath.Base(f), maxStoredBytes)
		if err != nil {
			return nil, fmt.Errorf("reading report %s: %w", f, err)
		}
		var v any
		if err := json.Unmarshal(data, &v); err != nil {
			return nil, fmt.Errorf("report %s is not JSON (%v): move it out of %s, or fix it, before pruning", f, err, dir)
		}
		eachString(v, func(s string) {
			for _, part := range strings.Split(s, "@") {
				if strings.HasPrefix(part, "halebench/") || strings.HasPrefix(part, "sha256:") {
					if _, ok := named[part]; !ok {
						named[part] = filepath.Base(f)
					}
				}
			}
		})
	}
	return named, nil
}

// eachString calls f on every string of a decoded JSON value, at any depth.
func eachString(v any, f func(string)) {
	switch x := v.(type) {
	case string:
		f(x)
	case []any:
		for _, e := range x {
			eachString(e, f)
		}
	case map[string]any:
		for _, e := range x {
			eachString(e, f)
		}
	}
}

// Run makes the plan and, unless DryRun, carries it out.
func Run(ctx context.Context, eng Engine, opts PruneOptions) (*Plan, error) {
	named, err := Named(opts.ResultsDir)
	if err != nil {
		return nil, err
	}
	images, err := eng.StoredImages(ctx)
	if err != nil {
		return nil, err
	}
	created := map[string]time.Time{}
	for _, img := range images {
		if k, _ := Kind(img); k == "" {
			continue
		}
		if t, err := eng.ImageMadeAt(ctx, img.ID); err == nil {
			created[img.ID] = t
		}
	}
	p := &Plan{Images: Decide(images, created, named, opts)}
	if !opts.DryRun {
		removeImages(ctx, eng, p.Images)
	}
	p.Cache = planCache(ctx, eng, opts)
	return p, nil
}

// removeImages removes the images the plan marks, by each tag (or by ID
// when untagged), recording the first failure on the image.
func removeImages(ctx context.Context, eng Engine, imgs []Image) {
	for i := range imgs {
		im := &imgs[i]
		if !im.Remove {
			continue
		}
		refs := im.Tags
		if len(refs) == 0 {
			refs = []string{im.ID}
		}
		for _, ref := range refs {
			if err := eng.RemoveImage(ctx, ref); err != nil {
				im.RemoveErr = err
				break
			}
		}
	}
}

// planCache decides whether the build cache is pruned and, unless DryRun,
// prunes it; a failure to read it is recorded, not returned.
func planCache(ctx context.Context, eng Engine, opts PruneOptions) CachePlan {
	c := CachePlan{Keep: opts.CacheKeep}
	switch {
	case opts.Scope != "":
		c.Why = "not pruned: a scope was given and the build cache is shared by every scope"
	case opts.CacheKeep < 0:
		c.Why = "not pruned (--cache-keep=-1)"
	default:
		c.Considered = true
	}
	n, size, recl, err := eng.BuildCacheUsage(ctx)
	if err != nil {
		c.Err = err
		return c
	}
	c.Records, c.Size, c.Reclaimable = n, size, recl
	if !c.Considered {
		return c
	}
	if size > opts.CacheKeep {
		c.Prune = true
		c.Why = fmt.Sprintf("over the %s limit: the least recently used records go until %s remain", termtext.Size(opts.CacheKeep), termtext.Size(opts.CacheKeep))
	} else {
		c.Why = fmt.Sprintf("within the %s limit: nothing to prune", termtext.Size(opts.CacheKeep))
	}
	if c.Prune && !opts.DryRun {
		c.Freed, c.Err = eng.PruneBuildCache(ctx, opts.CacheKeep)
	}
	return c
}

// Print writes the plan, or what was done, and the total freed.
func Print(w io.Writer, p *Plan, dryRun bool) {
	verb := "removed"
	if dryRun {
		verb = "would remove"
	}
	var freed int64
	var removed, unknown int
	for _, im := range p.Images {
		switch {
		case im.Remove && im.RemoveErr != nil:
			fmt.Fprintf(w, "kept     %s (%s): %v\n", im.Name(), termtext.ShortID(im.ID), im.RemoveErr)
		case im.Remove:
			col := "removed"
			if dryRun {
				col = "remove"
			}
			fmt.Fprintf(w, "%-8s %s (%s, %s): %s\n", col, im.Name(), termtext.ShortID(im.ID), sizeText(im.Unique), im.Reason)
			removed++
			if im.Unique >= 0 {
				freed += im.Unique
			} else {
				unknown++
			}
		default:
			fmt.Fprintf(w, "kept     %s (%s): %s\n", im.Name(), termtext.ShortID(im.ID), im.Reason)
		}
	}
	fmt.Fprintf(w, "build cache: %d records, %s (%s not in use): %s\n", p.Cache.Records, termtext.Size(p.Cache.Size), termtext.Size(p.Cache.Reclaimable), p.Cache.Why)
	if p.Cache.Err != nil {
		fmt.Fprintf(w, "build cache: %v\n", p.Cache.Err)
	}
	total := freed + p.Cache.Freed
	fmt.Fprintf(w, "%s %d image(s), %s", verb, removed, termtext.Size(freed))
	if unknown > 0 {
		fmt.Fprintf(w, " (+%d of unknown size)", unknown)
	}
	if p.Cache.Freed > 0 {
		fmt.Fprintf(w, "; build cache %s", termtext.Size(p.Cache.Freed))
	}
	if !dryRun {
		fmt.Fprintf(w, "; freed %s in all", termtext.Size(total))
	}
	fmt.Fprintln(w)
}

func sizeText(n int64) string {
	if n < 0 {
		return "size unknown"
	}
	return termtext.Size(n) + " its own"
}
