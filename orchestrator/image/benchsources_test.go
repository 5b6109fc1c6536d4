package image_test

import (
	"reflect"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/image"
	"github.com/hale-lang/halebench/orchestrator/suite"
)

// A language's bench image holds each bench that has a file in it, under
// the bench's name, in the benches' order; a bench without one is left out.
func TestBenchSources(t *testing.T) {
	benches := []*suite.Bench{
		{Name: "fn_call", Sources: map[string]string{"c": "micro/fn_call.c", "go": "micro/fn_call.go"}},
		{Name: "only_go", Sources: map[string]string{"go": "micro/only_go.go"}},
		{Name: "stream", Sources: map[string]string{"c": "app/stream.c"}},
	}
	got := image.BenchSources(benches)(suite.Language{Name: "c"})
	want := []image.Source{{Unit: "fn_call", Path: "micro/fn_call.c"}, {Unit: "stream", Path: "app/stream.c"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("c: %+v, want %+v", got, want)
	}
	if got := image.BenchSources(benches)(suite.Language{Name: "hale"}); got != nil {
		t.Errorf("a language no bench has: %+v, want none", got)
	}
}
