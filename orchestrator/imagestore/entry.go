package imagestore

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

const (
	// MaxBlob caps one blob (the largest layer of a toolchain image is some
	// hundreds of megabytes).
	MaxBlob = 8 << 30
	// maxLayers caps an image's layers (docker itself allows 127).
	maxLayers = 256
	maxEntry  = 128 << 10
	maxConfig = 4 << 20
	// Format is the entries' format: 2, an image as a config and layer blobs
	// shared by every image holding them. Format 1 (no format field) was
	// one whole docker-save archive per image.
	Format = 2
)

var (
	keyRE    = regexp.MustCompile(`^[0-9a-f]{64}$`)
	digestRE = regexp.MustCompile(`^sha256:[0-9a-f]{64}$`)
	refRE    = regexp.MustCompile(`^[a-z0-9]+(?:[._/-][a-z0-9]+)*:[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$`)
)

// Blob is one file of DIR/blobs/sha256, named by the hex of its digest.
type Blob struct {
	Digest string `json:"digest"` // sha256:<hex> of its bytes
	Size   int64  `json:"size"`
}

// Entry is one image of the folder, DIR/<key>.json: what identifies it (its
// config's digest, which is its image digest, and its layers' digests), and
// where its bytes are (blobs shared with every image holding them).
type Entry struct {
	Format int    `json:"format"`
	Key    string `json:"key"`       // the inputs digest; the entry's name
	Ref    string `json:"reference"` // the tag it was stored under
	ID     string `json:"id"`        // the image's digest: its config blob's
	Config Blob   `json:"config"`
	// Blobs are its layer tars, bottom first, as the engine saved them;
	// Layers the diff IDs the engine lists for them.
	Blobs  []Blob    `json:"blobs"`
	Layers []string  `json:"layers"`
	Stored time.Time `json:"stored"`
	Used   time.Time `json:"used"` // last stored or restored: what prune ages by
	// HMAC is the entry's signature (see mac) with the key of the job that
	// stored it, when that job had one: what lets a restored image be
	// trusted as much as one built here.
	HMAC string `json:"hmac,omitempty"`
}

// mac is the HMAC-SHA256 of what e pins with key k: its key (the inputs
// digest), reference, image digest, config size, layer diff IDs and blob
// digests and sizes, each on a line of its own (none of them can hold a
// newline: check refuses them). A swapped blob is caught by its digest; a
// swapped entry by this.
func (e Entry) mac(k []byte) string {
	m := hmac.New(sha256.New, k)
	fmt.Fprintf(m, "halebench cache entry v2\n%s\n%s\n%s\n%d\n%d\n", e.Key, e.Ref, e.ID, e.Config.Size, len(e.Layers))
	for _, l := range e.Layers {
		fmt.Fprintf(m, "%s\n", l)
	}
	fmt.Fprintf(m, "%d\n", len(e.Blobs))
	for _, b := range e.Blobs {
		fmt.Fprintf(m, "%s %d\n", b.Digest, b.Size)
	}
	return hex.EncodeToString(m.Sum(nil))
}

// signedWith says whether e carries a valid signature with key k.
func (e Entry) signedWith(k []byte) bool {
	if len(k) == 0 || e.HMAC == "" {
		return false
	}
	want, err := hex.DecodeString(e.mac(k))
	got, gerr := hex.DecodeString(e.HMAC)
	return err == nil && gerr == nil && hmac.Equal(got, want)
}

// check says why e is not a well-formed entry for key, or "".
func (e Entry) check(key string) string {
	var why []string
	if e.Key != key {
		why = append(why, fmt.Sprintf("it names key %q", e.Key))
	}
	if !refRE.MatchString(e.Ref) || !digestRE.MatchString(e.ID) {
		why = append(why, "its reference or digest is malformed")
	}
	if e.Config.Digest != e.ID || e.Config.Size <= 0 || e.Config.Size > maxConfig {
		why = append(why, "its config is not its image digest's, or not 1.."+fmt.Sprint(maxConfig)+" bytes")
	}
	if len(e.Blobs) != len(e.Layers) || len(e.Layers) == 0 || len(e.Layers) > maxLayers {
		why = append(why, fmt.Sprintf("it has %d blobs for %d layers (1..%d)", len(e.Blobs), len(e.Layers), maxLayers))
	}
	for i, l := range e.Layers {
		if !digestRE.MatchString(l) {
			why = append(why, fmt.Sprintf("its layer %q is not a sha256 digest", l))
			break
		}
		if i < len(e.Blobs) && (!digestRE.MatchString(e.Blobs[i].Digest) || e.Blobs[i].Size < 0 || e.Blobs[i].Size > MaxBlob) {
			why = append(why, fmt.Sprintf("its blob %q (%d bytes) is not a sha256 digest of 0..%d bytes", e.Blobs[i].Digest, e.Blobs[i].Size, int64(MaxBlob)))
			break
		}
	}
	if e.HMAC != "" && !keyRE.MatchString(e.HMAC) {
		why = append(why, "its hmac is malformed")
	}
	return strings.Join(why, "; ")
}

// errOldFormat marks an entry of another format (an older halebench's):
// never misread, said and removed, and the image built and kept anew.
var errOldFormat = errors.New("an entry of another format")

// oldArchivePath is where format 1 kept an image's archive.
func (c *Cache) oldArchivePath(key string) string { return filepath.Join(c.dir, key+".tar") }
func (c *Cache) entryPath(key string) string      { return filepath.Join(c.dir, key+".json") }

// readEntry reads key's entry: nil, nil when there is none.
func (c *Cache) readEntry(key string) (*Entry, error) {
	data, err := readRegular(c.entryPath(key), maxEntry)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var probe struct {
		Format int `json:"format"`
	}
	if err := json.Unmarshal(data, &probe); err != nil {
		return nil, fmt.Errorf("its index entry: %w", err)
	}
	if probe.Format != Format {
		return nil, fmt.Errorf("%w (%d; this halebench reads format %d, each layer kept once)", errOldFormat, probe.Format, Format)
	}
	var e Entry
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&e); err != nil {
		return nil, fmt.Errorf("its index entry: %w", err)
	}
	if why := e.check(key); why != "" {
		return nil, fmt.Errorf("its index entry: %s", why)
	}
	return &e, nil
}

// readRegular reads a regular file (opened once, never through a link) of
// at most max bytes.
func readRegular(path string, max int64) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err == nil && int64(len(data)) > max {
		err = fmt.Errorf("%s is over %d bytes", filepath.Base(path), max)
	}
	return data, err
}

// FileMode is every cache file's mode: readable by all, since CI cache steps
// (actions/cache, GitLab's archiver) run as the runner's user, not as the
// root of halebench's container. Nothing in the folder is secret (an entry's
// HMAC does not give away its key), and nothing read from it is trusted
// unchecked.
const FileMode = 0o644

// writeEntry writes e atomically: a temporary file, synced, renamed over
// the entry, and the folder synced.
func (c *Cache) writeEntry(e Entry) error {
	data, err := json.MarshalIndent(e, "", "  ")
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(c.dir, ".tmp-"+e.Key+"-*.json")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	err = f.Chmod(FileMode)
	if err == nil {
		_, err = f.Write(append(data, '\n'))
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), c.entryPath(e.Key))
	}
	if err != nil {
		return err
	}
	return c.syncDir()
}

func (c *Cache) syncDir() error {
	d, err := os.Open(c.dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
