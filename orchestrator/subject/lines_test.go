package subject

import "testing"

// The last line of a failed build becomes hale's reason, said on stderr and
// in CI: it comes out of lastLine cleaned.
func TestLastLineIsCleaned(t *testing.T) {
	if got := lastLine("building: exit 1\n    ::error file=a::b\n"); got != "\u00b7 ::error file=a::b" {
		t.Errorf("lastLine = %q", got)
	}
}

// A Build names as many inputs as image's key gives no subject build
// (image.noSubjectKey), all empty when none is given: the cache key
// of a run with no hale input stays what it was.
func TestCacheKeyParts(t *testing.T) {
	if got := (Build{}).CacheKey(); len(got) != 5 || got[0]+got[1]+got[2]+got[3]+got[4] != "" {
		t.Errorf("Build{}.CacheKey() = %q", got)
	}
	if got := (Build{Git: "g", Ref: "r", Image: "i"}).CacheKey(); got[0] != "i" || got[1] != "g" || got[2] != "r" {
		t.Errorf("CacheKey() = %q: image, repository, ref first", got)
	}
}
