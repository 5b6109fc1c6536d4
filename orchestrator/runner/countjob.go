package runner

import (
	"time"

	"github.com/hale-lang/halebench/images/sampler/wire"
	"github.com/hale-lang/halebench/orchestrator/imagebuild"
	"github.com/hale-lang/halebench/orchestrator/toolchain"
)

// CountJobFor is the count lane's job for one bench in language l: runs
// counted runs of the bench's counted build, each bounded by timeout. When l
// is not counted it returns the reason instead (the judge's not_counted).
func CountJobFor(l toolchain.Language, unit string, runs int, timeout time.Duration) (wire.CountJob, string) {
	if l.NotCounted != "" || l.CountCompile == "" && l.Compile != "" {
		why := l.NotCounted
		if why == "" {
			why = l.Name + " has no counted build"
		}
		return wire.CountJob{}, why
	}
	bin := imagebuild.CountedPath(unit)
	if l.Compile == "" { // run from source: the counted run is the timed one
		bin = imagebuild.BinPath(unit)
	}
	return wire.CountJob{
		Argv:      l.Argv(bin, imagebuild.SrcPath(unit, l.Ext)),
		Runs:      runs,
		Region:    l.CountScope == wire.ScopeRegion,
		TimeoutNs: timeout.Nanoseconds(),
	}, ""
}
