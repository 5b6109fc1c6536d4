package toolchain

import (
	"fmt"
	"strings"
)

// Language is one toolchain.
type Language struct {
	Name    string   // report key: hale, go, node, python, c, rust
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
}

// The fixed CPU target of every counted build (x86-64-v3: AVX2, BMI2, FMA).
const countTarget = "x86-64-v3"

// Why Node is not counted.
const nodeNotCounted = "node is not counted: V8 compiles on background threads and tiers code up by time and sampling, " +
	"so its instruction counts are neither deterministic nor a measure of the program"

// All lists the languages in grid order.
var All = []Language{
	{Name: "hale", Title: "Hale", Ext: "hl",
		Compile: `hale build "$SRC" && mv "${SRC%.hl}" "$OUT"`,
		Run:     []string{"$BIN"}, Version: []string{"hale", "--version"},
		// hale takes its options after the file; baseline is x86-64-v3.
		CountCompile: `hale build "$SRC" --target-cpu baseline && mv "${SRC%.hl}" "$OUT"`,
		CountTarget:  countTarget, CountScope: "region"},
	{Name: "go", Title: "Go", Ext: "go",
		Compile: `go build -o "$OUT" "$SRC"`,
		Run:     []string{"$BIN"}, Version: []string{"go", "version"},
		// Go reads its clock through the vDSO, not libc: no region to gate.
		CountCompile: `GOAMD64=v3 go build -o "$OUT" "$SRC"`,
		CountTarget:  countTarget, CountScope: "process"},
	{Name: "node", Title: "Node", Ext: "js",
		Check: `node --check "$SRC"`,
		Run:   []string{"node", "$SRC"}, Version: []string{"node", "--version"},
		NotCounted: nodeNotCounted},
	{Name: "python", Title: "Python", Ext: "py",
		Check: `python3 -c 'import ast,sys; ast.parse(open(sys.argv[1]).read(), sys.argv[1])' "$SRC"`,
		Run:   []string{"python3", "-I", "$SRC"}, Version: []string{"python3", "--version"},
		// Run from source; the interpreter reads the clock for itself too,
		// so the whole process is counted, with PYTHONHASHSEED=0 (which -I
		// would ignore; -s -P keep the rest of what -I isolates from).
		CountRun: []string{"python3", "-s", "-P", "$SRC"}, CountScope: "process"},
	{Name: "c", Title: "C", Ext: "c",
		Compile: `clang -O3 -march=native -o "$OUT" "$SRC" -lm -lpthread`,
		Run:     []string{"$BIN"}, Version: []string{"clang", "--version"},
		CountCompile: `clang -O3 -march=x86-64-v3 -o "$OUT" "$SRC" -lm -lpthread`,
		CountTarget:  countTarget, CountScope: "region"},
	{Name: "rust", Title: "Rust", Ext: "rs",
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
