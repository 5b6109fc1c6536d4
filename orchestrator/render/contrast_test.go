package render

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/suite"
)

// luminance is a colour's WCAG 2 relative luminance (#rrggbb).
func luminance(t *testing.T, hex string) float64 {
	t.Helper()
	if !regexp.MustCompile(`^#[0-9a-fA-F]{6}$`).MatchString(hex) {
		t.Fatalf("colour %q is not #rrggbb", hex)
	}
	var l [3]float64
	for i := range l {
		v, _ := strconv.ParseUint(hex[1+2*i:3+2*i], 16, 8)
		c := float64(v) / 255
		if c <= 0.04045 {
			l[i] = c / 12.92
		} else {
			l[i] = math.Pow((c+0.055)/1.055, 2.4)
		}
	}
	return 0.2126*l[0] + 0.7152*l[1] + 0.0722*l[2]
}

// contrast is the WCAG contrast ratio of two colours.
func contrast(t *testing.T, a, b string) float64 {
	la, lb := luminance(t, a), luminance(t, b)
	return (math.Max(la, lb) + 0.05) / (math.Min(la, lb) + 0.05)
}

// cssVars are the colours the layout's :root declares, by name.
func cssVars(t *testing.T) map[string]string {
	root := regexp.MustCompile(`:root \{([^}]*)\}`).FindStringSubmatch(layoutTemplate)
	if root == nil {
		t.Fatal("the layout declares no :root colours")
	}
	vars := map[string]string{}
	for _, m := range regexp.MustCompile(`--([a-z]+):\s*(#[0-9a-fA-F]{6})`).FindAllStringSubmatch(root[1], -1) {
		vars[m[1]] = m[2]
	}
	return vars
}

// Every text colour the pages use, on every background it can stand on,
// is at least 4.5:1 (WCAG AA for body text), computed from the layout's
// own CSS; the verdict's white on each status colour too. The languages'
// colours are a marker's, beside its shape, never text: at least 3:1 on
// the page's backgrounds (WCAG's non-text contrast).
func TestContrast(t *testing.T) {
	vars := cssVars(t)
	texts := []string{"fg", "muted", "bad", "warn", "good"}
	backgrounds := []string{"bg", "head", "zone"} // the page, table heads and bands, the ab band
	for _, fg := range texts {
		for _, bg := range backgrounds {
			c := contrast(t, vars[fg], vars[bg])
			t.Logf("text --%s %s on --%s %s: %.2f:1", fg, vars[fg], bg, vars[bg], c)
			if c < 4.5 {
				t.Errorf("text --%s on --%s: %.2f:1, under 4.5:1", fg, bg, c)
			}
		}
	}
	// The verdict: --on's text on a status colour.
	for _, bg := range []string{"good", "bad", "warn", "muted"} {
		c := contrast(t, vars["on"], vars[bg])
		t.Logf("verdict --on %s on --%s %s: %.2f:1", vars["on"], bg, vars[bg], c)
		if c < 4.5 {
			t.Errorf("verdict text on --%s: %.2f:1, under 4.5:1", bg, c)
		}
	}
	for _, l := range suite.All {
		for _, bg := range backgrounds {
			c := contrast(t, l.Colour, vars[bg])
			t.Logf("marker %s %s on --%s: %.2f:1", l.Name, l.Colour, bg, c)
			if c < 3 {
				t.Errorf("%s's marker colour %s on --%s: %.2f:1, under 3:1", l.Name, l.Colour, bg, c)
			}
		}
	}
	if c := colour("no-such-language"); contrast(t, c, vars["bg"]) < 3 {
		t.Errorf("the unknown language's colour %s is too light", c)
	}
}

// No rule outside :root names a colour of its own for text: every color
// and text fill is one of the variables the contrast test checks (a fill
// of shapes — bands, markers — is not text).
func TestTextColoursAreChecked(t *testing.T) {
	css := regexp.MustCompile(`(?s)<style>(.*)</style>`).FindStringSubmatch(layoutTemplate)[1]
	css = regexp.MustCompile(`:root \{[^}]*\}`).ReplaceAllString(css, "")
	vars := cssVars(t)
	rule := regexp.MustCompile(`([^{}]+)\{([^}]*)\}`)
	for _, m := range rule.FindAllStringSubmatch(css, -1) {
		sel, body := strings.TrimSpace(m[1]), m[2]
		for _, d := range strings.Split(body, ";") {
			prop, val, ok := strings.Cut(d, ":")
			prop, val = strings.TrimSpace(prop), strings.TrimSpace(val)
			if !ok {
				continue
			}
			textRule := prop == "color" || (prop == "fill" && (strings.Contains(sel, "text") || strings.Contains(sel, ".tick") ||
				strings.Contains(sel, ".axis-title") || strings.Contains(sel, ".mark") || strings.Contains(sel, ".none") || strings.Contains(sel, ".status-text")))
			if !textRule || val == "currentColor" || val == "none" {
				continue
			}
			name := strings.TrimSuffix(strings.TrimPrefix(val, "var(--"), ")")
			if _, known := vars[name]; !known || !strings.HasPrefix(val, "var(--") {
				t.Errorf("%s { %s: %s }: a text colour that is not one of the checked variables", sel, prop, val)
			}
		}
	}
}
