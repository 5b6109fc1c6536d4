package image

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
)

// Source is where the packages come from.
type DebrootSource struct {
	Mirror string // e.g. http://deb.debian.org/debian
	Suite  string // e.g. trixie
	Arch   string // e.g. amd64
	// Client fetches; nil: http.DefaultClient.
	Client *http.Client
}

// releaseURL is where the suite's InRelease is fetched: over HTTPS even
// when the mirror is given as http://, since TLS is what vouches for it
// here (its OpenPGP signature is not checked), and from it every other
// file's sha256.
func (s DebrootSource) releaseURL() string {
	m := strings.TrimSuffix(s.Mirror, "/")
	if rest, ok := strings.CutPrefix(m, "http://"); ok {
		m = "https://" + rest
	}
	return m + "/dists/" + s.Suite + "/InRelease"
}

func (s DebrootSource) client() *http.Client {
	if s.Client != nil {
		return s.Client
	}
	return http.DefaultClient
}

// get fetches url whole.
func (s DebrootSource) get(ctx context.Context, url string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := s.client().Do(req)
	if err != nil {
		return nil, fmt.Errorf("fetching %s: %w (is the Debian mirror reachable from this host?)", url, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("fetching %s: %s", url, resp.Status)
	}
	return io.ReadAll(resp.Body)
}

// getChecked fetches url and refuses it unless its sha256 is want.
func (s DebrootSource) getChecked(ctx context.Context, url, want string) ([]byte, error) {
	data, err := s.get(ctx, url)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(data)
	if got := hex.EncodeToString(sum[:]); got != want {
		return nil, fmt.Errorf("fetching %s: its sha256 is %s, the signed index says %s (a mirror in the middle of an update? try again, or give another --mirror)", url, got, want)
	}
	return data, nil
}

// releaseSHA256 finds file's sha256 in an InRelease's SHA256 list.
func releaseSHA256(release []byte, file string) (string, error) {
	sc := bufio.NewScanner(bytes.NewReader(release))
	in := false
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, " ") {
			in = line == "SHA256:"
			continue
		}
		if f := strings.Fields(line); in && len(f) == 3 && f[2] == file {
			return f[0], nil
		}
	}
	return "", fmt.Errorf("the suite's InRelease lists no sha256 of %s", file)
}

// Index fetches the suite's main Packages index, checked against InRelease.
func (s DebrootSource) Index(ctx context.Context) (Index, error) {
	release, err := s.get(ctx, s.releaseURL())
	if err != nil {
		return nil, err
	}
	name := "main/binary-" + s.Arch + "/Packages.gz"
	want, err := releaseSHA256(release, name)
	if err != nil {
		return nil, err
	}
	gz, err := s.getChecked(ctx, strings.TrimSuffix(s.Mirror, "/")+"/dists/"+s.Suite+"/"+name, want)
	if err != nil {
		return nil, err
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return ParseIndex(zr)
}

// Download fetches each package's .deb into dir, checked against the
// index's sha256, and returns their paths in the packages' order.
func (s DebrootSource) Download(ctx context.Context, pkgs []*Package, dir string) ([]string, error) {
	paths := make([]string, 0, len(pkgs))
	for _, p := range pkgs {
		if p.Filename == "" || len(p.SHA256) != 64 {
			return nil, fmt.Errorf("package %s: the index gives no file or sha256", p.Name)
		}
		data, err := s.getChecked(ctx, strings.TrimSuffix(s.Mirror, "/")+"/"+p.Filename, p.SHA256)
		if err != nil {
			return nil, err
		}
		path := filepath.Join(dir, p.Name+".deb")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			return nil, err
		}
		paths = append(paths, path)
	}
	return paths, nil
}
