package xproc_test

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hale-lang/halebench/images/sampler/wire"
	"github.com/hale-lang/halebench/orchestrator/enginetest"
	"github.com/hale-lang/halebench/orchestrator/suite"
	"github.com/hale-lang/halebench/orchestrator/xproc"
)

// xproc has no reader of a bench's stdout of its own: a pair's figures are
// the sampler's, so what the strict parser (wire.ParseOutput) refuses, an
// xproc row refuses with the same status, and what it takes, xproc takes
// with the same elapsed time. One C program prints each case's text (the
// case named by its variant argument), run as a one-container row: the
// pair's reader goes through the same reading of the sampler's result
// (side, measuredRun), but a reader that prints and exits at once would
// leave its producer no IPC namespace to join.
func TestRefusesWhatTheStrictParserRefuses(t *testing.T) {
	cases := map[string]string{
		"ok":           "ready\nelapsed_ns=5\n",
		"two_elapsed":  "ready\nelapsed_ns=1\nelapsed_ns=2\n",
		"milliseconds": "ready\nelapsed_ns=1.5ms\n",
		"negative":     "ready\nelapsed_ns=-5\n",
		"none":         "ready\nelapsed=5\n",
		"two_checks":   "ready\nelapsed_ns=5\ncheck=a\ncheck=b\n",
		"long_check":   "ready\nelapsed_ns=5\ncheck=" + strings.Repeat("a", wire.MaxCheck+1) + "\n",
	}
	eng := enginetest.Connect(t)
	info, err := eng.Info(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	img, priv := enginetest.BenchImage(t, eng, "c", writePrinter(t, cases))
	runID := "test-xproc-out-" + time.Now().Format("150405.000")
	t.Cleanup(func() { enginetest.NoLeftovers(t, eng, runID) })
	c, _ := suite.ByName("c")
	row := xproc.Row{Name: "c", Title: "C, one container", Lang: c, ReaderUnit: "printer", InProcess: true}
	pool := newPool(t, eng, priv, runID)
	for name, out := range cases {
		want := wire.ParseOutput([]byte(out), 0)
		var log bytes.Buffer
		p := &xproc.Pair{Sampler: pool, Lang: "c", Image: img, NCPU: info.LogicalCPUs, Timeout: time.Minute, Log: &log}
		res := p.Measure(context.Background(), row, name, 1)
		if string(res.Status) != want.Status || res.ElapsedNsMedian != want.ElapsedNs {
			t.Errorf("%s: xproc says %s (%d ns, %s); the strict parser %s (%d ns, %s)\n%s",
				name, res.Status, res.ElapsedNsMedian, res.Detail, want.Status, want.ElapsedNs, want.Detail, log.String())
		}
	}
}

// writePrinter writes printer.c: it prints the text of the case its
// second argument names (after the role), and exits 0. The cases go in
// name order, so the same cases make the same file and the image that
// holds it is found, not built again, on the next run.
func writePrinter(t *testing.T, cases map[string]string) string {
	var b strings.Builder
	b.WriteString("#include <stdio.h>\n#include <string.h>\nint main(int argc, char **argv) {\n\tif (argc < 3) return 2;\n")
	for _, name := range slices.Sorted(maps.Keys(cases)) {
		fmt.Fprintf(&b, "\tif (!strcmp(argv[argc-1], %s)) { fputs(%s, stdout); return 0; }\n", strconv.Quote(name), strconv.Quote(cases[name]))
	}
	b.WriteString("\treturn 3;\n}\n")
	path := filepath.Join(t.TempDir(), "printer.c")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
