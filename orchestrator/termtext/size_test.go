package termtext

import "testing"

func TestSize(t *testing.T) {
	for _, c := range []struct {
		n          int64
		size, flag string
	}{
		{0, "0 B", "0"},
		{700, "700 B", "700"},
		{1 << 10, "1 KiB", "1k"},
		{1536 << 20, "1.5 GiB", "1536m"},
		{4 << 30, "4 GiB", "4g"},
		{512 << 20, "512 MiB", "512m"},
		{3_000_000_000, "2.79 GiB", "3000000000"},
		{1_000_001, "977 KiB", "1000001"},
		{5 << 40, "5 TiB", "5120g"},
	} {
		if got := Size(c.n); got != c.size {
			t.Errorf("Size(%d) = %q; want %q", c.n, got, c.size)
		}
		if got := SizeFlag(c.n); got != c.flag {
			t.Errorf("SizeFlag(%d) = %q; want %q", c.n, got, c.flag)
		}
	}
}

// A size flag takes 512m, 4g and plain bytes, shows itself as SizeFlag,
// and refuses what is not a size.
func TestSizeValue(t *testing.T) {
	for in, want := range map[string]int64{"512m": 512 << 20, "4G": 4 << 30, " 1048576 ": 1 << 20, "8k": 8 << 10, "0": 0} {
		var v SizeValue
		if err := v.Set(in); err != nil || int64(v) != want {
			t.Errorf("Set(%q) = %d, %v; want %d", in, v, err, want)
		}
	}
	for _, in := range []string{"", "-1m", "4x", "g"} {
		var v SizeValue
		if err := v.Set(in); err == nil {
			t.Errorf("Set(%q) took %d; want an error", in, v)
		}
	}
	v := SizeValue(4 << 30)
	if v.String() != SizeFlag(4<<30) {
		t.Errorf("String() = %q, want %q", v.String(), SizeFlag(4<<30))
	}
}
