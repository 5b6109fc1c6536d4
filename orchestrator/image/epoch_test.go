package image

import "testing"

// The epoch comes from the environment or halebench's constant, never from
// the suite: the same for every suite, in git or not.
func TestSourceDateEpoch(t *testing.T) {
	for _, tc := range []struct {
		env     string
		want    int64
		wantErr bool
	}{
		{"", DefaultEpoch, false},
		{"1700000000", 1700000000, false},
		{"yesterday", 0, true},
		{"-5", 0, true},
	} {
		t.Setenv("SOURCE_DATE_EPOCH", tc.env)
		got, _, err := SourceDateEpoch()
		if (err != nil) != tc.wantErr || got != tc.want {
			t.Errorf("SOURCE_DATE_EPOCH=%q: got %d, %v; want %d (error %v)", tc.env, got, err, tc.want, tc.wantErr)
		}
	}
}
