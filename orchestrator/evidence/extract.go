package evidence

import (
	"archive/tar"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/hale-lang/halebench/orchestrator/hostfile"
)

// Limits on what a bundle may hold. A bundle is a file from elsewhere; it
// is unpacked onto this host's disk before anything in it is checked.
const (
	// MaxBundleBytes caps the bytes a bundle may unpack to: several
	// toolchain images (a hale one with LLVM is the largest) are a few GiB.
	MaxBundleBytes = 32 << 30
	// MaxBundleEntries caps its files: a suite is some hundred sources.
	MaxBundleEntries = 10000
	// MaxBundleFile caps every file but images.tar (a report, a source,
	// the manifest).
	MaxBundleFile = 64 << 20
)

// Extract unpacks a bundle's files into dir and checks them against its
// manifest: only regular files with clean relative names, none twice, no
// sparse entry (which would expand a few KiB into gigabytes), no more than
// MaxBundleEntries files and MaxBundleBytes bytes (refused from the headers,
// before they are written), every file listed with its sum and every listed
// file present. Sums are taken under the same name the file is written by.
func Extract(bundle, dir string) (*Manifest, error) {
	// The bundle is a file another host sent: a regular file where it
	// lies, never followed through a link, never a FIFO to block on.
	f, err := hostfile.OpenPath(bundle, 0)
	if err != nil {
		return nil, fmt.Errorf("%w (a bundle is the one file halebench bundle writes)", err)
	}
	defer f.Close()
	bad := func(format string, a ...any) error {
		return fmt.Errorf("bundle %s: "+format+": refusing it (make it again with `halebench bundle`)", append([]any{bundle}, a...)...)
	}
	sums := map[string]string{}
	var total int64
	tr := tar.NewReader(f)
	for n := 1; ; n++ {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("reading bundle %s: %w", bundle, err)
		}
		if n > MaxBundleEntries {
			return nil, bad("more than %d entries", MaxBundleEntries)
		}
		if msg := entryProblem(h, sums); msg != "" {
			return nil, bad("%s", msg)
		}
		if total += h.Size; total > MaxBundleBytes {
			return nil, bad("its files add up to more than %d bytes", int64(MaxBundleBytes))
		}
		sum, err := writeEntry(tr, h, dir)
		if err != nil {
			return nil, fmt.Errorf("unpacking bundle %s: %w", bundle, err)
		}
		sums[h.Name] = sum
	}
	m, err := readManifest(filepath.Join(dir, "manifest.json"), sums)
	if err != nil {
		return nil, bad("%v", err)
	}
	return m, nil
}

// entryProblem says why a bundle entry is refused, "" when it is not.
func entryProblem(h *tar.Header, seen map[string]string) string {
	name := h.Name
	switch {
	case name == "" || name != path.Clean(name) || path.IsAbs(name) || name == ".." || strings.HasPrefix(name, "../") || strings.Contains(name, "\\"):
		return fmt.Sprintf("entry %q is not a clean relative name", name)
	case h.Typeflag == tar.TypeGNUSparse || sparsePAX(h):
		return fmt.Sprintf("entry %s is a sparse file (it would expand to %d bytes)", name, h.Size)
	case h.Typeflag != tar.TypeReg:
		return fmt.Sprintf("entry %s is not a regular file (type %q)", name, h.Typeflag)
	case seen[name] != "":
		return fmt.Sprintf("entry %s appears twice", name)
	case h.Size < 0:
		return fmt.Sprintf("entry %s has a negative size", name)
	case name != "images.tar" && h.Size > MaxBundleFile:
		return fmt.Sprintf("entry %s is %d bytes, over the %d-byte cap for anything but images.tar", name, h.Size, int64(MaxBundleFile))
	}
	return ""
}

// sparsePAX says whether h is a PAX-format sparse file (GNU.sparse.*).
func sparsePAX(h *tar.Header) bool {
	for k := range h.PAXRecords {
		if strings.HasPrefix(k, "GNU.sparse.") {
			return true
		}
	}
	return false
}

// writeEntry writes h's content under dir by its name, never over an
// existing file or through a link, and returns its sha256.
func writeEntry(r io.Reader, h *tar.Header, dir string) (string, error) {
	p := filepath.Join(dir, filepath.FromSlash(h.Name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return "", err
	}
	out, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL|unix.O_NOFOLLOW, 0o644)
	if err != nil {
		return "", err
	}
	hs := sha256.New()
	n, err := io.Copy(io.MultiWriter(out, hs), io.LimitReader(r, h.Size))
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err == nil && n != h.Size {
		err = fmt.Errorf("%s ends after %d of its %d bytes", h.Name, n, h.Size)
	}
	return hex.EncodeToString(hs.Sum(nil)), err
}

// readManifest reads an unpacked bundle's manifest and holds the files
// unpacked (name → sha256) to it both ways.
func readManifest(p string, sums map[string]string) (*Manifest, error) {
	if sums["manifest.json"] == "" {
		return nil, fmt.Errorf("no manifest.json")
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil || m.Schema != ManifestSchema {
		return nil, fmt.Errorf("manifest.json is not a %s manifest (%v)", ManifestSchema, err)
	}
	if err := m.Halebench.Check(); err != nil {
		return nil, fmt.Errorf("manifest.json: %w", err)
	}
	for _, name := range []string{"report.json", "images.tar"} {
		if _, ok := m.Files[name]; !ok {
			return nil, fmt.Errorf("the manifest lists no %s", name)
		}
	}
	for _, name := range sortedKeys(m.Files) {
		if sums[name] != m.Files[name] {
			return nil, fmt.Errorf("%s has sha256 %q, the manifest says %s: the bundle is damaged", name, sums[name], m.Files[name])
		}
	}
	for _, name := range sortedKeys(sums) {
		if _, ok := m.Files[name]; !ok && name != "manifest.json" {
			return nil, fmt.Errorf("%s is not in its manifest", name)
		}
	}
	return &m, nil
}
