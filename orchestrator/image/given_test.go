package image

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The flags' image inputs as Options: the epoch from the environment (a bad
// one refused first), the mirror defaulted, --print-cache-key the suite's
// key with the folder left unread, --cache-dir checked and set with its key.
func TestGivenOptions(t *testing.T) {
	suite := "../harness/testdata/suite"
	t.Setenv("HALEBENCH_CACHE_KEY", "")
	t.Setenv("SOURCE_DATE_EPOCH", "1700000000")
	o, key, err := Given{BaseImage: "b", NoBuild: true}.Options(nil, suite)
	if err != nil || key != "" || o.Mirror != DefaultMirror || o.SourceDateEpoch != 1700000000 || o.BaseImage != "b" || !o.NoBuild {
		t.Errorf("plain: %+v %q %v", o, key, err)
	}
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o644)
	want, _ := CacheKey(Options{Mirror: DefaultMirror, SourceDateEpoch: 1700000000}, suite)
	if _, key, err := (Given{PrintKey: true, CacheDir: file}).Options(nil, suite); err != nil || key != want {
		t.Errorf("--print-cache-key: %q %v, want %q", key, err, want)
	}
	if _, _, err := (Given{CacheDir: file}).Options(nil, suite); err == nil || !strings.Contains(err.Error(), "not a folder") {
		t.Errorf("--cache-dir at a file: %v", err)
	}
	dir := t.TempDir()
	if o, _, err := (Given{CacheDir: dir}).Options(nil, suite); err != nil || o.CacheDir != dir || o.CacheKey != nil {
		t.Errorf("--cache-dir: %+v %v", o, err)
	}
	keyFile := filepath.Join(t.TempDir(), "key")
	os.WriteFile(keyFile, []byte(strings.Repeat("k", 32)+"\n"), 0o600)
	t.Setenv("HALEBENCH_CACHE_KEY_FILE", keyFile)
	if o, _, err := (Given{CacheDir: dir}).Options(nil, suite); err != nil || string(o.CacheKey) != strings.Repeat("k", 32) {
		t.Errorf("--cache-dir with HALEBENCH_CACHE_KEY_FILE: key %q, %v", o.CacheKey, err)
	}
	t.Setenv("HALEBENCH_CACHE_KEY_FILE", "")
	t.Setenv("SOURCE_DATE_EPOCH", "soon")
	if _, _, err := (Given{PrintKey: true}).Options(nil, suite); err == nil || !strings.Contains(err.Error(), "SOURCE_DATE_EPOCH") {
		t.Errorf("a bad epoch: %v", err)
	}
}
