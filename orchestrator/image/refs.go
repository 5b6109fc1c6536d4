package image

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
)

// refRE is an image reference as the engine takes one: [HOST[:PORT]/]NAME
// [:TAG][@sha256:DIGEST], NAME's components lowercase; or an image id
// (sha256:<64 hex>, or its hex alone or a prefix of it).
var refRE = regexp.MustCompile(`^(?:` +
	`(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)*(?::[0-9]+)?/)?` +
	`[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*` +
	`(?::[A-Za-z0-9_][A-Za-z0-9_.-]{0,127})?(?:@sha256:[0-9a-f]{64})?` +
	`|(?:sha256:)?[0-9a-f]{12,64})$`)

// CheckRef refuses what cannot name an image (flag names the option in
// the message), before any engine is asked; whether the image is there is
// the engine's to say.
func CheckRef(flag, ref string) error {
	if len(ref) > 512 || !refRE.MatchString(ref) {
		return fmt.Errorf("%s=%q is not an image reference (REPO[:TAG] or REPO@sha256:<digest>, lowercase)", flag, ref)
	}
	return nil
}

// CheckOwn checks own-image's inputs before the engine is dialled: a
// checkout whose root Dockerfile is a regular file, and a tag that can
// name an image.
func CheckOwn(dir, tag string) error {
	df := filepath.Join(dir, "Dockerfile")
	fi, err := os.Lstat(df)
	switch {
	case err != nil:
		return fmt.Errorf("own-image: --dir=%s: no Dockerfile there (%v); run it from a halebench checkout or give --dir", dir, err)
	case !fi.Mode().IsRegular():
		return fmt.Errorf("own-image: %s is not a regular file (a link?): give a halebench checkout", df)
	}
	return CheckRef("-t", tag)
}
