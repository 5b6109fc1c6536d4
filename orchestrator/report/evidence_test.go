package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// The JSON names its schema and carries a run report's evidence in the
// report's own field names: the host and privilege, and per side its
// images (digest, provenance) and its subject build; the Markdown says the
// host and the privilege (the page's test is orchestrator/render's).
func TestJSONCarriesSchemaAndEvidence(t *testing.T) {
	r := sample()
	r.Schema, r.RunID = ABSchema, "ab-1"
	r.Host = Host{HostInfo: HostInfo{CPUModel: "Xeon", LogicalCPUs: 2, CgroupVersion: "2"},
		Privilege: Privilege{Mode: "all-caps"}, PrivilegeRefusals: []Attempt{{Privilege: Privilege{Mode: "privileged"}, Error: "refused"}}}
	prov := &Provenance{Origin: "built", Checked: "build", Trusted: true}
	for _, name := range []string{"A", "B"} {
		r.Sides = append(r.Sides, Side{Name: name, What: "hale " + name,
			Images:       map[string]Toolchain{"hale": {Status: "available", Digest: "sha256:t" + name, Provenance: prov, Hale: &HaleBuild{Commit: "c0ffee" + name}}},
			BenchImages:  map[string]BenchImage{"hale": {Ref: "bench", ID: "sha256:b" + name, Provenance: prov}},
			SubjectBuild: &HaleBuild{Commit: "c0ffee" + name}})
	}
	var js, md bytes.Buffer
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
	ABMarkdown(&md, r)
	if out := md.String(); !strings.Contains(out, "Xeon, 2 CPUs") || !strings.Contains(out, "privilege all-caps") {
		t.Errorf("markdown does not say the host and privilege:\n%s", out)
	}
}
