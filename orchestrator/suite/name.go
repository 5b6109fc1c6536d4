package suite

import (
	"fmt"
	"strconv"
)

// NameMax is the longest bench name accepted.
const NameMax = 64

// CheckName refuses a bench name that could not travel safely: a name is
// printed in grids, CI logs and reports, is a unit name inside an image and a
// key in baselines.json, so only ASCII letters, digits, '_', '-' and '.' are
// allowed, starting with a letter or digit (nothing that reads as a flag or a
// hidden file), and no "::" or "##" (CI log commands) can be formed from them.
func CheckName(name string) error {
	if name == "" {
		return fmt.Errorf("empty bench name: name the file <bench>.<ext>")
	}
	if len(name) > NameMax {
		return fmt.Errorf("bench name %s is %d bytes, over %d: shorten it", strconv.QuoteToASCII(name), len(name), NameMax)
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
		if i > 0 {
			ok = ok || c == '_' || c == '-' || c == '.'
		}
		if !ok {
			return fmt.Errorf("bench name %s has byte %#02x at %d: a bench name is ASCII letters, digits, '_', '-' and '.', starting with a letter or digit; rename the file", strconv.QuoteToASCII(name), c, i)
		}
	}
	return nil
}
