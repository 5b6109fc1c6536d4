package runner

import (
	"time"

	"github.com/hale-lang/halebench/images/sampler/wire"
	"github.com/hale-lang/halebench/orchestrator/toolchain"
)

// CountSlowdown bounds a counted run: Valgrind runs a program some tens of
// times slower than natively, so a counted run gets this many times the
// per-sample timeout (less where a count budget has less left).
const CountSlowdown = 50

// CountJobTimed is the count lane's job as every verb that counts plans it
// (run, ab): runs counted runs of the bench's counted build, each bounded by
// CountSlowdown times the verb's per-sample timeout; or why l is not counted.
func CountJobTimed(l toolchain.Language, unit string, runs int, sampleTimeout time.Duration) (wire.CountJob, string) {
	return CountJobFor(l, unit, runs, CountSlowdown*sampleTimeout)
}
