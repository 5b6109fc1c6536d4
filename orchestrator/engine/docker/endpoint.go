package docker

import (
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/docker/docker/client"
	"golang.org/x/sys/unix"

	"github.com/hale-lang/halebench/orchestrator/termtext"
)

// Endpoint is the engine the driver dials and what named it, resolved as
// the docker CLI resolves it: DOCKER_HOST, else DOCKER_CONTEXT, else the
// CLI config's currentContext, else the default socket. Docker Desktop,
// Colima, OrbStack and remote engines are reached through a context.
type Endpoint struct {
	Host string // as dialled: unix:///path, tcp://host:port
	// Context is the docker context that named Host ("" when DOCKER_HOST
	// did, or nothing did and Host is the default socket).
	Context string
	// From says what chose it: "DOCKER_HOST", "DOCKER_CONTEXT", the config
	// file whose currentContext did, or "the default socket".
	From string
	// TLS is the context's TLS material, when its endpoint has any (nil for
	// DOCKER_HOST, whose TLS the client takes from DOCKER_TLS_VERIFY and
	// DOCKER_CERT_PATH as the docker CLI does).
	TLS *TLSFiles
}

// TLSFiles are a context's TLS files (contexts/tls/<id>/docker/), each read
// bounded and never through a link; a file the context lacks is empty.
type TLSFiles struct {
	CAPath, CertPath, KeyPath string // the files read ("" where absent)
	CA, Cert, Key             []byte
	SkipVerify                bool // the endpoint's SkipTLSVerify
}

// Where is how an error or a report names the endpoint: its address
// (never a credential) and what chose it.
func (e Endpoint) Where() string {
	return ShownHost(e.Host) + " (" + e.Via() + ")"
}

// Via is what chose the endpoint, as a person reads it.
func (e Endpoint) Via() string {
	switch {
	case e.Context != "" && e.From != "DOCKER_CONTEXT" && e.From != "":
		return "docker context " + e.Context + ", the current context in " + e.From
	case e.Context != "":
		return "docker context " + e.Context + ", from DOCKER_CONTEXT"
	case e.From == "DOCKER_HOST":
		return "DOCKER_HOST"
	}
	return "the default socket"
}

// ShownHost is an engine address as a report or an error names it: its
// scheme, host and path, without a user, password, query or fragment.
func ShownHost(host string) string {
	u, err := url.Parse(host)
	if err != nil || u.Scheme == "" || u.Opaque != "" {
		if i := strings.LastIndex(host, "@"); i >= 0 { // unparsable: drop what may be a credential
			return "…@" + host[i+1:]
		}
		return host
	}
	u.User, u.RawQuery, u.Fragment, u.RawFragment, u.ForceQuery = nil, "", "", "", false
	return u.String()
}

// Bounds of what the resolver reads: the CLI config (which may hold
// registry credentials, never printed), a context's meta.json, a PEM file.
const (
	maxConfigBytes = 4 << 20
	maxMetaBytes   = 1 << 20
	maxPEMBytes    = 1 << 20
)

// contextName is what the docker CLI accepts as a context's name.
var contextName = regexp.MustCompile(`^[a-zA-Z0-9][a-zA-Z0-9_.+-]*$`)

// ResolveEndpoint is the endpoint the environment getenv describes (the
// process's: os.Getenv). The CLI's folder is $DOCKER_CONFIG, else
// $HOME/.docker; that folder is opened as named, and nothing under it
// (config.json, contexts/meta/<sha256 of the name>/meta.json,
// contexts/tls/<sha256 of the name>/docker/{ca,cert,key}.pem) is read
// through a link, from a FIFO or device, or past its bound.
func ResolveEndpoint(getenv func(string) string) (Endpoint, error) {
	if h := getenv(client.EnvOverrideHost); h != "" {
		return Endpoint{Host: h, From: "DOCKER_HOST"}, nil
	}
	dir := getenv("DOCKER_CONFIG")
	if dir == "" {
		if home := getenv("HOME"); home != "" {
			dir = filepath.Join(home, ".docker")
		}
	}
	name, from, err := contextNamed(getenv, dir)
	if err != nil {
		return Endpoint{}, err
	}
	if name == "" || name == "default" {
		e := Endpoint{Host: client.DefaultDockerHost}
		if name == "default" {
			e.Context, e.From = name, from
		}
		return e, nil
	}
	via := Endpoint{Context: name, From: from}.Via()
	if !contextName.MatchString(name) || len(name) > 255 {
		return Endpoint{}, fmt.Errorf("%s: %q is not a context name (letters, digits, _ . + -)", via, termLine(name))
	}
	if dir == "" {
		return Endpoint{}, fmt.Errorf("%s: neither DOCKER_CONFIG nor HOME is set, so there is no context store to read it from", via)
	}
	sum := sha256.Sum256([]byte(name))
	id := hex.EncodeToString(sum[:])
	ep, err := contextMeta(dir, id, name, via)
	if err != nil {
		return Endpoint{}, err
	}
	e := Endpoint{Host: ep.Host, Context: name, From: from}
	if err := checkHost(e); err != nil {
		return Endpoint{}, err
	}
	if e.TLS, err = contextTLS(dir, id, via, ep.SkipTLSVerify); err != nil {
		return Endpoint{}, err
	}
	return e, nil
}

// contextNamed is the context DOCKER_CONTEXT names, else the docker CLI
// config's currentContext in dir, and where the name came from; "" when
// neither names one.
func contextNamed(getenv func(string) string, dir string) (name, from string, err error) {
	name, from = getenv("DOCKER_CONTEXT"), "DOCKER_CONTEXT"
	if name != "" || dir == "" {
		return name, from, nil
	}
	cfg := filepath.Join(dir, "config.json")
	data, err := readUnder(dir, maxConfigBytes, "config.json")
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", from, nil
	case err != nil:
		return "", "", fmt.Errorf("reading the docker CLI's config %s: %w", cfg, err)
	}
	var c struct {
		CurrentContext string `json:"currentContext"`
	}
	if err := json.Unmarshal(data, &c); err != nil {
		return "", "", fmt.Errorf("the docker CLI's config %s is not JSON: %v", cfg, err)
	}
	return c.CurrentContext, cfg, nil
}

// contextEndpoint is a context's docker endpoint as its meta.json holds it.
type contextEndpoint struct {
	Host          string
	SkipTLSVerify bool
}

// contextMeta reads the docker endpoint of the context name (stored under
// id, the sha256 of its name) from dir's context store.
func contextMeta(dir, id, name, via string) (contextEndpoint, error) {
	metaPath := filepath.Join(dir, "contexts", "meta", id, "meta.json")
	data, err := readUnder(dir, maxMetaBytes, "contexts", "meta", id, "meta.json")
	if errors.Is(err, fs.ErrNotExist) {
		return contextEndpoint{}, fmt.Errorf("%s does not exist: no %s (`docker context ls` lists the contexts; unset DOCKER_CONTEXT or `docker context use default` for the default socket)", via, metaPath)
	}
	if err != nil {
		return contextEndpoint{}, fmt.Errorf("%s: %w", via, err)
	}
	var meta struct {
		Name      string
		Endpoints map[string]contextEndpoint
	}
	if err := json.Unmarshal(data, &meta); err != nil {
		return contextEndpoint{}, fmt.Errorf("%s: %s is not a context's metadata: %v", via, metaPath, err)
	}
	if meta.Name != name {
		return contextEndpoint{}, fmt.Errorf("%s: %s names the context %q, not %q", via, metaPath, termLine(meta.Name), name)
	}
	ep, ok := meta.Endpoints["docker"]
	if !ok || ep.Host == "" {
		return contextEndpoint{}, fmt.Errorf("%s has no docker endpoint (Endpoints.docker.Host in %s)", via, metaPath)
	}
	return ep, nil
}

// contextTLS reads the TLS files of the context stored under id, nil when
// it has none and does not skip verification.
func contextTLS(dir, id, via string, skip bool) (*TLSFiles, error) {
	tlsDir := filepath.Join(dir, "contexts", "tls", id, "docker")
	t := &TLSFiles{SkipVerify: skip}
	for _, f := range []struct {
		name string
		path *string
		data *[]byte
	}{{"ca.pem", &t.CAPath, &t.CA}, {"cert.pem", &t.CertPath, &t.Cert}, {"key.pem", &t.KeyPath, &t.Key}} {
		b, err := readUnder(dir, maxPEMBytes, "contexts", "tls", id, "docker", f.name)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("%s: its TLS file: %w", via, err)
		}
		*f.path, *f.data = filepath.Join(tlsDir, f.name), b
	}
	if t.CAPath != "" || t.CertPath != "" || t.KeyPath != "" || t.SkipVerify {
		return t, nil
	}
	return nil, nil
}

// checkHost refuses an endpoint the moby client cannot dial itself.
func checkHost(e Endpoint) error {
	u, err := client.ParseHostURL(e.Host)
	if err != nil {
		return fmt.Errorf("%s: its endpoint %q is not an engine address: %v", e.Via(), ShownHost(e.Host), err)
	}
	switch u.Scheme {
	case "unix", "tcp", "http", "https":
		return nil
	case "ssh":
		return fmt.Errorf("%s: its endpoint %s is reached over ssh, which needs the docker CLI's ssh helper and halebench has none: forward the socket (ssh -L /tmp/docker.sock:/var/run/docker.sock HOST) and set DOCKER_HOST=unix:///tmp/docker.sock", e.Via(), ShownHost(e.Host))
	}
	return fmt.Errorf("%s: its endpoint %s has scheme %s; halebench dials unix:// and tcp:// engines", e.Via(), ShownHost(e.Host), u.Scheme)
}

// Config is the TLS configuration of a context's files: its CA the only
// roots trusted (when it has one), its client certificate and key.
func (t *TLSFiles) Config() (*tls.Config, error) {
	cfg := &tls.Config{MinVersion: tls.VersionTLS12, InsecureSkipVerify: t.SkipVerify}
	if len(t.CA) > 0 {
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(t.CA) {
			return nil, fmt.Errorf("%s holds no PEM certificate", t.CAPath)
		}
		cfg.RootCAs = pool
	}
	switch {
	case len(t.Cert) > 0 && len(t.Key) > 0:
		pair, err := tls.X509KeyPair(t.Cert, t.Key)
		if err != nil { // its text names no key material
			return nil, fmt.Errorf("%s and %s are no certificate and key pair: %v", t.CertPath, t.KeyPath, err)
		}
		cfg.Certificates = []tls.Certificate{pair}
	case len(t.Cert) > 0:
		return nil, fmt.Errorf("%s has no key.pem beside it", t.CertPath)
	case len(t.Key) > 0:
		return nil, fmt.Errorf("%s has no cert.pem beside it", t.KeyPath)
	}
	return cfg, nil
}

// readUnder reads the regular file at dir/elems…, at most max bytes. dir
// is opened as named; no element under it is followed if it is a link,
// and the file is not opened if it is a FIFO or device. A missing element
// is an error that is fs.ErrNotExist.
func readUnder(dir string, max int64, elems ...string) ([]byte, error) {
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: dir, Err: err}
	}
	p := dir
	for i, name := range elems {
		p = filepath.Join(p, name)
		var st unix.Stat_t
		if err := unix.Fstatat(fd, name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
			unix.Close(fd)
			return nil, &fs.PathError{Op: "stat", Path: p, Err: err}
		}
		last := i == len(elems)-1
		switch {
		case st.Mode&unix.S_IFMT == unix.S_IFLNK:
			unix.Close(fd)
			return nil, fmt.Errorf("%s is a symlink: refused (halebench reads the docker CLI's files only as they are, never through a link)", p)
		case !last && st.Mode&unix.S_IFMT != unix.S_IFDIR:
			unix.Close(fd)
			return nil, fmt.Errorf("%s is not a folder", p)
		case last && st.Mode&unix.S_IFMT != unix.S_IFREG:
			unix.Close(fd)
			return nil, fmt.Errorf("%s is not a regular file", p)
		}
		flags := unix.O_RDONLY | unix.O_NOFOLLOW | unix.O_CLOEXEC
		if last {
			flags |= unix.O_NONBLOCK
		} else {
			flags |= unix.O_DIRECTORY
		}
		next, err := unix.Openat(fd, name, flags, 0)
		unix.Close(fd)
		if err != nil { // replaced since the stat: a link now is ELOOP
			return nil, &fs.PathError{Op: "open", Path: p, Err: err}
		}
		fd = next
	}
	f := os.NewFile(uintptr(fd), p)
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", p)
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", p, err)
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("%s is over %d KiB; no such file of the docker CLI is that large", p, max>>10)
	}
	return data, nil
}

// termLine is a name from a file, safe on one line of a terminal.
func termLine(s string) string { return termtext.Clip(termtext.Line(s), 80) }
