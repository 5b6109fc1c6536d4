// A side as the user chose it on the command line, made into a SideSpec.

package ab

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/hale-lang/halebench/orchestrator/gitrepo"
	"github.com/hale-lang/halebench/orchestrator/image"
	"github.com/hale-lang/halebench/orchestrator/subject"
)

// Choice is one side's --x-suite, --x-ref, --x-src and --x-image: its
// suite (empty: the common one) and at most one way to get its hale
// (none: the common --hale-* flags').
type Choice struct{ Suite, Ref, Src, Image string }

// Spec is the side named X ("A" or "B") as ab takes it: its suite, its
// hale and what to call it. suite, images and hale are the common flags'
// (hale is images' subject build), git is --hale-git. Its errors name the
// flag to mend.
func (c Choice) Spec(X, suite, git string, images image.Options, hale subject.Build) (SideSpec, error) {
	x := strings.ToLower(X)
	spec := SideSpec{Suite: c.Suite, Images: images}
	if spec.Suite == "" {
		spec.Suite = suite
	}
	given := 0
	for _, v := range []string{c.Ref, c.Src, c.Image} {
		if v != "" {
			given++
		}
	}
	what := []string{"suite " + spec.Suite}
	switch {
	case given > 1:
		return spec, fmt.Errorf("side %s: give one of --%s-ref, --%s-src, --%s-image", X, x, x, x)
	case c.Ref != "":
		if err := checkRef(git, c.Ref); err != nil {
			return spec, fmt.Errorf("--%s-ref=%s: %w", x, c.Ref, err)
		}
		hale.Src, hale.Image, hale.Ref = "", "", c.Ref
		what = append(what, "hale "+c.Ref+" of "+git)
	case c.Src != "":
		if fi, err := os.Stat(c.Src); err != nil || !fi.IsDir() {
			return spec, fmt.Errorf("--%s-src=%s: not a folder (give a hale source tree)", x, c.Src)
		}
		hale.Src, hale.Image = c.Src, ""
		what = append(what, "hale tree "+c.Src)
	case c.Image != "":
		if err := image.CheckRef("--"+x+"-image", c.Image); err != nil {
			return spec, err
		}
		hale.Src, hale.Image = "", c.Image
		what = append(what, "hale image "+c.Image)
	}
	spec.What, spec.Images.Subject = strings.Join(what, ", "), hale
	return spec, nil
}

// Sides are both sides as the flags choose them: A's Spec, then B's (the
// first refusal is returned).
func Sides(c [2]Choice, suite, git string, images image.Options, hale subject.Build) (a, b SideSpec, err error) {
	if a, err = c[0].Spec("A", suite, git, images, hale); err != nil {
		return a, b, err
	}
	b, err = c[1].Spec("B", suite, git, images, hale)
	return a, b, err
}

// checkRef says whether ref names a commit of the local repository git
// (a URL is left to the clone, which says so).
func checkRef(git, ref string) error {
	switch {
	case git == "":
		return errors.New("a ref needs --hale-git=URL|DIR (hale's repository)")
	case strings.HasPrefix(ref, "-"):
		return errors.New("not a ref")
	case strings.Contains(git, "://") || strings.Contains(git, "@"):
		return nil
	}
	// gitrepo's git: a clean environment, the caller's GIT_* and config
	// left out.
	ctx, cancel := context.WithTimeout(context.Background(), gitrepo.DefaultProbeTimeout)
	defer cancel()
	if _, err := gitrepo.ResolveRef(ctx, git, ref); err != nil {
		return fmt.Errorf("no such tag, branch or commit in %s", git)
	}
	return nil
}
