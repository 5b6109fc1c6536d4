package xproc_test

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/image"
	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/suite"
	"github.com/hale-lang/halebench/orchestrator/xproc"
)

// The rows come from the toolchain table: Hale's two readers with the
// variant in their units, Node in one process, every other language one
// row of its xproc program.
func TestRowsFromTheTable(t *testing.T) {
	type row struct {
		name, reader, prod string
		inProcess          bool
	}
	var got []row
	for _, r := range xproc.Rows("small", suite.All) {
		got = append(got, row{r.Name, r.ReaderUnit, r.ProdUnit, r.InProcess})
	}
	var want []row
	for _, l := range suite.All {
		switch l.Name {
		case "hale":
			want = append(want, row{"hale", "xproc_small_reader", "xproc_small_producer", false},
				row{"hale_drain", "xproc_small_reader_drain", "xproc_small_producer", false})
		case "node":
			want = append(want, row{"node", "xproc", "", true})
		default: // go, python, c, rust and any language added with no rows of its own
			want = append(want, row{l.Name, "xproc", "xproc", false})
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("rows\n got %v\nwant %v", got, want)
	}
}

// Hale's programs are one per variant and role in xproc/hale/; another
// language's is xproc/xproc.<ext>.
func TestSources(t *testing.T) {
	hale, _ := suite.ByName("hale")
	c, _ := suite.ByName("c")
	srcs := xproc.Sources("../..", hale)
	if len(srcs) == 0 {
		t.Fatal("no hale xproc programs in ../../xproc/hale")
	}
	for _, s := range srcs {
		if filepath.Dir(s.Path) != "../../xproc/hale" || s.Unit != "xproc_"+filepath.Base(s.Path[:len(s.Path)-3]) {
			t.Errorf("hale source %+v", s)
		}
	}
	if got := xproc.Sources("../..", c); !reflect.DeepEqual(got, []image.Source{{Unit: "xproc", Path: "../../xproc/xproc.c"}}) {
		t.Errorf("c sources %+v", got)
	}
}

// ratio_vs_hale is against the seed subject's per-record reader,
// ratio_vs_subject against the subject's row.
func TestRatios(t *testing.T) {
	res := []*xproc.Result{
		{Row: "hale", Status: outcome.OK, ElapsedNsMedian: 100},
		{Row: "c", Status: outcome.OK, ElapsedNsMedian: 50},
	}
	xproc.Ratios(res, "c")
	if res[1].RatioVsHale == nil || *res[1].RatioVsHale != 0.5 || res[0].RatioVsSubject == nil || *res[0].RatioVsSubject != 2 {
		t.Errorf("ratios %+v %+v", res[0], res[1])
	}
}
