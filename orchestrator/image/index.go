package image

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strings"
)

// Package is one stanza of a suite's Packages index.
type Package struct {
	Name, Version, Filename, SHA256 string
	Essential                       bool
	Depends                         [][]string // groups of alternatives, names only
	Provides                        []string
}

// Index is a suite's packages by name.
type Index map[string]*Package

// ParseIndex reads a Packages file. The first stanza of a name wins.
func ParseIndex(r io.Reader) (Index, error) {
	idx := Index{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	fields := map[string]string{}
	last := ""
	flush := func() {
		if name := fields["Package"]; name != "" && idx[name] == nil {
			idx[name] = &Package{
				Name: name, Version: fields["Version"], Filename: fields["Filename"], SHA256: fields["SHA256"],
				Essential: fields["Essential"] == "yes",
				Depends:   parseDepends(joinNonEmpty(fields["Pre-Depends"], fields["Depends"])),
				Provides:  names(fields["Provides"]),
			}
		}
		fields, last = map[string]string{}, ""
	}
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			flush()
		case line[0] == ' ' || line[0] == '\t':
			if last != "" {
				fields[last] += "\n" + strings.TrimSpace(line)
			}
		default:
			k, v, ok := strings.Cut(line, ":")
			if !ok {
				return nil, fmt.Errorf("packages index: line %q is not a field", line)
			}
			last = k
			fields[k] = strings.TrimSpace(v)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reading the packages index: %w", err)
	}
	flush()
	return idx, nil
}

func joinNonEmpty(a, b string) string {
	if a == "" || b == "" {
		return a + b
	}
	return a + ", " + b
}

// parseDepends keeps only the names of a Depends field: one index holds
// one version of each package, so version bounds choose nothing here.
func parseDepends(s string) [][]string {
	var groups [][]string
	for _, g := range strings.Split(s, ",") {
		if alts := names(strings.ReplaceAll(g, "|", ",")); len(alts) > 0 {
			groups = append(groups, alts)
		}
	}
	return groups
}

// names are the package names of a comma-separated list, without version
// bounds, architecture qualifiers or restrictions.
func names(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if i := strings.IndexAny(f, " ([<"); i >= 0 {
			f = f[:i]
		}
		f, _, _ = strings.Cut(f, ":")
		if f != "" {
			out = append(out, f)
		}
	}
	return out
}

// Closure is every package that installing want (and the suite's
// Essential packages, which nothing names as a dependency) brings, sorted
// by name. Of alternatives the first one that exists is taken, or failing
// that the first (by name) package providing it: the same index always
// gives the same set.
func (idx Index) Closure(want []string) ([]*Package, error) {
	providers := map[string][]string{}
	for name, p := range idx {
		for _, v := range p.Provides {
			providers[v] = append(providers[v], name)
		}
	}
	for _, ps := range providers {
		sort.Strings(ps)
	}
	var queue []string
	for name, p := range idx {
		if p.Essential {
			queue = append(queue, name)
		}
	}
	sort.Strings(queue)
	queue = append(queue, want...)
	chosen := map[string]bool{}
	provided := map[string]bool{}
	for len(queue) > 0 {
		name := queue[0]
		queue = queue[1:]
		if chosen[name] {
			continue
		}
		p := idx[name]
		if p == nil {
			return nil, fmt.Errorf("package %s is not in the suite's index", name)
		}
		chosen[name] = true
		for _, v := range p.Provides {
			provided[v] = true
		}
		for _, alts := range p.Depends {
			pick, err := idx.pick(alts, chosen, provided, providers)
			if err != nil {
				return nil, fmt.Errorf("%s depends on %s: %w", name, strings.Join(alts, " | "), err)
			}
			if pick != "" {
				queue = append(queue, pick)
			}
		}
	}
	out := make([]*Package, 0, len(chosen))
	for name := range chosen {
		out = append(out, idx[name])
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// pick chooses what satisfies one group of alternatives: "" when one is
// already chosen or provided.
func (idx Index) pick(alts []string, chosen, provided map[string]bool, providers map[string][]string) (string, error) {
	for _, a := range alts {
		if chosen[a] || provided[a] {
			return "", nil
		}
	}
	for _, a := range alts {
		if idx[a] != nil {
			return a, nil
		}
	}
	for _, a := range alts {
		if ps := providers[a]; len(ps) > 0 {
			return ps[0], nil
		}
	}
	return "", fmt.Errorf("no package in the index is or provides it")
}
