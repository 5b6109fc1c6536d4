package termtext

import (
	"fmt"
	"strconv"
	"strings"
)

// Size is n bytes as a person reads it: 1.5 GiB, 512 MiB, 12 KiB, 700 B
// (three significant digits, binary units). JSON keeps the bytes; this is
// for the grid, the logs and the help.
func Size(n int64) string {
	v, units := float64(n), []string{"KiB", "MiB", "GiB", "TiB"}
	if n < 1<<10 && n > -1<<10 {
		return fmt.Sprintf("%d B", n)
	}
	u := -1
	for u+1 < len(units) && (v >= 1<<10 || v <= -1<<10) {
		v, u = v/(1<<10), u+1
	}
	return strconv.FormatFloat(v, 'g', 3, 64) + " " + units[u]
}

// SizeFlag is n bytes as a size flag takes it (512m, 4g; k, m and g): the largest unit
// that divides it exactly, else the bytes.
func SizeFlag(n int64) string {
	for _, u := range []struct {
		suffix string
		of     int64
	}{{"g", 1 << 30}, {"m", 1 << 20}, {"k", 1 << 10}} {
		if n != 0 && n%u.of == 0 {
			return strconv.FormatInt(n/u.of, 10) + u.suffix
		}
	}
	return strconv.FormatInt(n, 10)
}

// SizeValue is a flag.Value for a size in bytes given as 512m, 4g or
// 1048576 (k, m and g are binary multiples); it shows itself as SizeFlag.
type SizeValue int64

func (b *SizeValue) String() string { return SizeFlag(int64(*b)) }

// Set parses s; a negative or unparsable size is refused.
func (b *SizeValue) Set(s string) error {
	s = strings.ToLower(strings.TrimSpace(s))
	mult := int64(1)
	for suf, m := range map[string]int64{"k": 1 << 10, "m": 1 << 20, "g": 1 << 30} {
		if strings.HasSuffix(s, suf) {
			mult, s = m, strings.TrimSuffix(s, suf)
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 {
		return fmt.Errorf("%q is not a size (e.g. 512m, 4g)", s)
	}
	*b = SizeValue(n * mult)
	return nil
}
