package report

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// The written report names its schema and carries a run report's evidence
// in the report's own field names; the tables say the host's privilege.
func TestReportCarriesSchemaAndEvidence(t *testing.T) {
	prov := &Provenance{Origin: "built", Checked: "build", Trusted: true}
	r := &XprocReport{Schema: XprocSchema, GeneratedAt: "2026-01-02T03:04:05Z", RunID: "xproc-1", Iters: 1, Subject: "hale",
		Host: Host{HostInfo: HostInfo{CPUModel: "Xeon", LogicalCPUs: 2}, Privilege: Privilege{Mode: "all-caps"},
			PrivilegeRefusals: []Attempt{{Privilege: Privilege{Mode: "privileged"}, Error: "refused"}}},
		Base:         Base{Ref: "base", ID: "sha256:base", Provenance: prov},
		Images:       map[string]Toolchain{"hale": {Status: "available", Digest: "sha256:t", Provenance: prov, Hale: &HaleBuild{Commit: "c0ffee"}}},
		BenchImages:  map[string]BenchImage{"hale": {Ref: "b", ID: "sha256:b", Provenance: prov}},
		SubjectBuild: &HaleBuild{Commit: "c0ffee"},
		Variants:     map[string][]*XprocResult{"small": {{Row: "hale", Title: "Hale", Status: "ok", ElapsedNsMedian: 5, ElapsedNsSamples: []int64{5}}}},
	}
	path, err := WriteJSON(r, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var back map[string]any
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	host, _ := back["host"].(map[string]any)
	img, _ := back["images"].(map[string]any)["hale"].(map[string]any)
	bi, _ := back["bench_images"].(map[string]any)["hale"].(map[string]any)
	sb, _ := back["subject_build"].(map[string]any)
	if back["schema"] != "halebench-xproc/1" || host["privilege"] == nil || host["privilege_refusals"] == nil ||
		img["digest"] != "sha256:t" || img["provenance"] == nil || bi["provenance"] == nil || sb["commit"] != "c0ffee" {
		t.Errorf("report JSON:\n%s", data)
	}
	var tables bytes.Buffer
	Tables(&tables, r)
	if !strings.Contains(tables.String(), "privilege all-caps") {
		t.Errorf("tables:\n%s", tables.String())
	}
}

// A shard's tables say which shard it is and mark its reference rows; a
// row of its own part is not marked.
func TestShardTablesMarkReferences(t *testing.T) {
	r := &XprocReport{Schema: XprocSchema, Iters: 1, Subject: "hale",
		Shard: &Shard{Index: 2, Total: 3, SuiteBenches: []string{"small/go", "small/hale"}, Benches: []string{"small/go"}},
		Variants: map[string][]*XprocResult{"small": {
			{Row: "go", Title: "Go", Status: "ok", ElapsedNsMedian: 5},
			{Row: "hale", Title: "Hale", Status: "ok", ElapsedNsMedian: 4, Reference: true},
		}}}
	var tables bytes.Buffer
	Tables(&tables, r)
	out := tables.String()
	if !strings.Contains(out, "shard 2/3: 1 of the 2 pairs") || !strings.Contains(out, "Hale (reference)") || strings.Contains(out, "Go (reference)") {
		t.Errorf("tables:\n%s", out)
	}
	if RatioRows("hale")[0] != "hale" || len(RatioRows("hale")) != 1 || strings.Join(RatioRows("c"), ",") != "c,hale" {
		t.Errorf("ratio rows: %v, %v", RatioRows("hale"), RatioRows("c"))
	}
	if LangOf("small", "hale_drain") != "hale" || LangOf("large", "go") != "go" || LangOf("small", "cobol") != "" {
		t.Error("LangOf")
	}
	// Hale's two readers first (the toolchain table's order), go after
	// them, a row no language has after every other.
	if RowOrder("small", "hale") != 0 || RowOrder("small", "hale_drain") != 1 || RowOrder("small", "go") <= 1 ||
		RowOrder("small", "cobol") <= RowOrder("small", "rust") {
		t.Error("RowOrder")
	}
}

// What xproc shows: the tables or the JSON report on out, the report's
// path on log; an xproc that measured nothing shows nothing.
func TestShowXproc(t *testing.T) {
	r := &XprocReport{Schema: XprocSchema, GeneratedAt: "2026-01-02T03:04:05Z", Iters: 1, Subject: "hale"}
	var out, log bytes.Buffer
	ShowXproc(&out, &log, r, "results/xproc-x.json", false)
	if !strings.HasPrefix(out.String(), "halebench xproc 2026-01-02T03:04:05Z") || log.String() != "report: results/xproc-x.json\n" {
		t.Errorf("tables: %q, said %q", out.String(), log.String())
	}
	out.Reset()
	ShowXproc(&out, &log, r, "", true)
	if !strings.HasPrefix(out.String(), "{\n  \"schema\": \"halebench-xproc/1\"") || log.Len() != len("report: results/xproc-x.json\n") {
		t.Errorf("JSON: %q, said %q", out.String(), log.String())
	}
	out.Reset()
	ShowXproc(&out, &log, nil, "", true)
	if out.Len() != 0 {
		t.Errorf("nothing measured: %q", out.String())
	}
}
