package collect

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/engine"
	"github.com/hale-lang/halebench/orchestrator/image"
	"github.com/hale-lang/halebench/orchestrator/judge"
	"github.com/hale-lang/halebench/orchestrator/plan"
	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/runner"
)

// fill sets every field of v (a pointer), recursively, to a value that is
// not its zero, so that a field one side has and the other lacks shows in
// the JSON.
func fill(v reflect.Value, n *int) {
	*n++
	switch v.Kind() {
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem(), n)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i), n)
			}
		}
	case reflect.String:
		v.SetString("s" + string(rune('a'+*n%26)))
	case reflect.Int, reflect.Int64:
		v.SetInt(int64(*n))
	case reflect.Float64:
		v.SetFloat(float64(*n) / 7)
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		fill(v.Index(0), n)
		fill(v.Index(1), n)
	case reflect.Map:
		v.Set(reflect.MakeMap(v.Type()))
		k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		fill(k, n)
		fill(e, n)
		v.SetMapIndex(k, e)
	}
}

func filled[T any](t *testing.T) T {
	var v T
	n := 0
	fill(reflect.ValueOf(&v).Elem(), &n)
	return v
}

func sameJSON(t *testing.T, name string, theirs, ours any) {
	t.Helper()
	a, err := json.Marshal(theirs)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(ours)
	if err != nil {
		t.Fatal(err)
	}
	if string(a) != string(b) {
		t.Errorf("%s: the report's JSON differs from its source's\n source: %s\n report: %s", name, a, b)
	}
}

// Every conversion keeps every field: the report writes what the engine,
// image, runner and judge values held, under the same names, so the
// schema did not change when the report got types of its own.
func TestConversionsKeepEveryField(t *testing.T) {
	hi := filled[engine.HostInfo](t)
	sameJSON(t, "HostInfo", hi, HostInfo(hi))
	as := filled[[]engine.Attempt](t)
	sameJSON(t, "Attempts", as, Attempts(as))
	st := filled[[]runner.Started](t)
	sameJSON(t, "Samplers", st, Samplers(st))
	// A sample's figures are keys of the report's sample itself (the
	// schema's), an object of their own on the wire.
	ss := filled[[]runner.Sample](t)
	rs := Samples(ss)
	for i := range ss {
		if !reflect.DeepEqual(map[string]int64(ss[i].Figures), rs[i].Figures) {
			t.Errorf("sample %d: figures %v became %v", i, ss[i].Figures, rs[i].Figures)
		}
		ss[i].Figures = nil
	}
	wireJSON, _ := json.Marshal(ss)
	reportJSON, _ := json.Marshal(rs)
	if got := strings.ReplaceAll(string(reportJSON), `"wall_ns":0,`, ""); !strings.Contains(got, `"si":9,`) ||
		strings.ReplaceAll(strings.ReplaceAll(got, `"si":9,`, ""), `"st":20,`, "") != string(wireJSON) {
		t.Errorf("Samples: the report's JSON differs from its source's\n source: %s\n report: %s", wireJSON, reportJSON)
	}
	env := filled[runner.Env](t)
	sameJSON(t, "Confinement.Container", env.ContainerPrivileges, Confinement(env).Container)
	sameJSON(t, "Confinement.Bench", env.BenchPrivileges, Confinement(env).Bench)
	b := filled[image.Base](t)
	sameJSON(t, "Base", b, Base(b))
	tc := filled[image.Toolchain](t)
	sameJSON(t, "Toolchain", tc, Toolchain(tc))
	bi := filled[image.BenchImage](t)
	sameJSON(t, "BenchImage", bi, BenchImage(bi))
	c := filled[judge.Check](t)
	sameJSON(t, "Check", c, Check(&c))
	if Check(nil) != nil || Confinement(runner.Env{}) != nil || Samples(nil) != nil {
		t.Error("a missing value became a present one")
	}
}

// A merge reads back every shard field a --shard flag can make: the
// reader's bound is the flag's.
func TestShardBoundsAgree(t *testing.T) {
	if plan.MaxShards != report.MaxShards {
		t.Fatalf("--shard takes up to %d shards, a stored shard field up to %d", plan.MaxShards, report.MaxShards)
	}
}
