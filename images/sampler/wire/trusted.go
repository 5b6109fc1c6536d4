package wire

import (
	"fmt"
	"sort"
	"strings"
)

// The -trusted value: the files of a bench image that run as root (the
// sampler) or are preloaded into counted runs (the clock gate), each with
// the sha256 its build recorded, as /PATH=SHA256 pairs joined by commas and
// sorted by path. The orchestrator writes it (and stores it in the image's
// label); the sampler reads it before anything privileged. One parser, strict,
// for both: a value that does not parse trusts nothing.

// FormatTrusted writes the -trusted value for these path → sha256 pairs.
func FormatTrusted(files map[string]string) string {
	pairs := make([]string, 0, len(files))
	for p, d := range files {
		pairs = append(pairs, p+"="+d)
	}
	sort.Strings(pairs)
	return strings.Join(pairs, ",")
}

// ParseTrusted reads FormatTrusted's form: every pair an absolute path
// (no comma, no '=', no "..", no NUL) and 64 lowercase hex digits, each path
// once. "" is no files.
func ParseTrusted(s string) (map[string]string, error) {
	out := map[string]string{}
	if s == "" {
		return out, nil
	}
	for _, pair := range strings.Split(s, ",") {
		path, sum, ok := strings.Cut(pair, "=")
		if !ok || !validTrustedPath(path) || !isLowerHex(sum, 64) {
			return nil, fmt.Errorf("-trusted: %q is not /PATH=SHA256", pair)
		}
		if _, dup := out[path]; dup {
			return nil, fmt.Errorf("-trusted: %s is listed twice", path)
		}
		out[path] = sum
	}
	return out, nil
}

func validTrustedPath(p string) bool {
	if !strings.HasPrefix(p, "/") || strings.ContainsAny(p, "=\x00") {
		return false
	}
	for _, part := range strings.Split(p, "/") {
		if part == ".." || part == "." {
			return false
		}
	}
	return true
}

func isLowerHex(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}
