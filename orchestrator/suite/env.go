package suite

import (
	"fmt"
	"sort"
	"strings"

	"github.com/hale-lang/halebench/images/sampler/wire"
)

// A bench's env (catalogue.json) reaches every job of the bench, timed and
// counted, so it is held to an allow-list: a suite file may set a bench's
// own knobs and nothing that changes how a program is loaded, run or
// measured. Allowed are names of capital letters, digits and `_` that start
// with one of wire.BenchEnvPrefixes: LOTUS_ (the Hale runtime's knobs, such as
// LOTUS_BUS_QUEUE_CAP, which the suite's bus benches set) and BENCH_ (a
// bench's own, read by its source). Everything else is refused, naming the
// bench and the variable: LD_* (preloads, the loader's paths), GLIBC_*
// (tunables: which memcpy runs), VALGRIND_* (the count's options:
// VALGRIND_OPTS=--toggle-collect=main counted 6,746 instructions of a
// 40,000,037 one), MALLOC_*, GODEBUG, GOGC, PYTHON*, NODE_OPTIONS and the
// HALEBENCH_* names the sampler sets. The count's own environment is
// applied after the job's (images/sampler/count.go), as a second wall.

// Bounds of a bench's env, so a suite file cannot fill a job line.
const (
	maxEnvValue = 256
	maxEnvVars  = 16
)

// checkEnv refuses a bench's env that sets what it may not, or too much.
func checkEnv(bench string, env map[string]string) error {
	if len(env) > maxEnvVars {
		return fmt.Errorf("bench %s sets %d env variables, at most %d are allowed", bench, len(env), maxEnvVars)
	}
	names := make([]string, 0, len(env))
	for k := range env {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		if why := wire.BenchEnvRefused(k); why != "" {
			return fmt.Errorf("bench %s: env variable %q is not allowed (%s): a bench's env may set only %s* names (its own and the Hale runtime's knobs), never one that changes how a program is loaded, run or counted",
				bench, k, why, strings.Join(wire.BenchEnvPrefixes, "* and "))
		}
		if v := env[k]; len(v) > maxEnvValue || !printable(v) {
			return fmt.Errorf("bench %s: env variable %s: its value must be printable ASCII, at most %d bytes", bench, k, maxEnvValue)
		}
	}
	return nil
}

func printable(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return false
		}
	}
	return true
}
