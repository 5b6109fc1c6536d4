package evidence

import (
	"archive/tar"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/result"
)

const mirrorBuilder = "mmdebstrap --variant=minbase trixie http://deb.debian.org/debian; halebench"

// side is one ab side's images as ab records them: a shared base and C
// toolchain, a bench image of its own, and a hale toolchain of digest hale.
func side(name, bench, hale string) report.Side {
	in := &report.Inputs{Builder: mirrorBuilder, SourceDateEpoch: 1}
	return report.Side{Name: name, Base: report.Base{Ref: "halebench/base:t", ID: "sha256:b", Inputs: in},
		Images: map[string]report.Toolchain{
			"c":    {Status: outcome.Available, Ref: "halebench/toolchain-c:1", Digest: "sha256:c", Inputs: &report.Inputs{BuildArgs: map[string]string{"PACKAGES": "clang=1"}}},
			"hale": {Status: outcome.Available, Ref: "halebench/toolchain-hale:" + hale, Digest: "sha256:" + hale, Hale: &report.HaleBuild{Commit: hale}},
		},
		BenchImages: map[string]report.BenchImage{"c": {Ref: "halebench/bench-c:" + bench, Digest: "sha256:" + bench, Inputs: &report.Inputs{}}}}
}

func writeDoc(t *testing.T, v any) string {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "doc.json")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// An ab result is read as its two sides' image sets and an xproc report
// as one whose bench images are xproc's, each as a run report holds them
// (the host's architecture as theirs); every image of both sides is
// bundled; replay refuses both kinds for what they hold.
func TestReadStoredTakesEveryKind(t *testing.T) {
	host := report.Host{HostInfo: report.HostInfo{Arch: "x86_64"}}
	ab := writeDoc(t, report.Result{Kind: report.ABKind, Schema: report.ABSchema, Subject: "c", Host: host,
		Sides: []report.Side{side("A", "a1", "h1"), side("B", "b1", "h1")}})
	st, err := ReadStored(ab)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Sets) != 2 || st.Sets[1].Name != "side B" || st.Sets[0].Rep.Host.ImageArch != "amd64" || st.Sets[0].Xproc {
		t.Fatalf("ab sets: %+v", st.Sets)
	}
	imgs := st.images()
	if len(imgs) != 5 || imgs["halebench/bench-c:a1"] != "sha256:a1" || imgs["halebench/bench-c:b1"] != "sha256:b1" {
		t.Errorf("images of both sides: %v", imgs)
	}
	if err := checkSets(st); err != nil {
		t.Errorf("one hale build on both sides: %v", err)
	}
	x := side("", "x1", "h1")
	xp := writeDoc(t, report.XprocReport{Kind: report.XprocKind, Schema: report.XprocSchema, Host: host, Base: x.Base, Images: x.Images, BenchImages: x.BenchImages})
	if st, err := ReadStored(xp); err != nil || len(st.Sets) != 1 || !st.Sets[0].Xproc || st.Doc.Kind != result.Xproc {
		t.Fatalf("xproc: %v %+v", err, st)
	}
	for p, want := range map[string]string{ab: "an ab result's figures are ratios of two sides", xp: "an xproc report's rows are reader/producer pairs"} {
		if _, err := ReadReport(p); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("replay's read of %s: %v; want %q", p, err, want)
		}
	}
}

// What one verify cannot rebuild of an ab result is refused before any
// engine, for what the result records: two builds of the subject, a base
// with no inputs.
func TestVerifyRefusesWhatAnABRecords(t *testing.T) {
	two := writeDoc(t, report.Result{Kind: report.ABKind, Schema: report.ABSchema, Subject: "hale",
		Sides: []report.Side{side("A", "a1", "h1"), side("B", "b1", "h2")}})
	_, err := ReadStoredForVerify(two, "")
	if err == nil || !strings.Contains(err.Error(), "side A's hale toolchain is sha256:h1 and side B's is sha256:h2 (built at commit h2)") || !strings.Contains(err.Error(), "--lang without hale") {
		t.Errorf("two hale builds: %v", err)
	}
	bare := side("B", "b1", "h1")
	bare.Base.Inputs = nil
	none := writeDoc(t, report.Result{Kind: report.ABKind, Schema: report.ABSchema, Subject: "c", Sides: []report.Side{side("A", "a1", "h1"), bare}})
	if _, err := ReadStored(none); err == nil || !strings.Contains(err.Error(), "(an ab result, side B) records no build inputs of its base") {
		t.Errorf("side B without inputs: %v", err)
	}
}

// An ab result's side B's suite, when another folder, goes in as
// suite-b/; an xproc report's xproc/ programs go in with its suite.
func TestBundleCarriesEachKindsSources(t *testing.T) {
	mk := func(files ...string) string {
		dir := t.TempDir()
		for _, f := range files {
			p := filepath.Join(dir, f)
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	a, b := mk("benches/micro/fn.c", "xproc/xproc.c"), mk("benches/micro/fn.c")
	names := func(k result.Kind, s Suites) string {
		var out bytes.Buffer
		w := &bundleWriter{tw: tar.NewWriter(&out), m: &Manifest{Files: map[string]string{}}}
		if err := w.addSuites(&Stored{Doc: &result.Doc{Kind: k}}, s); err != nil {
			t.Fatal(err)
		}
		var got []string
		for n := range w.m.Files {
			got = append(got, n)
		}
		sort.Strings(got)
		return strings.Join(got, " ")
	}
	for _, c := range []struct {
		kind result.Kind
		s    Suites
		want string
	}{
		{result.AB, Suites{Dir: a, B: b}, "suite-b/benches/micro/fn.c suite/benches/micro/fn.c"},
		{result.AB, Suites{Dir: a, B: a}, "suite/benches/micro/fn.c"},
		{result.Xproc, Suites{Dir: a}, "suite/benches/micro/fn.c suite/xproc/xproc.c"},
		{result.Run, Suites{Dir: a, B: b}, "suite/benches/micro/fn.c"},
	} {
		if got := names(c.kind, c.s); got != c.want {
			t.Errorf("%s %+v: bundled %s, want %s", c.kind, c.s, got, c.want)
		}
	}
}
