package image

import "testing"

// A toolchain's --version and the last line of a failed build become a
// report's version and reason, said on stderr and in CI: they come out of
// versionLine and (subject's) lastLine cleaned.
func TestFirstLineIsCleaned(t *testing.T) {
	if got := versionLine("  ::error::hale 9.9\nsecond"); got != "\u00b7 ::error::hale 9.9" {
		t.Errorf("versionLine = %q", got)
	}
	if got := versionLine("hale 1.0 ##vso[task.complete]\x1b[2J"); got != "hale 1.0 ##\u00b7vso[task.complete]" {
		t.Errorf("versionLine = %q", got)
	}
}
