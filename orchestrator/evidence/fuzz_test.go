package evidence

import (
	"archive/tar"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// seedReport is a stored run report (../report/testdata/run-c.json) with
// the base's build inputs a report halebench writes today records, so the
// readers get past "records no build inputs".
func seedReport(f *testing.F) []byte {
	data, err := os.ReadFile("../report/testdata/run-c.json")
	if err != nil {
		f.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		f.Fatal(err)
	}
	doc["base_image"].(map[string]any)["inputs"] = map[string]any{
		"builder": "mmdebstrap", "source_date_epoch": 1700000000,
		"build_args": map[string]string{"MIRROR": "http://deb.debian.org/debian"}, "packages": []string{"bash=5.2.37-2"},
	}
	out, err := json.Marshal(doc)
	if err != nil {
		f.Fatal(err)
	}
	return out
}

// seedBundle is a bundle as halebench bundle lays one out: the report, an
// images archive, the suite (the harness's test suite) and a manifest with
// every file's sum.
func seedBundle(f *testing.F, rep []byte) []byte {
	files := map[string][]byte{"report.json": rep, "images.tar": []byte("not an archive")}
	suite := "../harness/testdata/suite"
	err := filepath.Walk(suite, func(p string, fi os.FileInfo, err error) error {
		if err != nil || !fi.Mode().IsRegular() {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(suite, p)
		files["suite/"+filepath.ToSlash(rel)] = data
		return err
	})
	if err != nil {
		f.Fatal(err)
	}
	files["suite/baselines.json"] = []byte(`{"benches": {}}`)
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	m := Manifest{Schema: ManifestSchema, Files: map[string]string{}, SourceDateEpoch: 1700000000}
	for name, data := range files {
		tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(data)), Typeflag: tar.TypeReg})
		tw.Write(data)
		sum := sha256.Sum256(data)
		m.Files[name] = hex.EncodeToString(sum[:])
	}
	md, _ := json.Marshal(m)
	tw.WriteHeader(&tar.Header{Name: "manifest.json", Mode: 0o644, Size: int64(len(md)), Typeflag: tar.TypeReg})
	tw.Write(md)
	tw.Close()
	return buf.Bytes()
}

// FuzzUnpack: whatever a bundle file holds, replay's reader of it
// (Unpack: the tar extracted and checked against its manifest, the report
// read as verify reads one, the suite loaded and the replay planned, all
// before any engine) returns a value or an error, and never panics.
func FuzzUnpack(f *testing.F) {
	rep := seedReport(f)
	f.Add(seedBundle(f, rep))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(t.TempDir(), "evidence.tar")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		u, err := Unpack(p, ReplayOptions{ResultsDir: t.TempDir(), RunID: "fuzz"})
		if (u == nil) == (err == nil) {
			t.Fatalf("Unpack: a value and an error, or neither: %v %v", u, err)
		}
		if u != nil {
			u.Close()
		}
	})
}

// FuzzReadReport: whatever a report file holds, the reader bundle and
// verify use (ReadReport: the bounded reader, the run schema, the build
// inputs checked) returns a value or an error, and never panics.
func FuzzReadReport(f *testing.F) {
	f.Add(seedReport(f))
	for _, p := range []string{"../report/testdata/run-c.json", "../report/testdata/before-h2/run-fake.json", "../result/testdata/today/ab-20261206T101112Z-abc123.json"} {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(t.TempDir(), "report.json")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		rep, err := ReadReport(p)
		if (rep == nil) == (err == nil) {
			t.Fatalf("ReadReport: a value and an error, or neither: %v %v", rep, err)
		}
	})
}
