package suite

import (
	"fmt"
	"strings"
)

// Language is one toolchain.
type Language struct {
	Name    string   // report key (hale, go, …)
	Title   string   // grid column
	Ext     string   // source extension, without the dot
	Compile string   // shell command compiling $SRC into $OUT; "" when run from source
	Check   string   // shell command that only checks $SRC, for interpreted languages
	Run     []string // argv run per sample; $BIN and $SRC are replaced
	Version []string // argv printing the toolchain's version

	// The count lane (see wire.CountJob). CountCompile builds $SRC into $OUT
	// for CountTarget, a fixed CPU baseline, so that a count does not depend
	// on the host's CPU; "" with NotCounted set when this language is not
	// counted. CountScope is wire.ScopeRegion where the program's own
	// monotonic clock reads can delimit the count, else wire.ScopeProcess.
	CountCompile string
	CountTarget  string
	CountScope   string
	NotCounted   string // why this language is not counted, when it is not
	// CountRun is the argv of a counted run when it differs from Run
	// (Python: without -I, so that PYTHONHASHSEED is read).
	CountRun []string

	// Image is the folder of images/ holding the toolchain's Dockerfile
	// (and any script its build context takes).
	Image string
	// SubjectBuild: the toolchain is built from a source tree the user
	// gives (hale-cli from a hale checkout or a ref of its repository), by
	// the builder's subject build, not from Image's Dockerfile alone; its
	// history is what bisect walks. One language at most.
	SubjectBuild bool
	// Sampler: this toolchain's image builds the sampler every bench image
	// carries, so it is made whatever languages a run asks for. Exactly one.
	Sampler bool
	// SeedSubject: the seed's schema names this language's figures in
	// fields of their own (ratio_vs_hale, hale_version), and a baselines
	// file with no subject field is its. Exactly one.
	SeedSubject bool
	// Colour is its colour on every chart of the HTML page, beside its
	// marker's shape (orchestrator/render): dark enough to stand out
	// (3:1 or more) on the page's backgrounds, which render's test checks.
	Colour string
	// XProc are its rows of an xproc table; nil: one row named and titled
	// as the language, its one program both reader and producer.
	XProc []XProcRow
	// XProcPerRole: its xproc programs are one per variant and role,
	// xproc/<Name>/*.<Ext> (units xproc_<file>), run without arguments;
	// else one xproc/xproc.<Ext> (unit xproc), given role and variant.
	XProcPerRole bool
}

// XProcRow is one row a language gives an xproc table. In Reader and
// Producer, {variant} stands for the table's variant.
type XProcRow struct {
	Key       string // report key: hale, hale_drain, …
	Title     string
	Reader    string // the reader's unit
	Producer  string // the producer's unit; "" when InProcess
	InProcess bool   // both sides in one process (marked † in the table)
}

// The fixed CPU target of every counted build (x86-64-v3: AVX2, BMI2, FMA).
const countTarget = "x86-64-v3"

// Why Node is not counted.
const nodeNotCounted = "node is not counted: V8 compiles on background threads and tiers code up by time and sampling, " +
	"so its instruction counts are neither deterministic nor a measure of the program"

// All lists the languages in grid order.
var All = []Language{
	{Name: "hale", Title: "Hale", Ext: "hl", Image: "hale", Colour: "#c2255c",
		SubjectBuild: true, SeedSubject: true, XProcPerRole: true, XProc: []XProcRow{
			{Key: "hale", Title: "Hale — per-record handler", Reader: "xproc_{variant}_reader", Producer: "xproc_{variant}_producer"},
			{Key: "hale_drain", Title: "Hale — Drain<T> batch", Reader: "xproc_{variant}_reader_drain", Producer: "xproc_{variant}_producer"}},
		Compile: `hale build "$SRC" && mv "${SRC%.hl}" "$OUT"`,
		Run:     []string{"$BIN"}, Version: []string{"hale", "--version"},
		// hale takes its options after the file; baseline is x86-64-v3.
		CountCompile: `hale build "$SRC" --target-cpu baseline && mv "${SRC%.hl}" "$OUT"`,
		CountTarget:  countTarget, CountScope: "region"},
	{Name: "go", Title: "Go", Ext: "go", Image: "go", Colour: "#0b7285", Sampler: true,
		Compile: `go build -o "$OUT" "$SRC"`,
		Run:     []string{"$BIN"}, Version: []string{"go", "version"},
		// Go reads its clock through the vDSO, not libc: no region to gate.
		CountCompile: `GOAMD64=v3 go build -o "$OUT" "$SRC"`,
		CountTarget:  countTarget, CountScope: "process"},
	{Name: "node", Title: "Node", Ext: "js", Image: "node", Colour: "#2b8a3e",
		XProc: []XProcRow{{Key: "node", Title: "Node †", Reader: "xproc", InProcess: true}},
		Check: `node --check "$SRC"`,
		Run:   []string{"node", "$SRC"}, Version: []string{"node", "--version"},
		NotCounted: nodeNotCounted},
	{Name: "python", Title: "Python", Ext: "py", Image: "python", Colour: "#7048e8",
		Check: `python3 -c 'import ast,sys; ast.parse(open(sys.argv[1]).read(), sys.argv[1])' "$SRC"`,
		Run:   []string{"python3", "-I", "$SRC"}, Version: []string{"python3", "--version"},
		// Run from source; the interpreter reads the clock for itself too,
		// so the whole process is counted, with PYTHONHASHSEED=0 (which -I
		// would ignore; -s -P keep the rest of what -I isolates from).
		CountRun: []string{"python3", "-s", "-P", "$SRC"}, CountScope: "process"},
	{Name: "c", Title: "C", Ext: "c", Image: "c", Colour: "#1971c2",
		Compile: `clang -O3 -march=native -o "$OUT" "$SRC" -lm -lpthread`,
		Run:     []string{"$BIN"}, Version: []string{"clang", "--version"},
		CountCompile: `clang -O3 -march=x86-64-v3 -o "$OUT" "$SRC" -lm -lpthread`,
		CountTarget:  countTarget, CountScope: "region"},
	{Name: "rust", Title: "Rust", Ext: "rs", Image: "rust", Colour: "#d9480f",
		Compile: `rustc -O -C target-cpu=native --edition 2021 -o "$OUT" "$SRC"`,
		Run:     []string{"$BIN"}, Version: []string{"rustc", "--version"},
		CountCompile: `rustc -O -C target-cpu=x86-64-v3 --edition 2021 -o "$OUT" "$SRC"`,
		CountTarget:  countTarget, CountScope: "region"},
}

// ByName finds a language by its report key or extension.
func ByName(name string) (Language, bool) {
	for _, l := range All {
		if l.Name == name || l.Ext == name {
			return l, true
		}
	}
	return Language{}, false
}

// SamplerLang is the language whose toolchain builds the sampler (the
// table's one Sampler entry).
func SamplerLang() Language { return only(func(l Language) bool { return l.Sampler }) }

// Seed is the seed schema's subject (the table's one SeedSubject entry).
func Seed() Language { return only(func(l Language) bool { return l.SeedSubject }) }

// Built is the language whose toolchain is a subject build (the table's
// SubjectBuild entry), and false when the table has none.
func Built() (Language, bool) {
	l := only(func(l Language) bool { return l.SubjectBuild })
	return l, l.Name != ""
}

// IsSeed says whether name is the seed schema's subject.
func IsSeed(name string) bool { return name != "" && name == Seed().Name }

func only(is func(Language) bool) Language {
	for _, l := range All {
		if is(l) {
			return l
		}
	}
	return Language{}
}

// XProcRows are the language's rows of an xproc table of variant, with
// {variant} replaced.
func (l Language) XProcRows(variant string) []XProcRow {
	rows := l.XProc
	if rows == nil {
		rows = []XProcRow{{Key: l.Name, Title: l.Title, Reader: "xproc", Producer: "xproc"}}
	}
	out := make([]XProcRow, len(rows))
	for i, r := range rows {
		r.Reader = strings.ReplaceAll(r.Reader, "{variant}", variant)
		r.Producer = strings.ReplaceAll(r.Producer, "{variant}", variant)
		out[i] = r
	}
	return out
}

// ByExt finds the language of a source extension.
func ByExt(ext string) (Language, bool) {
	for _, l := range All {
		if l.Ext == ext {
			return l, true
		}
	}
	return Language{}, false
}

// Parse reads a comma-separated language list ("" means all).
func Parse(list string) ([]Language, error) {
	if strings.TrimSpace(list) == "" {
		return All, nil
	}
	seen := map[string]bool{}
	var out []Language
	for _, n := range strings.Split(list, ",") {
		n = strings.TrimSpace(strings.ToLower(n))
		if n == "" {
			continue
		}
		l, ok := ByName(n)
		if !ok {
			return nil, fmt.Errorf("unknown language %q (known: %s)", n, Names())
		}
		if !seen[l.Name] {
			seen[l.Name] = true
			out = append(out, l)
		}
	}
	// Keep grid order whatever order the user gave.
	var ordered []Language
	for _, l := range All {
		if seen[l.Name] {
			ordered = append(ordered, l)
		}
	}
	return ordered, nil
}

// Names lists the report keys.
func Names() string {
	var n []string
	for _, l := range All {
		n = append(n, l.Name)
	}
	return strings.Join(n, ", ")
}

// BuildFlags is the compile (or check) command of the language, as recorded
// in the report.
func (l Language) BuildFlags() string {
	if l.Compile != "" {
		return l.Compile
	}
	return l.Check
}

// CountArgv is the command of a counted run of one bench: CountRun where
// the language has one, else Run.
func (l Language) CountArgv(bin, src string) []string {
	if l.CountRun == nil {
		return l.Argv(bin, src)
	}
	return Language{Run: l.CountRun}.Argv(bin, src)
}

// Argv is the command that runs one bench in the bench image.
func (l Language) Argv(bin, src string) []string {
	out := make([]string, len(l.Run))
	for i, a := range l.Run {
		a = strings.ReplaceAll(a, "$BIN", bin)
		out[i] = strings.ReplaceAll(a, "$SRC", src)
	}
	return out
}

// The CPU baseline of counted builds on arm64: ARMv8.0-A, what every
// arm64 machine runs (Graviton, Apple Silicon, the Ampere and Cortex cores
// of CI runners), so that a count does not depend on the core either.
const countTargetARM64 = "armv8-a"

// archSpellings are how the table's amd64 counted builds name their CPU
// target, and how the same build says arm64's baseline, per compiler.
var archSpellings = map[string][][2]string{
	"arm64": {
		{"-march=" + countTarget, "-march=" + countTargetARM64}, // clang
		{"target-cpu=" + countTarget, "target-cpu=generic"},     // rustc: generic is armv8-a
		{"GOAMD64=v3", "GOARM64=v8.0"},                          // go
	},
}

// ForArch is the language as it builds and counts on arch (Go's names:
// amd64, arm64). The table is amd64's, unchanged there; on arm64 the
// counted builds target armv8-a. hale's --target-cpu baseline is hale's own
// per-architecture baseline and is kept as it is.
func (l Language) ForArch(arch string) Language {
	sp, ok := archSpellings[arch]
	if !ok {
		return l
	}
	for _, s := range sp {
		l.CountCompile = strings.ReplaceAll(l.CountCompile, s[0], s[1])
	}
	if l.CountTarget == countTarget {
		l.CountTarget = countTargetARM64
	}
	return l
}
