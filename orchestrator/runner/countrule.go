package runner

import (
	"time"

	"github.com/hale-lang/halebench/images/sampler/wire"
	"github.com/hale-lang/halebench/orchestrator/suite"
)

// CountJobTimed is the count lane's job where no native time of the
// program is known when the job is planned (ab, whose sides are counted
// beside their rounds): runs counted runs of the bench's counted build, each
// bounded as run bounds its first counted run under --count=only — what a
// program whose native run took the whole per-sample timeout may take under
// the instrument, never over DefaultCountTimeout; or why l is not counted.
func CountJobTimed(l suite.Language, unit string, runs int, sampleTimeout time.Duration) (wire.CountJob, string) {
	return CountJobFor(l, unit, runs, min(CountTimeout(sampleTimeout), DefaultCountTimeout))
}
