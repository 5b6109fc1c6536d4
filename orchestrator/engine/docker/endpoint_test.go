package docker_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/engine/docker"
	"github.com/hale-lang/halebench/orchestrator/enginetest"
)

// store is a docker CLI folder made as `docker context create` makes one.
type store struct {
	t   *testing.T
	dir string
}

func newStore(t *testing.T) store { return store{t, t.TempDir()} }

func contextID(name string) string {
	sum := sha256.Sum256([]byte(name))
	return hex.EncodeToString(sum[:])
}

func (s store) write(rel, data string) string {
	s.t.Helper()
	p := filepath.Join(s.dir, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		s.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o600); err != nil {
		s.t.Fatal(err)
	}
	return p
}

func (s store) current(name string) {
	s.write("config.json", `{"auths":{},"currentContext":"`+name+`"}`)
}

// context writes a context's meta.json with its docker endpoint.
func (s store) context(name, host string, skipVerify bool) {
	skip := "false"
	if skipVerify {
		skip = "true"
	}
	s.write(filepath.Join("contexts", "meta", contextID(name), "meta.json"),
		`{"Name":"`+name+`","Metadata":{"Description":""},"Endpoints":{"docker":{"Host":"`+host+`","SkipTLSVerify":`+skip+`}}}`)
}

func (s store) tls(name, file, data string) string {
	return s.write(filepath.Join("contexts", "tls", contextID(name), "docker", file), data)
}

// env is an environment of a few variables: the rest unset.
func env(kv ...string) func(string) string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) string { return m[k] }
}

// The endpoint is resolved as the docker CLI resolves it, from files a
// test makes as `docker context create` does: DOCKER_HOST over
// DOCKER_CONTEXT over the config's currentContext over the default
// socket; a context's TLS files named; a link anywhere under the CLI's
// folder, a missing context, a bad name or an ssh endpoint refused, each
// error naming the context and what chose it.
func TestResolveEndpoint(t *testing.T) {
	type want struct {
		host, context, from string
		tls                 []string // the TLS files named: ca, cert, key ("" absent)
		skipVerify          bool
		err                 []string // in the error; none: no error
	}
	for _, c := range []struct {
		name  string
		setup func(s store) func(string) string
		want  want
	}{
		{"DOCKER_HOST over everything", func(s store) func(string) string {
			s.context("foo", "unix:///foo.sock", false)
			s.current("foo")
			return env("DOCKER_HOST", "tcp://10.0.0.1:2375", "DOCKER_CONTEXT", "foo", "DOCKER_CONFIG", s.dir)
		}, want{host: "tcp://10.0.0.1:2375", from: "DOCKER_HOST"}},
		{"nothing: the default socket", func(s store) func(string) string {
			return env("HOME", s.dir)
		}, want{host: "unix:///var/run/docker.sock"}},
		{"no HOME, no DOCKER_CONFIG", func(s store) func(string) string { return env() },
			want{host: "unix:///var/run/docker.sock"}},
		{"DOCKER_CONTEXT", func(s store) func(string) string {
			s.context("foo", "unix:///foo.sock", false)
			return env("DOCKER_CONTEXT", "foo", "DOCKER_CONFIG", s.dir)
		}, want{host: "unix:///foo.sock", context: "foo", from: "DOCKER_CONTEXT"}},
		{"DOCKER_CONTEXT=default", func(s store) func(string) string {
			s.context("foo", "unix:///foo.sock", false)
			s.current("foo")
			return env("DOCKER_CONTEXT", "default", "DOCKER_CONFIG", s.dir)
		}, want{host: "unix:///var/run/docker.sock", context: "default", from: "DOCKER_CONTEXT"}},
		{"the config's currentContext", func(s store) func(string) string {
			s.context("colima", "unix:///home/u/.colima/default/docker.sock", false)
			s.current("colima")
			return env("DOCKER_CONFIG", s.dir)
		}, want{host: "unix:///home/u/.colima/default/docker.sock", context: "colima", from: "config.json"}},
		{"HOME/.docker when DOCKER_CONFIG is unset", func(s store) func(string) string {
			sub := store{s.t, filepath.Join(s.dir, ".docker")}
			sub.context("orbstack", "unix:///o.sock", false)
			sub.current("orbstack")
			return env("HOME", s.dir)
		}, want{host: "unix:///o.sock", context: "orbstack", from: ".docker/config.json"}},
		{"DOCKER_CONTEXT over currentContext", func(s store) func(string) string {
			s.context("a", "unix:///a.sock", false)
			s.context("b", "unix:///b.sock", false)
			s.current("a")
			return env("DOCKER_CONTEXT", "b", "DOCKER_CONFIG", s.dir)
		}, want{host: "unix:///b.sock", context: "b", from: "DOCKER_CONTEXT"}},
		{"currentContext default", func(s store) func(string) string {
			s.current("default")
			return env("DOCKER_CONFIG", s.dir)
		}, want{host: "unix:///var/run/docker.sock", context: "default", from: "config.json"}},
		{"a config with no currentContext", func(s store) func(string) string {
			s.write("config.json", `{"auths":{"r.example":{"auth":"c2VjcmV0"}}}`)
			return env("DOCKER_CONFIG", s.dir)
		}, want{host: "unix:///var/run/docker.sock"}},
		{"TLS files named", func(s store) func(string) string {
			s.context("remote", "tcp://build.example:2376", false)
			s.tls("remote", "ca.pem", "ca")
			s.tls("remote", "cert.pem", "cert")
			s.tls("remote", "key.pem", "key")
			return env("DOCKER_CONTEXT", "remote", "DOCKER_CONFIG", s.dir)
		}, want{host: "tcp://build.example:2376", context: "remote", from: "DOCKER_CONTEXT", tls: []string{"ca.pem", "cert.pem", "key.pem"}}},
		{"SkipTLSVerify and a CA only", func(s store) func(string) string {
			s.context("remote", "tcp://build.example:2376", true)
			s.tls("remote", "ca.pem", "ca")
			return env("DOCKER_CONTEXT", "remote", "DOCKER_CONFIG", s.dir)
		}, want{host: "tcp://build.example:2376", context: "remote", from: "DOCKER_CONTEXT", tls: []string{"ca.pem", "", ""}, skipVerify: true}},
		{"a missing context", func(s store) func(string) string {
			s.context("foo", "unix:///foo.sock", false)
			return env("DOCKER_CONTEXT", "nope", "DOCKER_CONFIG", s.dir)
		}, want{err: []string{"docker context nope, from DOCKER_CONTEXT does not exist", contextID("nope"), "docker context ls"}}},
		{"a missing current context", func(s store) func(string) string {
			s.current("gone")
			return env("DOCKER_CONFIG", s.dir)
		}, want{err: []string{"docker context gone, the current context in", "config.json does not exist"}}},
		{"meta.json a link", func(s store) func(string) string {
			other := newStore(s.t)
			other.context("foo", "unix:///elsewhere.sock", false)
			os.MkdirAll(filepath.Join(s.dir, "contexts", "meta", contextID("foo")), 0o700)
			os.Symlink(filepath.Join(other.dir, "contexts", "meta", contextID("foo"), "meta.json"), filepath.Join(s.dir, "contexts", "meta", contextID("foo"), "meta.json"))
			return env("DOCKER_CONTEXT", "foo", "DOCKER_CONFIG", s.dir)
		}, want{err: []string{"meta.json is a symlink: refused", "docker context foo"}}},
		{"the contexts folder a link", func(s store) func(string) string {
			other := newStore(s.t)
			other.context("foo", "unix:///elsewhere.sock", false)
			os.Symlink(filepath.Join(other.dir, "contexts"), filepath.Join(s.dir, "contexts"))
			return env("DOCKER_CONTEXT", "foo", "DOCKER_CONFIG", s.dir)
		}, want{err: []string{"contexts is a symlink: refused"}}},
		{"config.json a link", func(s store) func(string) string {
			other := newStore(s.t)
			other.current("foo")
			os.Symlink(filepath.Join(other.dir, "config.json"), filepath.Join(s.dir, "config.json"))
			return env("DOCKER_CONFIG", s.dir)
		}, want{err: []string{"config.json is a symlink: refused"}}},
		{"key.pem a link", func(s store) func(string) string {
			s.context("remote", "tcp://build.example:2376", false)
			s.tls("remote", "cert.pem", "cert")
			key := s.write("elsewhere/key.pem", "key")
			os.Symlink(key, filepath.Join(s.dir, "contexts", "tls", contextID("remote"), "docker", "key.pem"))
			return env("DOCKER_CONTEXT", "remote", "DOCKER_CONFIG", s.dir)
		}, want{err: []string{"key.pem is a symlink: refused", "its TLS file"}}},
		{"meta.json a FIFO", func(s store) func(string) string {
			d := filepath.Join(s.dir, "contexts", "meta", contextID("foo"))
			os.MkdirAll(d, 0o700)
			if err := mkfifo(filepath.Join(d, "meta.json")); err != nil {
				s.t.Fatal(err)
			}
			return env("DOCKER_CONTEXT", "foo", "DOCKER_CONFIG", s.dir)
		}, want{err: []string{"meta.json is not a regular file"}}},
		{"meta.json over its bound", func(s store) func(string) string {
			s.write(filepath.Join("contexts", "meta", contextID("foo"), "meta.json"), `{"Name":"foo","x":"`+strings.Repeat("a", 1<<20)+`"}`)
			return env("DOCKER_CONTEXT", "foo", "DOCKER_CONFIG", s.dir)
		}, want{err: []string{"meta.json is over 1024 KiB"}}},
		{"a name that is no context's", func(s store) func(string) string {
			return env("DOCKER_CONTEXT", "../../etc", "DOCKER_CONFIG", s.dir)
		}, want{err: []string{`"../../etc" is not a context name`}}},
		{"meta.json of another name", func(s store) func(string) string {
			s.write(filepath.Join("contexts", "meta", contextID("foo"), "meta.json"), `{"Name":"bar","Endpoints":{"docker":{"Host":"unix:///x.sock"}}}`)
			return env("DOCKER_CONTEXT", "foo", "DOCKER_CONFIG", s.dir)
		}, want{err: []string{`names the context "bar", not "foo"`}}},
		{"no docker endpoint", func(s store) func(string) string {
			s.write(filepath.Join("contexts", "meta", contextID("k8s"), "meta.json"), `{"Name":"k8s","Endpoints":{"kubernetes":{"Host":"https://k"}}}`)
			return env("DOCKER_CONTEXT", "k8s", "DOCKER_CONFIG", s.dir)
		}, want{err: []string{"docker context k8s, from DOCKER_CONTEXT has no docker endpoint"}}},
		{"an ssh endpoint", func(s store) func(string) string {
			s.context("remote", "ssh://me@build.example", false)
			return env("DOCKER_CONTEXT", "remote", "DOCKER_CONFIG", s.dir)
		}, want{err: []string{"ssh://build.example is reached over ssh", "ssh -L"}}},
		{"a config that is no JSON", func(s store) func(string) string {
			s.write("config.json", "{")
			return env("DOCKER_CONFIG", s.dir)
		}, want{err: []string{"config.json is not JSON"}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := newStore(t)
			ep, err := docker.ResolveEndpoint(c.setup(s))
			if c.want.err != nil {
				if err == nil {
					t.Fatalf("resolved %+v; want an error", ep)
				}
				for _, w := range c.want.err {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("error %q lacks %q", err, w)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if ep.Host != c.want.host || ep.Context != c.want.context || !strings.HasSuffix(ep.From, c.want.from) || (c.want.from == "") != (ep.From == "") {
				t.Fatalf("resolved %q (context %q, from %q); want %q (%q, from …%q)", ep.Host, ep.Context, ep.From, c.want.host, c.want.context, c.want.from)
			}
			if c.want.tls == nil {
				if ep.TLS != nil {
					t.Fatalf("TLS %+v; want none", ep.TLS)
				}
				return
			}
			if ep.TLS == nil || ep.TLS.SkipVerify != c.want.skipVerify {
				t.Fatalf("TLS %+v; want files %v, skip verify %v", ep.TLS, c.want.tls, c.want.skipVerify)
			}
			dir := filepath.Join(s.dir, "contexts", "tls", contextID(ep.Context), "docker")
			for i, got := range []struct{ path, data string }{{ep.TLS.CAPath, string(ep.TLS.CA)}, {ep.TLS.CertPath, string(ep.TLS.Cert)}, {ep.TLS.KeyPath, string(ep.TLS.Key)}} {
				w := c.want.tls[i]
				if (w == "" && got.path != "") || (w != "" && (got.path != filepath.Join(dir, w) || got.data != strings.TrimSuffix(w, ".pem"))) {
					t.Errorf("TLS file %d: %q (%q); want %q", i, got.path, got.data, w)
				}
			}
		})
	}
}

// The endpoint an error or a report names carries no credential.
func TestShownHost(t *testing.T) {
	for in, want := range map[string]string{
		"unix:///var/run/docker.sock":       "unix:///var/run/docker.sock",
		"tcp://user:secret@10.0.0.1:2376":   "tcp://10.0.0.1:2376",
		"tcp://10.0.0.1:2376/?token=secret": "tcp://10.0.0.1:2376/",
		"user:secret@host":                  "…@host",
	} {
		if got := docker.ShownHost(in); got != want {
			t.Errorf("ShownHost(%q) = %q; want %q", in, got, want)
		}
	}
}

// A context's TLS files that are no certificate and key are refused,
// naming the files and never their content.
func TestTLSFilesRefused(t *testing.T) {
	key := "-----BEGIN PRIVATE KEY-----\nc2VjcmV0LWtleQ==\n-----END PRIVATE KEY-----\n"
	for _, c := range []struct {
		files docker.TLSFiles
		want  string
	}{
		{docker.TLSFiles{CAPath: "/c/ca.pem", CA: []byte("not pem")}, "/c/ca.pem holds no PEM certificate"},
		{docker.TLSFiles{CertPath: "/c/cert.pem", Cert: []byte("x")}, "/c/cert.pem has no key.pem beside it"},
		{docker.TLSFiles{CertPath: "/c/cert.pem", Cert: []byte("x"), KeyPath: "/c/key.pem", Key: []byte(key)}, "/c/cert.pem and /c/key.pem are no certificate and key pair"},
	} {
		_, err := c.files.Config()
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "c2VjcmV0") {
			t.Errorf("%v; want %q and no key material", err, c.want)
		}
	}
	if cfg, err := (&docker.TLSFiles{SkipVerify: true}).Config(); err != nil || !cfg.InsecureSkipVerify {
		t.Errorf("skip verify: %v %+v", err, cfg)
	}
}

// Through a docker context, with DOCKER_HOST unset: a context whose
// endpoint is the engine's dials it, and the report's host names the
// endpoint and the context; one whose socket is missing fails naming that
// endpoint and the context.
func TestConnectThroughAContext(t *testing.T) {
	eng := enginetest.Connect(t)
	info, err := eng.Info(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(info.EngineHost, "unix://") {
		t.Skipf("the test engine is at %s: this test makes a context of a unix socket", info.EngineHost)
	}
	s := newStore(t)
	s.context("halebench-test", info.EngineHost, false)
	missing := "unix://" + filepath.Join(t.TempDir(), "no-such.sock")
	s.context("halebench-gone", missing, false)
	s.current("halebench-test")
	t.Setenv("DOCKER_HOST", "")
	t.Setenv("DOCKER_CONTEXT", "")
	t.Setenv("DOCKER_CONFIG", s.dir)
	e, err := docker.Connect(context.Background())
	if err != nil {
		t.Fatalf("through the current context: %v", err)
	}
	defer e.Close()
	got, err := e.Info(context.Background())
	if err != nil || got.EngineHost != info.EngineHost || got.EngineContext != "halebench-test" || got.EngineVersion != info.EngineVersion {
		t.Fatalf("through the current context: %v, host %q context %q", err, got.EngineHost, got.EngineContext)
	}
	t.Setenv("DOCKER_CONTEXT", "halebench-gone")
	_, err = docker.Connect(context.Background())
	var ue *docker.UnreachableError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "engine unreachable at "+missing+" (docker context halebench-gone, from DOCKER_CONTEXT): is the daemon running?") {
		t.Fatalf("a context of a missing socket: %v", err)
	}
}
