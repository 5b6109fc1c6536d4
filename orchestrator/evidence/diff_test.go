package evidence

import (
	"reflect"
	"testing"
)

func TestPackageDiff(t *testing.T) {
	got := packageDiff([]string{"a=1", "b=2", "c=3"}, []string{"a=1", "b=2.1", "d=4"})
	want := []string{"package b: 2 recorded, 2.1 now", "package c 3 is not installed now", "package d 4 is installed now, not recorded"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %q", got)
	}
}

func TestFileDiffNamesTheChangedBenchSource(t *testing.T) {
	got := fileDiff(map[string]string{"src/fib.c": "aa", "build.sh": "bb"}, map[string]string{"src/fib.c": "cc", "build.sh": "bb"})
	if len(got) != 1 || got[0] != "bench source src/fib.c changed (sha256 aa, now cc)" {
		t.Fatalf("got %q", got)
	}
}
