package termtext

import "strings"

// ShortID is an id as people read it: its first 12 characters, without a
// "sha256:" prefix (a container, image or commit id).
func ShortID(id string) string {
	id = strings.TrimPrefix(id, "sha256:")
	if len(id) > 12 {
		return id[:12]
	}
	return id
}

// FirstLine is s up to its first newline (all of s when it has none).
func FirstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// Clip is s cut to at most n bytes, never inside a UTF-8 sequence, with
// "…" where it was cut.
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && n < len(s) && s[n]&0xc0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}

// Headline is the first line of s with the space around s trimmed, clipped
// to n bytes (n ≤ 0: not clipped): a reason or a version said on one line.
func Headline(s string, n int) string {
	line := FirstLine(strings.TrimSpace(s))
	if n > 0 {
		return Clip(line, n)
	}
	return line
}
