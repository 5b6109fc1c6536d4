package enginetest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/hale-lang/halebench/orchestrator/engine"
)

// Build records b and "runs" it: nothing of the Dockerfile runs, but what
// an engine's build would leave is made from the request alone, so the
// same request makes the same result and a second one is a cache hit
// (Executed 0) unless b.NoCache. An image build stores, under b.Image, an
// image whose layers are those of the image its last stage is FROM (found
// in the store by reference, build arguments put in; none for scratch)
// and one layer of its own, a file naming the request's digest; its labels
// are that image's and those b's "label:K" arguments set. A folder build
// writes into b.Dir each path its last stage COPYs or ADDs (exportFile
// says with what).
func (f *Engine) Build(_ context.Context, b engine.Build) (engine.Built, error) {
	f.mu.Lock()
	f.Builds = append(f.Builds, b)
	f.mu.Unlock()
	if (b.Image == "") == (b.Dir == "") {
		return engine.Built{}, fmt.Errorf("building %s: give the build an image reference or a folder, one of them", b.What)
	}
	df, err := readDockerfile(b)
	if err != nil {
		return engine.Built{}, fmt.Errorf("building %s: %w", b.What, err)
	}
	req, err := requestDigest(b, df.text)
	if err != nil {
		return engine.Built{}, fmt.Errorf("building %s: reading its context: %w", b.What, err)
	}
	var built engine.Built
	if b.Dir != "" {
		err = exportFiles(b, df, req)
	} else {
		built.Digest, err = f.buildImage(b, df, req)
	}
	if err != nil {
		return engine.Built{}, fmt.Errorf("building %s: %w", b.What, err)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.built == nil {
		f.built = map[string]bool{}
	}
	if f.built[req] && !b.NoCache {
		built.Cached = len(df.steps)
	} else {
		built.Executed = len(df.steps)
		for _, s := range df.steps {
			logf(b, "fake: %s\n", s)
		}
	}
	f.built[req] = true
	return built, nil
}

func logf(b engine.Build, format string, args ...any) {
	if b.Log != nil {
		fmt.Fprintf(b.Log, format, args...)
	}
}

// buildImage stores the image of an image build and returns its ID.
func (f *Engine) buildImage(b engine.Build, df *dockerfile, req string) (string, error) {
	from, err := df.base(b.Args)
	if err != nil {
		return "", err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	c := configSpec{labels: map[string]string{}, createdBy: "built by the fake engine: request " + req, volumes: df.volumes}
	if from != "scratch" {
		parent := f.lookup(from)
		if parent == nil {
			return "", fmt.Errorf("FROM %s: %w (the fake reaches no registry: add or load the image first)", from, notFound{from})
		}
		var pc imageConfig
		_ = json.Unmarshal(parent.config, &pc) // the store holds only configs it read or made
		c.layers, c.env, c.arch = slices.Clone(parent.layers), pc.Config.Env, parent.arch
		c.volumes = append(slices.Clone(parent.volumes), c.volumes...)
		maps.Copy(c.labels, parent.labels)
	}
	if _, arch, ok := strings.Cut(b.Platform, "/"); ok {
		c.arch = arch
	}
	for k, v := range b.Args {
		if name, ok := strings.CutPrefix(k, "label:"); ok {
			c.labels[name] = v
		}
	}
	c.layers = append(c.layers, f.putLayer(markerLayer("built by the fake engine: request "+req)))
	return f.keep(newImage(c), b.Image).id, nil
}

// requestDigest is the sha256 of what a build is asked: its Dockerfile,
// arguments, platform and every regular file of its context (by path and
// content; .git left out). Two builds of one request make one result.
func requestDigest(b engine.Build, dockerfile string) (string, error) {
	h := sha256.New()
	field := func(s string) { fmt.Fprintf(h, "%d:%s;", len(s), s) }
	field(dockerfile)
	field(b.Platform)
	for _, k := range slices.Sorted(maps.Keys(b.Args)) {
		field(k)
		field(b.Args[k])
	}
	err := filepath.WalkDir(b.Context, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.Name() == ".git" && d.IsDir() {
			if err == nil {
				err = filepath.SkipDir
			}
			return err
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err == nil {
			rel, _ := filepath.Rel(b.Context, p)
			field(filepath.ToSlash(rel))
			field(string(data))
		}
		return err
	})
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), err
}

// exportFiles writes what a folder build exports: each path the last
// stage COPYs or ADDs, below b.Dir.
func exportFiles(b engine.Build, df *dockerfile, req string) error {
	for _, dest := range df.exports {
		rel := strings.TrimPrefix(path.Clean("/"+dest), "/")
		p := filepath.Join(b.Dir, filepath.FromSlash(rel))
		if strings.HasSuffix(dest, "/") || rel == "" {
			if err := os.MkdirAll(p, 0o755); err != nil {
				return err
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, exportFile(rel, b.Args, req), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// exportFile is the content the fake gives a file a folder build exports:
// it runs none of the build's programs, so it imitates the output of the
// two whose output halebench reads back: a file ending in .tar is a root
// filesystem tar (mmdebstrap's, for the base) of a few folders and one
// file naming the request; resolved.txt is what `apt-get install -s`
// prints for the words of the PACKAGES argument, each at version 0+fake;
// any other file (the sampler's binary) is one line naming the request.
func exportFile(name string, args map[string]string, req string) []byte {
	switch {
	case strings.HasSuffix(name, ".tar"):
		return tarOf(map[string]string{"etc/": "", "tmp/": "", "usr/": "", "halebench-fake": "root filesystem of the fake engine's request " + req + "\n"})
	case path.Base(name) == "resolved.txt":
		var b strings.Builder
		for _, pkg := range strings.Fields(args["PACKAGES"]) {
			fmt.Fprintf(&b, "Inst %s (0+fake fake:trixie [amd64])\n", pkg)
		}
		return []byte(b.String())
	}
	return []byte("made by the fake engine's request " + req + "\n")
}

// dockerfile is what the fake reads of a Dockerfile.
type dockerfile struct {
	text     string
	defaults map[string]string // the ARGs before the first FROM, with their defaults
	stages   []stage
	steps    []string // every instruction but FROM and ARG: what a build runs
	exports  []string // the destinations of the last stage's COPY and ADD
	volumes  []string // the last stage's VOLUMEs
}

// stage is one FROM: what it is built on and its name.
type stage struct{ from, name string }

// readDockerfile reads b's Dockerfile, continuation lines joined.
func readDockerfile(b engine.Build) (*dockerfile, error) {
	raw, err := os.ReadFile(filepath.Join(b.Dockerfile, "Dockerfile"))
	if err != nil {
		return nil, err
	}
	df := &dockerfile{text: string(raw), defaults: map[string]string{}}
	for _, line := range instructions(string(raw)) {
		word, rest, _ := strings.Cut(line, " ")
		df.add(strings.ToUpper(word), strings.Fields(rest), line)
	}
	if len(df.stages) == 0 {
		return nil, fmt.Errorf("its Dockerfile (in %s) has no FROM", b.Dockerfile)
	}
	return df, nil
}

// add takes one instruction into df.
func (df *dockerfile) add(word string, fields []string, line string) {
	var flagless []string
	for _, fl := range fields {
		if !strings.HasPrefix(fl, "--") {
			flagless = append(flagless, fl)
		}
	}
	switch {
	case word == "FROM" && len(flagless) > 0:
		s := stage{from: flagless[0]}
		if len(flagless) == 3 && strings.EqualFold(flagless[1], "AS") {
			s.name = flagless[2]
		}
		df.stages = append(df.stages, s)
		df.exports, df.volumes = nil, nil
		return
	case word == "ARG" && len(df.stages) == 0 && len(flagless) > 0:
		k, v, _ := strings.Cut(flagless[0], "=")
		df.defaults[k] = strings.Trim(v, `"`)
		return
	case word == "ARG":
		return
	case (word == "COPY" || word == "ADD") && len(flagless) > 1:
		df.exports = append(df.exports, strings.Trim(flagless[len(flagless)-1], `"[]`))
	case word == "VOLUME":
		for _, v := range flagless {
			df.volumes = append(df.volumes, strings.Trim(v, `"[],`))
		}
	}
	df.steps = append(df.steps, line)
}

// instructions are the Dockerfile's instructions: comments and blank
// lines left out, lines ending in a backslash joined to the next.
func instructions(text string) []string {
	var out []string
	var cur strings.Builder
	for _, line := range strings.Split(text, "\n") {
		t := strings.TrimSpace(line)
		if cur.Len() == 0 && (t == "" || strings.HasPrefix(t, "#")) {
			continue
		}
		if more, ok := strings.CutSuffix(t, "\\"); ok {
			cur.WriteString(more + " ")
			continue
		}
		cur.WriteString(t)
		out = append(out, strings.Join(strings.Fields(cur.String()), " "))
		cur.Reset()
	}
	if cur.Len() > 0 {
		out = append(out, strings.Join(strings.Fields(cur.String()), " "))
	}
	return out
}

var argRef = regexp.MustCompile(`\$\{(\w+)\}|\$(\w+)`)

// base is the image the last stage is built on: its FROM with the build
// arguments (or the ARG defaults) put in, followed through earlier
// stages' names; "scratch" for none.
func (df *dockerfile) base(args map[string]string) (string, error) {
	from := df.stages[len(df.stages)-1].from
	for hops := 0; hops < len(df.stages); hops++ {
		from = argRef.ReplaceAllStringFunc(from, func(m string) string {
			k := strings.Trim(m, "${}")
			if v, ok := args[k]; ok {
				return v
			}
			return df.defaults[k]
		})
		i := slices.IndexFunc(df.stages, func(s stage) bool { return s.name != "" && s.name == from })
		if i < 0 {
			break
		}
		from = df.stages[i].from
	}
	switch {
	case from == "":
		return "", fmt.Errorf("its last stage is FROM an empty name (a build argument not given?)")
	case strings.EqualFold(from, "scratch"):
		return "scratch", nil
	}
	return from, nil
}
