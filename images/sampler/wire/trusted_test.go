package wire

import (
	"reflect"
	"strings"
	"testing"
)

// What FormatTrusted writes, ParseTrusted reads back; anything else is
// refused whole, so a malformed record trusts nothing.
func TestTrustedRoundTripAndRefusals(t *testing.T) {
	a, b := strings.Repeat("a", 64), strings.Repeat("0", 64)
	files := map[string]string{"/halebench-sampler": a, "/usr/local/lib/halebench/gate.so": b}
	s := FormatTrusted(files)
	if s != "/halebench-sampler="+a+",/usr/local/lib/halebench/gate.so="+b {
		t.Fatalf("FormatTrusted = %q, want sorted PATH=SHA256 pairs", s)
	}
	got, err := ParseTrusted(s)
	if err != nil || !reflect.DeepEqual(got, files) {
		t.Fatalf("ParseTrusted(FormatTrusted) = %v, %v", got, err)
	}
	if got, err := ParseTrusted(""); err != nil || len(got) != 0 {
		t.Errorf(`ParseTrusted("") = %v, %v; want no files`, got, err)
	}
	for _, bad := range []string{
		"halebench-sampler=" + a,        // relative
		"/x=" + strings.ToUpper(a),      // upper-case hex
		"/x=" + a[:63],                  // short
		"/x=" + a + "0",                 // long
		"/x",                            // no digest
		"/x=" + a + ",",                 // empty pair
		"/x=" + a + ",/x=" + b,          // twice
		"/a/../etc/passwd=" + a,         // ..
		"/a/./b=" + a,                   // .
		"/a=b=" + a,                     // '=' in the path
		"/x=" + strings.Repeat("g", 64), // not hex
		"/x\x00y=" + a,                  // NUL
	} {
		if m, err := ParseTrusted(bad); err == nil {
			t.Errorf("ParseTrusted(%q) = %v, want an error", bad, m)
		}
	}
}
