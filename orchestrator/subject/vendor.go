package subject

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hale-lang/halebench/orchestrator/image"
)

// vendorCrate is one crate found in a --hale-vendor directory.
type vendorCrate struct {
	Name, Version string
	Rel           string // its folder, relative to the vendor directory, with /
}

// maxManifest bounds a Cargo.toml read on this host.
const maxManifest = 4 << 20

// readManifest is a Cargo.toml's text, through openSource, at most
// maxManifest bytes.
func readManifest(p string) (string, error) {
	f, err := image.OpenSource(p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxManifest))
	return string(data), err
}

// workspaceVersion reads [workspace.package] version from a Cargo.toml.
func workspaceVersion(manifest string) (string, error) {
	data, err := readManifest(manifest)
	if err != nil {
		return "", fmt.Errorf("the hale tree's Cargo.toml: %w", err)
	}
	f := strings.NewReader(data)
	v := tomlValue(f, "workspace.package", "version")
	if v == "" {
		return "", fmt.Errorf("%s has no [workspace.package] version: is it a hale-lang/hale tree?", manifest)
	}
	return v, nil
}

// tomlValue finds `key = "value"` in [section] of a TOML file: enough for
// the few manifest fields read here, not a TOML parser.
func tomlValue(r io.Reader, section, key string) string {
	sc := bufio.NewScanner(r)
	in := false
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "[") {
			in = line == "["+section+"]"
			continue
		}
		if !in {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok || strings.TrimSpace(k) != key {
			continue
		}
		v = strings.TrimSpace(v)
		if i := strings.Index(v, "#"); i > 0 && strings.Count(v[:i], `"`) != 1 {
			v = strings.TrimSpace(v[:i])
		}
		return strings.Trim(v, `"'`)
	}
	return ""
}

// scanVendor finds the crates of a vendor directory: each folder holding a
// Cargo.toml with a [package] (as `cargo vendor` lays them out), and the
// folders one level below (a plain source tree that is a workspace, such as
// inkwell with its internal_macros).
func scanVendor(dir string) ([]vendorCrate, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("--hale-vendor: %w", err)
	}
	var out []vendorCrate
	add := func(rel, wsVersion string) bool {
		data, err := readManifest(filepath.Join(dir, rel, "Cargo.toml"))
		if err != nil {
			return false
		}
		name := tomlValue(strings.NewReader(string(data)), "package", "name")
		if name == "" {
			return false
		}
		ver := tomlValue(strings.NewReader(string(data)), "package", "version")
		if ver == "" || ver == "true" { // version.workspace = true
			ver = wsVersion
		}
		out = append(out, vendorCrate{Name: name, Version: ver, Rel: filepath.ToSlash(rel)})
		return true
	}
	for _, e := range entries {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		wsVersion := ""
		if data, err := readManifest(filepath.Join(dir, e.Name(), "Cargo.toml")); err == nil {
			wsVersion = tomlValue(strings.NewReader(data), "workspace.package", "version")
		}
		add(e.Name(), wsVersion)
		subs, _ := os.ReadDir(filepath.Join(dir, e.Name()))
		for _, s := range subs {
			if s.IsDir() && !strings.HasPrefix(s.Name(), ".") && s.Name() != "target" {
				add(filepath.Join(e.Name(), s.Name()), wsVersion)
			}
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("--hale-vendor %s holds no crate: want one folder per crate, each with a Cargo.toml that has a [package] (as `cargo vendor` lays them out, or plain source trees)", dir)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Rel < out[j].Rel })
	return out, nil
}

// patchConfig is the cargo [patch.crates-io] table that puts the vendored
// crates in place of the registry's: one entry per crate, renamed when one
// name comes in several versions. A [patch] works for a normalized
// `cargo vendor` folder and for a plain source tree with path dependencies
// alike, so no checksum files are needed.
func patchConfig(crates []vendorCrate, root string) string {
	var sb strings.Builder
	sb.WriteString("# written by halebench from --hale-vendor\n")
	if len(crates) == 0 {
		return sb.String()
	}
	sb.WriteString("[patch.crates-io]\n")
	seen := map[string]int{}
	for _, c := range crates {
		seen[c.Name]++
	}
	for _, c := range crates {
		p := path.Join(root, c.Rel)
		if seen[c.Name] > 1 {
			key := c.Name + "-" + strings.NewReplacer(".", "_", "+", "_").Replace(c.Version)
			fmt.Fprintf(&sb, "%s = { package = %q, path = %q }\n", key, c.Name, p)
			continue
		}
		fmt.Fprintf(&sb, "%s = { path = %q }\n", c.Name, p)
	}
	return sb.String()
}
