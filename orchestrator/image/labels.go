package image

// Labels every bench image carries, so that `halebench prune` can tell the
// images halebench made from anyone else's, even once a newer build of the
// same tag has left one untagged.
const (
	LabelKind  = "org.halebench.kind"  // bench
	LabelLang  = "org.halebench.lang"  // the language
	LabelScope = "org.halebench.scope" // Options.Scope, when set
)

// Repository prefixes of the images halebench names.
const (
	BenchRepo     = "halebench/bench-"
	ToolchainRepo = "halebench/toolchain-"
)

// benchLabels are a bench image's labels, as build arguments for solve
// (which passes "label:" keys to the frontend as labels).
func benchLabels(lang, scope string) map[string]string {
	l := map[string]string{"label:" + LabelKind: "bench", "label:" + LabelLang: lang}
	if scope != "" {
		l["label:"+LabelScope] = scope
	}
	return l
}
