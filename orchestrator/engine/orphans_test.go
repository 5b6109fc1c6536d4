package engine_test

import (
	"context"
	"os"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/engine"
	"github.com/hale-lang/halebench/orchestrator/enginetest"
)

// What a SIGKILLed run left (its owner pid is gone) is removed by the next
// run; a live run's containers are not.
func TestRemoveOrphans(t *testing.T) {
	eng := enginetest.Connect(t)
	ctx := context.Background()
	img, _ := enginetest.BenchImage(t, eng, "c", "../runner/testdata/small.c")
	host, _ := os.Hostname()
	dead, err := eng.Create(ctx, engine.Spec{Image: img, Cmd: []string{"sleep", "60"}, RunID: "test-orphans",
		Labels: map[string]string{engine.LabelOwner: host + ":999999999"}})
	if err != nil {
		t.Fatal(err)
	}
	live, err := eng.Create(ctx, engine.Spec{Image: img, Cmd: []string{"sleep", "60"}, RunID: "test-orphans"})
	if err != nil {
		t.Fatal(err)
	}
	defer live.Remove()
	if _, err := eng.RemoveOrphans(ctx); err != nil {
		t.Fatal(err)
	}
	ids, _ := eng.Leftovers(ctx, "test-orphans")
	if len(ids) != 1 || ids[0] != live.ID {
		t.Fatalf("left %v, want only the live run's %s (dead one %s)", ids, live.ID, dead.ID)
	}
}

func TestMissingCaps(t *testing.T) {
	got := engine.MissingCaps("000001fffeffffff")
	if len(got) != 1 || got[0] != "SYS_RESOURCE" {
		t.Fatalf("MissingCaps = %v", got)
	}
	if len(engine.MissingCaps("000001ffffffffff")) != 0 {
		t.Fatal("a full set misses nothing")
	}
}
