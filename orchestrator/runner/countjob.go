package runner

import (
	"time"

	"github.com/hale-lang/halebench/images/sampler/wire"
	"github.com/hale-lang/halebench/orchestrator/imagebuild"
	"github.com/hale-lang/halebench/orchestrator/toolchain"
)

// DefaultCountTimeout bounds one counted run. A run under Callgrind with
// the cache simulation is some 20 to 100 times slower than a plain one; the
// bound is there for a bench that hangs, not to race a slow one.
const DefaultCountTimeout = 20 * time.Minute

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
	bin, failed := imagebuild.CountedPath(unit), imagebuild.CountedFailedPath(unit)
	if l.Compile == "" { // run from source: the counted run is the timed one
		bin, failed = imagebuild.BinPath(unit), imagebuild.FailedPath(unit)
	}
	if timeout <= 0 {
		timeout = DefaultCountTimeout
	}
	return wire.CountJob{
		Argv:        l.CountArgv(bin, imagebuild.SrcPath(unit, l.Ext)),
		Runs:        runs,
		Region:      l.CountScope == wire.ScopeRegion,
		TimeoutNs:   timeout.Nanoseconds(),
		BuildFailed: failed,
	}, ""
}
