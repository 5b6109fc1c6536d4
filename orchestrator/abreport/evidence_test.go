package abreport

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/report"
)

// The JSON names its schema and carries a run report's evidence in the
// report's own field names: the host and privilege, and per side its
// images (digest, provenance) and its subject build; the Markdown and the
// page say the host and the privilege.
func TestJSONCarriesSchemaAndEvidence(t *testing.T) {
	r := sample()
	r.Schema, r.RunID = Schema, "ab-1"
	r.Host = report.Host{HostInfo: report.HostInfo{CPUModel: "Xeon", LogicalCPUs: 2, CgroupVersion: "2"},
		Privilege: report.Privilege{Mode: "all-caps"}, PrivilegeRefusals: []report.Attempt{{Privilege: report.Privilege{Mode: "privileged"}, Error: "refused"}}}
	prov := &report.Provenance{Origin: "built", Checked: "build", Trusted: true}
	for _, name := range []string{"A", "B"} {
		r.Sides = append(r.Sides, Side{Name: name, What: "hale " + name,
			Images:       map[string]report.Toolchain{"hale": {Status: "available", Digest: "sha256:t" + name, Provenance: prov, Hale: &report.HaleBuild{Commit: "c0ffee" + name}}},
			BenchImages:  map[string]report.BenchImage{"hale": {Ref: "bench", ID: "sha256:b" + name, Provenance: prov}},
			SubjectBuild: &report.HaleBuild{Commit: "c0ffee" + name}})
	}
	var js, md, page bytes.Buffer
	if err := JSON(&js, r); err != nil {
		t.Fatal(err)
	}
	var back map[string]any
	if err := json.Unmarshal(js.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	host, _ := back["host"].(map[string]any)
	if back["schema"] != "halebench-ab/1" || host["logical_cpus"] != 2.0 || host["privilege"].(map[string]any)["mode"] != "all-caps" || host["privilege_refusals"] == nil {
		t.Errorf("schema %v, host %v", back["schema"], host)
	}
	sides, _ := back["sides"].([]any)
	if len(sides) != 2 {
		t.Fatalf("sides: %v", back["sides"])
	}
	b := sides[1].(map[string]any)
	tc := b["images"].(map[string]any)["hale"].(map[string]any)
	bi := b["bench_images"].(map[string]any)["hale"].(map[string]any)
	sb := b["subject_build"].(map[string]any)
	if tc["digest"] != "sha256:tB" || tc["provenance"] == nil || bi["provenance"] == nil || sb["commit"] != "c0ffeeB" {
		t.Errorf("side B: %v", b)
	}
	Markdown(&md, r)
	if err := HTML(&page, r); err != nil {
		t.Fatal(err)
	}
	for what, out := range map[string]string{"markdown": md.String(), "page": page.String()} {
		if !strings.Contains(out, "Xeon, 2 CPUs") || !strings.Contains(out, "privilege all-caps") {
			t.Errorf("%s does not say the host and privilege:\n%s", what, out)
		}
	}
}
