package termtext

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// CI runners take commands from log lines in two shapes. GitHub Actions
// obeys a line whose text, once stripped of Unicode whitespace, starts with
// "::". Azure Pipelines (and GitHub's older parser) obey "##vso[" and "##["
// wherever they appear in a line, "vso" in any case. So a line-start marker
// is judged after any blank or invisible character, and a "##" marker is
// broken wherever it is found.

// mark is put where a command marker was, so a reader still sees the text.
const mark = '\u00b7'

// blank says whether a runner could strip r before it looks for "::":
// Unicode whitespace, and format characters (zero-width space, BOM, …) that
// a log viewer shows as nothing.
func blank(r rune) bool {
	return unicode.IsSpace(r) || unicode.Is(unicode.Cf, r)
}

// lineBreak says whether r may end a line for some log viewer.
func lineBreak(r rune) bool {
	return r == '\n' || r == '\u2028' || r == '\u2029'
}

// hashMarker is the length of a "##[" or "##vso[" marker at the start of
// s (case-insensitive), 0 when there is none.
func hashMarker(s string) int {
	if !strings.HasPrefix(s, "##") {
		return 0
	}
	if strings.HasPrefix(s[2:], "[") {
		return 3
	}
	if len(s) >= 6 && strings.EqualFold(s[2:6], "vso[") {
		return 6
	}
	return 0
}

// hasCommand says whether s holds anything neutraliseCommands would change.
func hasCommand(s string) bool {
	atStart := true
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case lineBreak(r):
			atStart = true
		case atStart && blank(r):
		case atStart && strings.HasPrefix(s[i:], "::"):
			return true
		default:
			atStart = false
			if r == '#' && hashMarker(s[i:]) > 0 {
				return true
			}
		}
		i += size
	}
	return false
}

// neutraliseCommands puts a visible mark in front of a line that a runner
// would read as a "::" command (dropping the blanks before it), and inside
// every "##[" / "##vso[" marker, so that no CI runner obeys any of them.
func neutraliseCommands(s string) string {
	if !hasCommand(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	lineStart, atStart := 0, true
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case lineBreak(r):
			if atStart {
				b.WriteString(s[lineStart:i])
			}
			b.WriteRune(r)
			lineStart, atStart = i+size, true
		case atStart && blank(r):
		case atStart && strings.HasPrefix(s[i:], "::"):
			b.WriteRune(mark)
			b.WriteString(" ::")
			atStart = false
			i += 2
			continue
		default:
			if atStart {
				b.WriteString(s[lineStart:i])
				atStart = false
			}
			if n := hashMarker(s[i:]); r == '#' && n > 0 {
				b.WriteString("##")
				b.WriteRune(mark)
				b.WriteString(s[i+2 : i+n])
				i += n
				continue
			}
			b.WriteRune(r)
		}
		i += size
	}
	if atStart {
		b.WriteString(s[lineStart:])
	}
	return b.String()
}

// CommandLine is the first line of s that a CI runner would obey as a
// command ("::" after leading blanks, "##[" or "##vso[" anywhere), or ""
// when none would: what no path that prints bench, build or git text may let
// through, and what the tests of those paths look for in their output.
func CommandLine(s string) string {
	for _, line := range strings.FieldsFunc(s, lineBreak) {
		if hasCommand(line) {
			return line
		}
	}
	return ""
}
