package runner

import (
	"sort"
	"time"

	"github.com/hale-lang/halebench/orchestrator/catalogue"
	"github.com/hale-lang/halebench/orchestrator/imagebuild"
	"github.com/hale-lang/halebench/orchestrator/toolchain"
)

// Limits are what every sample of a run is held to, whichever verb plans it.
type Limits struct {
	Timeout  time.Duration // per sample
	MemLimit int64         // bytes
	OutCap   int           // bytes of stdout kept
}

// Place is where and how one bench's program in language l runs: run, ab
// and xproc all make their cells' jobs here, so a cell is the same job
// whichever verb asked for it (its image's trusted record checked by the
// sampler, the bench's environment in one order, the same limits). The
// caller sets Iters, Warmup and Count.
func Place(b *catalogue.Bench, l toolchain.Language, bi imagebuild.BenchImage, cpus string, seed int64, lim Limits) (Where, Job) {
	vars := make([]string, 0, len(b.Env))
	for k, v := range b.Env {
		vars = append(vars, k+"="+v)
	}
	sort.Strings(vars)
	w := Where{Lang: l.Name, Image: bi.Ref, CPUs: cpus, Trusted: imagebuild.TrustedArg(bi.Trusted)}
	j := Job{Unit: b.Name, Lang: l, Timeout: lim.Timeout, Seed: seed, MemLimit: lim.MemLimit, OutCap: lim.OutCap, Env: vars}
	return w, j
}
