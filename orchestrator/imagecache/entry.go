package imagecache

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/hale-lang/halebench/orchestrator/imagearchive"
)

const (
	// MaxArchive caps one archive (the largest toolchain image is some
	// hundreds of megabytes).
	MaxArchive = 8 << 30
	maxEntry   = 64 << 10
)

var (
	keyRE    = regexp.MustCompile(`^[0-9a-f]{64}$`)
	digestRE = regexp.MustCompile(`^sha256:[0-9a-f]{64}$`)
	refRE    = regexp.MustCompile(`^[a-z0-9]+(?:[._/-][a-z0-9]+)*:[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$`)
)

// Entry is the index entry beside one archive.
type Entry struct {
	Key    string    `json:"key"`       // the inputs digest; the files' name
	Ref    string    `json:"reference"` // the tag it was saved under, and the only one the archive may carry
	ID     string    `json:"id"`        // the image's digest
	Size   int64     `json:"size"`      // of the archive
	SHA256 string    `json:"sha256"`    // of the archive
	Stored time.Time `json:"stored"`
	Used   time.Time `json:"used"` // last stored or restored: what prune ages by
	// Layers are the image's layer digests, as the engine lists them.
	Layers []string `json:"layers,omitempty"`
	// HMAC is the entry's signature (see mac) with the key of the job that
	// stored it, when that job had one: what lets a restored image be
	// trusted as much as one built here.
	HMAC string `json:"hmac,omitempty"`
}

// mac is the HMAC-SHA256 of what e pins with key k: its key (the inputs
// digest), reference, image digest and layer digests, each on a line of
// its own (none of them can hold a newline: check refuses them).
func (e Entry) mac(k []byte) string {
	m := hmac.New(sha256.New, k)
	fmt.Fprintf(m, "halebench cache entry v1\n%s\n%s\n%s\n%d\n", e.Key, e.Ref, e.ID, len(e.Layers))
	for _, l := range e.Layers {
		fmt.Fprintf(m, "%s\n", l)
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
	if !refRE.MatchString(e.Ref) || !digestRE.MatchString(e.ID) || !keyRE.MatchString(e.SHA256) {
		why = append(why, "its reference, digest or sha256 is malformed")
	}
	for _, l := range e.Layers {
		if !digestRE.MatchString(l) {
			why = append(why, fmt.Sprintf("its layer %q is not a sha256 digest", l))
			break
		}
	}
	if e.HMAC != "" && !keyRE.MatchString(e.HMAC) {
		why = append(why, "its hmac is malformed")
	}
	if e.Size <= 0 || e.Size > MaxArchive {
		why = append(why, fmt.Sprintf("its size %d is not in 1..%d", e.Size, int64(MaxArchive)))
	}
	return strings.Join(why, "; ")
}

func (c *Cache) archivePath(key string) string { return filepath.Join(c.dir, key+".tar") }
func (c *Cache) entryPath(key string) string   { return filepath.Join(c.dir, key+".json") }

// readEntry reads key's entry: nil, nil when there is none.
func (c *Cache) readEntry(key string) (*Entry, error) {
	data, err := readRegular(c.entryPath(key), maxEntry)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
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
	f, err := imagearchive.Open(path)
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

// regular stats path without following a link and wants a regular file.
func regular(path string) (os.FileInfo, error) {
	st, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file (%s)", filepath.Base(path), st.Mode().Type())
	}
	return st, nil
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
