package bisect

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/enginetest"
	"github.com/hale-lang/halebench/orchestrator/gitrepo"
)

func TestFirstParent(t *testing.T) {
	repo, ids := enginetest.History(t)
	ctx := context.Background()
	list, err := FirstParent(ctx, repo, "v1", "v2")
	if err != nil {
		t.Fatal(err)
	}
	// s1 is on side, reached through the merge's second parent: not listed.
	var got []string
	for _, c := range list {
		got = append(got, c.ID+" "+c.Subject)
	}
	want := []string{ids["c1"] + " subject c1", ids["c2"] + " subject c2", ids["m"] + " merge side", ids["c3"] + " subject c3"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("FirstParent(v1, v2):\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, c := range []struct {
		good, bad string
		want      error
	}{
		{"v2", "v1", ErrBadRange},               // swapped
		{"v1", "v1", ErrBadRange},               // one commit
		{"side", "v2", ErrBadRange},             // good off the first-parent line
		{"v0", "v2", gitrepo.ErrUnknownRef},     // unknown good
		{"v1", "nosuch", gitrepo.ErrUnknownRef}, // unknown bad
	} {
		if _, err := FirstParent(ctx, repo, c.good, c.bad); !errors.Is(err, c.want) {
			t.Errorf("FirstParent(%s, %s) = %v, want %v", c.good, c.bad, err, c.want)
		}
	}
}
