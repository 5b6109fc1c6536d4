package image

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/hale-lang/halebench/orchestrator/hostfile"
)

// resolvedCap bounds apt's resolution read back (a few KiB for a toolchain).
const resolvedCap = 4 << 20

// DefaultEpoch is SOURCE_DATE_EPOCH when none is given: 2025-01-01T00:00:00Z.
const DefaultEpoch int64 = 1735689600

// Inputs are what an image was made from, recorded so that it can be made
// again and compared: the same inputs give the same digest.
type Inputs struct {
	Builder          string            `json:"builder"`
	SourceDateEpoch  int64             `json:"source_date_epoch"`
	DockerfileSHA256 string            `json:"dockerfile_sha256,omitempty"`
	BuildArgs        map[string]string `json:"build_args,omitempty"`
	BaseDigest       string            `json:"base_digest,omitempty"`
	Files            map[string]string `json:"files,omitempty"`    // build-context file → sha256 (bench sources, build script)
	Packages         []string          `json:"packages,omitempty"` // name=version of every Debian package installed, from dpkg
}

// SourceDateEpoch is the epoch stamped into every image: $SOURCE_DATE_EPOCH
// when set, else DefaultEpoch. The string says where it came from. It is
// never taken from the suite (its git state, its files): the base and the
// toolchains do not depend on the suite, and an epoch that did would make
// them again for every suite and every checkout of one. What defines an
// image (its Dockerfile, its pins) is keyed by its inputs digest instead.
func SourceDateEpoch() (int64, string, error) {
	if v := os.Getenv("SOURCE_DATE_EPOCH"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			return 0, "", fmt.Errorf("SOURCE_DATE_EPOCH=%q is not a Unix time in seconds: unset it, or give seconds since 1970", v)
		}
		return n, "SOURCE_DATE_EPOCH", nil
	}
	return DefaultEpoch, "halebench's fixed default", nil
}

func sha256Hex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// packagesArg finds a Dockerfile's `ARG PACKAGES="a b c"`: the Debian
// packages it installs, resolved and pinned by halebench before the build.
var packagesArg = regexp.MustCompile(`(?m)^ARG PACKAGES="([^"]*)"`)

func dockerfilePackages(df []byte) []string {
	m := packagesArg.FindSubmatch(df)
	if m == nil {
		return nil
	}
	return strings.Fields(string(m[1]))
}

// resolveDockerfile asks apt, in a throw-away build on the base, which
// versions installing names would bring, so that the real build installs
// exactly those (name=version) and a rebuild can ask for them again.
const resolveDockerfile = `ARG BASE
FROM ${BASE} AS resolve
ARG PACKAGES
RUN apt-get update -qq && apt-get install -s --no-install-recommends ${PACKAGES} > /resolved.txt
FROM scratch
COPY --from=resolve /resolved.txt /resolved.txt
`

var instLine = regexp.MustCompile(`(?m)^Inst (\S+) (?:\[\S+\] )?\((\S+) `)

// resolvePins returns the name=version list apt would install for names on
// base, sorted.
func (b *Builder) resolvePins(ctx context.Context, base Base, names []string, what string) ([]string, error) {
	dir, err := b.materialize(map[string][]byte{"Dockerfile": []byte(resolveDockerfile)})
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	out, err := os.MkdirTemp("", "halebench-resolve-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(out)
	args := map[string]string{"BASE": base.Ref, "PACKAGES": strings.Join(names, " ")}
	if _, err := b.sv.solve(ctx, dir, dir, args, true, exportLocal(out), what+" (resolving package versions)"); err != nil {
		return nil, err
	}
	data, err := hostfile.Read(out, "resolved.txt", resolvedCap) // exported from a build on a base that may be given
	if err != nil {
		return nil, fmt.Errorf("%s: apt's resolution is missing: %w", what, err)
	}
	var pins []string
	for _, m := range instLine.FindAllStringSubmatch(string(data), -1) {
		pins = append(pins, m[1]+"="+m[2])
	}
	if len(pins) == 0 {
		return nil, fmt.Errorf("%s: apt would install nothing for %v:\n%s", what, names, indent(string(data)))
	}
	sort.Strings(pins)
	return pins, nil
}

// packages lists name=version of every Debian package installed in an image.
func (b *Builder) packages(ctx context.Context, ref string) ([]string, error) {
	out, err := b.eng.Command(ctx, ref, b.opts.RunID, []string{"dpkg-query", "-W", "-f=${db:Status-Abbrev}${Package}=${Version}\n"})
	if err != nil {
		return nil, fmt.Errorf("listing the packages of %s: %w", ref, err)
	}
	var pkgs []string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "ii ") {
			pkgs = append(pkgs, strings.TrimSpace(l[3:]))
		}
	}
	sort.Strings(pkgs)
	return pkgs, nil
}

// builder names what made an image, for the report.
func builderName() string { return Name }
