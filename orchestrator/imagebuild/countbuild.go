package imagebuild

import (
	"fmt"
	"strings"

	"github.com/hale-lang/halebench/images/sampler/wire"
	"github.com/hale-lang/halebench/orchestrator/toolchain"
)

// countedScript is the part of build.sh that makes the count lane's files:
// each bench built again by the language's CountCompile (for a fixed CPU
// target) to CountedPath, its failure written to CountedFailedPath and
// nothing else (the timed build is not affected); and, for a language
// counted by region, the clock gate library at wire.ClockGatePath, built by
// whichever C compiler the toolchain image has. A gate that does not build
// leaves its reason beside it; the sampler then counts the whole process.
func countedScript(lang toolchain.Language) string {
	var b strings.Builder
	if lang.CountCompile != "" && lang.NotCounted == "" {
		fmt.Fprintf(&b, "cat >/tmp/halebench-count-compile.sh <<'HALEBENCH_COMPILE'\nulimit -d %d || exit 125\n%s\nHALEBENCH_COMPILE\n", CompileMemCapKiB, lang.CountCompile)
		fmt.Fprintf(&b, "for SRC in %s/*.%s; do\n  [ -e \"$SRC\" ] || continue\n  unit=$(basename \"$SRC\" .%s)\n  OUT=%s\n  export SRC OUT\n", SrcDir, lang.Ext, lang.Ext, CountedPath("$unit"))
		fmt.Fprintf(&b, "  timeout -k 10 %d sh /tmp/halebench-count-compile.sh >/tmp/halebench-build.log 2>&1\n  rc=$?\n", CompileTimeCapSeconds)
		fmt.Fprintf(&b, "  if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then echo \"halebench: the counted compile of $unit ran over the %d s time cap and was killed\" >>/tmp/halebench-build.log; fi\n", CompileTimeCapSeconds)
		b.WriteString("  if [ $rc -eq 0 ]; then\n    echo \"built $unit (counted)\"\n  else\n    rm -f \"$OUT\"\n    cp /tmp/halebench-build.log \"$OUT.build_failed\"\n    echo \"build_failed $unit (counted)\"; tail -n 20 /tmp/halebench-build.log\n  fi\ndone\n")
	}
	if lang.CountScope == wire.ScopeRegion && lang.NotCounted == "" {
		gate := wire.ClockGatePath
		fmt.Fprintf(&b, "mkdir -p %s\ncc=\nfor c in clang gcc cc; do if command -v $c >/dev/null; then cc=$c; break; fi; done\n", gate[:strings.LastIndex(gate, "/")])
		fmt.Fprintf(&b, "if [ -n \"$cc\" ] && $cc -O2 -shared -fPIC -o %s /bench/count/clockgate.c -ldl >/tmp/halebench-build.log 2>&1; then\n  echo \"built the clock gate\"\n", gate)
		fmt.Fprintf(&b, "else\n  echo \"no C compiler ($cc) built the clock gate\" >>/tmp/halebench-build.log\n  cp /tmp/halebench-build.log %s.build_failed\n  echo \"the clock gate did not build: counts cover the whole process\"\nfi\n", gate)
	}
	b.WriteString("rm -rf /bench/count /tmp/halebench-count-compile.sh\n")
	return b.String()
}
