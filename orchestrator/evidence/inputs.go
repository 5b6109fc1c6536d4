package evidence

import (
	"fmt"
	"net/url"
	"regexp"
	"sort"
	"strings"

	"github.com/hale-lang/halebench/orchestrator/report"
)

// A report is a file anyone can hand over; what verify rebuilds from it
// goes into apt-get's and mmdebstrap's argument lists. A pin that starts
// with "-" is an option there (`-o APT::Update::Pre-Invoke::=…` runs a
// shell in the build), and so is a "mirror" like `--customize-hook=…`. So
// every recorded package and the mirror are held to their grammar before
// anything is built.

// pinPattern is a Debian package pin as apt resolves one: a package name
// (lowercase letters, digits, + - . ; starting with a letter or digit), an
// optional :architecture, "=", and a version (starting with a digit; letters,
// digits and . + ~ : -).
var pinPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9+.-]+(:[a-z0-9-]+)?=[0-9][A-Za-z0-9.+~:-]*$`)

// CheckPin says what is wrong with one recorded package pin, nil when it is
// a name=version pin.
func CheckPin(pin string) error {
	if !pinPattern.MatchString(pin) {
		return fmt.Errorf("package %q is not a Debian name=version pin", pin)
	}
	return nil
}

// CheckMirror says what is wrong with a recorded Debian mirror, nil when it
// is a plain http or https URL with a host.
func CheckMirror(mirror string) error {
	if strings.ContainsAny(mirror, " \t\n\r\"'`\\$;&|<>(){}") {
		return fmt.Errorf("mirror %q holds a space, quote or shell character", mirror)
	}
	u, err := url.Parse(mirror)
	if err != nil {
		return fmt.Errorf("mirror %q is not a URL: %w", mirror, err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || strings.HasPrefix(u.Host, "-") {
		return fmt.Errorf("mirror %q is not an http:// or https:// URL with a host", mirror)
	}
	return nil
}

// checkInputs refuses a report whose recorded build inputs are not what
// halebench writes: every toolchain's PACKAGES a list of pins, the mirror a
// URL, the epoch not negative.
func checkInputs(path string, rep *report.Report) error {
	bad := func(what string, err error) error {
		return fmt.Errorf("report %s: %s: %w (halebench records only name=version pins and an http(s) mirror: the report was edited; rebuild from a report halebench wrote)", path, what, err)
	}
	if rep.Base.Inputs.SourceDateEpoch < 0 {
		return bad("base", fmt.Errorf("source_date_epoch %d is negative", rep.Base.Inputs.SourceDateEpoch))
	}
	if m := mirrorOf(rep.Base); m != "" {
		if err := CheckMirror(m); err != nil {
			return bad("base builder", err)
		}
	}
	langs := make([]string, 0, len(rep.Images))
	for lang := range rep.Images {
		langs = append(langs, lang)
	}
	sort.Strings(langs)
	for _, lang := range langs {
		tc := rep.Images[lang]
		if tc.Inputs == nil {
			continue
		}
		for _, pin := range strings.Fields(tc.Inputs.BuildArgs["PACKAGES"]) {
			if err := CheckPin(pin); err != nil {
				return bad("toolchain "+lang+" PACKAGES", err)
			}
		}
	}
	return nil
}
