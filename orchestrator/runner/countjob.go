package runner

import (
	"time"

	"github.com/hale-lang/halebench/images/sampler/wire"
	"github.com/hale-lang/halebench/orchestrator/image"
	"github.com/hale-lang/halebench/orchestrator/suite"
)

// DefaultCountTimeout bounds one counted run of a job that names no
// timeout. A run under Callgrind with the cache simulation is some 20 to
// 100 times slower than a plain one; the bound is there for a bench that
// hangs, not to race a slow one.
const DefaultCountTimeout = 20 * time.Minute

// A counted run's timeout follows from what the program costs, not from
// the sample timeout: CountSlowdown is the most a counted run took over
// the same program's median native run (wall, start-up included) on the C
// catalogue here — json_parse, 0.053 s native, 12.6 and 15.1 s counted
// under Callgrind with the cache simulation: 285× (fn_call 155×,
// fn_modular 99×, form_hashmap_set 14×; the shortest programs are all
// Valgrind's ~0.5 s start-up) —, CountMargin the room left over it for a
// loaded host, and CountFloor what Valgrind's start-up may take whatever
// the program.
const (
	CountSlowdown = 300
	CountMargin   = 3
	CountFloor    = 10 * time.Second
)

// CountTimeout bounds a counted run of a program whose native run took
// native: the instrument's slowdown with a margin, never under the floor.
// Where nothing was timed (--count=only) native is the sample timeout, the
// longest a native run could have taken.
func CountTimeout(native time.Duration) time.Duration {
	return max(CountFloor, CountSlowdown*CountMargin*native)
}

// CountTimeoutAfter bounds a later counted run of a program whose first
// counted run took first: the same program under the same instrument, so
// the margin alone, never under the floor.
func CountTimeoutAfter(first time.Duration) time.Duration {
	return max(CountFloor, CountMargin*first)
}

// CountJobFor is the count lane's job for one bench in language l: runs
// counted runs of the bench's counted build, each bounded by timeout. When l
// is not counted it returns the reason instead (the judge's not_counted).
func CountJobFor(l suite.Language, unit string, runs int, timeout time.Duration) (wire.CountJob, string) {
	if l.NotCounted != "" || l.CountCompile == "" && l.Compile != "" {
		why := l.NotCounted
		if why == "" {
			why = l.Name + " has no counted build"
		}
		return wire.CountJob{}, why
	}
	bin, failed := image.CountedPath(unit), image.CountedFailedPath(unit)
	if l.Compile == "" { // run from source: the counted run is the timed one
		bin, failed = image.BinPath(unit), image.FailedPath(unit)
	}
	if timeout <= 0 {
		timeout = DefaultCountTimeout
	}
	return wire.CountJob{
		Argv:        l.CountArgv(bin, image.SrcPath(unit, l.Ext)),
		Runs:        runs,
		Region:      l.CountScope == wire.ScopeRegion,
		TimeoutNs:   timeout.Nanoseconds(),
		BuildFailed: failed,
	}, ""
}
