package runner

import (
	"sort"
	"time"

	"github.com/hale-lang/halebench/orchestrator/image"
	"github.com/hale-lang/halebench/orchestrator/suite"
)

// Limits are what every sample of a run is held to, whichever verb plans it.
type Limits struct {
	Timeout  time.Duration // per sample
	MemLimit int64         // bytes
	OutCap   int           // bytes of stdout kept
}

// Place is where and how one bench's program in language l runs: run, ab
// and xproc all make their cells' jobs here (xproc through PlaceUnit), so
// a cell is the same job whichever verb asked for it (its image's trusted
// record checked by the sampler, the bench's environment in one order,
// the same limits). The caller sets Iters, Warmup and Count.
func Place(b *suite.Bench, l suite.Language, bi image.BenchImage, cpus string, seed int64, lim Limits) (Where, Job) {
	w := Where{Lang: l.Name, Image: bi.Ref, CPUs: cpus, Trusted: image.TrustedArg(bi.Trusted)}
	return w, PlaceUnit(b.Name, b.Env, l, seed, lim)
}

// PlaceUnit is the job of one program unit of a bench image in language
// l, its environment sorted, held to lim: a bench's (Place), or one side
// of an xproc pair, whose image and cpusets the pair decides.
func PlaceUnit(unit string, env map[string]string, l suite.Language, seed int64, lim Limits) Job {
	vars := make([]string, 0, len(env))
	for k, v := range env {
		vars = append(vars, k+"="+v)
	}
	sort.Strings(vars)
	return Job{Unit: unit, Lang: l, Timeout: lim.Timeout, Seed: seed, MemLimit: lim.MemLimit, OutCap: lim.OutCap, Env: vars}
}
