package plan

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"github.com/hale-lang/halebench/orchestrator/suite"
)

// Source is one program a plan measures: the file, and the name the
// digest gives it (a path, or what a verb names it by where machines
// check a suite out in different places).
type Source struct{ Name, Path string }

// Digest names the sources, in the order given: a line "name sha256" per
// file, hashed. The shards of one plan, which read the same sources, get
// the same digest; a report records it as its sources_digest.
func Digest(srcs []Source) (string, error) {
	h := sha256.New()
	for _, s := range srcs {
		data, err := suite.ReadSource(s.Path)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s %x\n", s.Name, sha256.Sum256(data))
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), nil
}
