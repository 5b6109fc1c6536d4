package report

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/stamp"
)

// The field is the header's, after the schema; a document without it
// (older) reads as nil and writes back without it.
func TestToolInTheHeader(t *testing.T) {
	data, err := json.Marshal(&Report{Schema: Schema, Halebench: &stamp.Tool{Version: "v1", Commit: "e43c9db8f8a9a452b114cb59c31f8743584a09e6"}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(data), `{"schema":"halebench-report/1","halebench":{"version":"v1","commit":"e43c9db8f8a9a452b114cb59c31f8743584a09e6","dirty":false},`) {
		t.Fatalf("header: %s", data)
	}
	var old Report
	if err := json.Unmarshal([]byte(`{"schema":"halebench-report/1","run_id":"x"}`), &old); err != nil || old.Halebench != nil {
		t.Fatalf("an older report: %v, %+v", err, old.Halebench)
	}
	if out, _ := json.Marshal(&old); strings.Contains(string(out), "halebench\"") {
		t.Fatalf("an older report gains the field: %s", out)
	}
}
