package xproc_test

import (
	"bytes"
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hale-lang/halebench/orchestrator/engine"
	"github.com/hale-lang/halebench/orchestrator/enginetest"
	"github.com/hale-lang/halebench/orchestrator/runner"
	"github.com/hale-lang/halebench/orchestrator/suite"
	"github.com/hale-lang/halebench/orchestrator/xproc"
)

// Both variants, every non-Hale language: the right checksum, two distinct
// containers on two distinct CPUs (Node: one, marked), nothing left.
func TestPairsAcrossContainers(t *testing.T) {
	eng := enginetest.Connect(t)
	info, err := eng.Info(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	runID := "test-xproc-" + time.Now().Format("150405.000")
	t.Cleanup(func() {
		enginetest.NoLeftovers(t, eng, runID)
		// The segments lived in the reader containers' IPC namespace: none
		// may show up in the host's.
		if left, _ := filepath.Glob("/dev/shm/halebench*"); len(left) > 0 {
			t.Errorf("shm segments on the host: %v", left)
		}
	})
	for _, name := range []string{"c", "go", "python", "rust", "node"} {
		l, _ := suite.ByName(name)
		img, priv := enginetest.BenchImage(t, eng, name, "../../xproc/xproc."+l.Ext)
		pool := newPool(t, eng, priv, runID) // both variants on one pair of containers
		for _, v := range []string{"small", "large"} {
			row := xproc.Rows(v, []suite.Language{l})[0]
			var log bytes.Buffer
			p := &xproc.Pair{Sampler: pool, Lang: name, Image: img, NCPU: info.LogicalCPUs, Timeout: 2 * time.Minute, Log: &log}
			res := p.Measure(context.Background(), row, v, 1)
			if res.Status != "ok" || res.ElapsedNsMedian <= 0 {
				t.Fatalf("%s %s: %s %s\n%s", name, v, res.Status, res.Detail, log.String())
			}
			r := res.Runs[0]
			if name == "node" {
				if r.Producer != nil || res.Comparable {
					t.Fatalf("node must be one in-process container, marked not comparable: %+v", res)
				}
				continue
			}
			if r.Producer == nil || r.Producer.ContainerID == r.Reader.ContainerID || r.Reader.ContainerID == "" {
				t.Fatalf("%s %s: reader and producer not in two containers: %+v", name, v, r)
			}
			if info.LogicalCPUs > 1 && r.Reader.CPUsEffective == r.Producer.CPUsEffective {
				t.Fatalf("%s %s: both sides on cpus %s", name, v, r.Reader.CPUsEffective)
			}
			if r.Reader.CPUsEffective != r.Reader.CPUs || r.Producer.CPUsEffective != r.Producer.CPUs {
				t.Fatalf("%s %s: effective cpusets %s/%s, asked %s/%s", name, v, r.Reader.CPUsEffective, r.Producer.CPUsEffective, r.Reader.CPUs, r.Producer.CPUs)
			}
		}
	}
}

// A producer that dies leaves the reader to time out: producer_failed, not
// a hang, and nothing left behind.
func TestProducerFailed(t *testing.T) {
	eng := enginetest.Connect(t)
	info, _ := eng.Info(context.Background())
	img, priv := enginetest.BenchImage(t, eng, "c", "../../xproc/xproc.c", "../runner/testdata/exit3.c")
	runID := "test-xproc-fail-" + time.Now().Format("150405.000")
	c, _ := suite.ByName("c")
	row := xproc.Row{Name: "c", Title: "C", Lang: c, ReaderUnit: "xproc", ProdUnit: "exit3"}
	var log bytes.Buffer
	pool := runner.NewPool(eng, priv, runID, xproc.MemLimit, io.Discard)
	p := &xproc.Pair{Sampler: pool, Lang: "c", Image: img, NCPU: info.LogicalCPUs, Timeout: time.Minute, Log: &log}
	start := time.Now()
	res := p.Measure(context.Background(), row, "small", 1)
	pool.Close()
	if res.Status != "producer_failed" || !strings.Contains(res.Detail, "exit status 3") {
		t.Fatalf("status %q detail %q\n%s", res.Status, res.Detail, log.String())
	}
	if d := time.Since(start); d > 45*time.Second {
		t.Fatalf("took %s", d)
	}
	enginetest.NoLeftovers(t, eng, runID)
}

// newPool is a pool of sampler containers for a test's pairs, closed when
// the test ends (before the cleanups registered earlier).
func newPool(t *testing.T, eng engine.Driver, priv engine.Privilege, runID string) *runner.Pool {
	p := runner.NewPool(eng, priv, runID, xproc.MemLimit, io.Discard)
	t.Cleanup(p.Close)
	return p
}
