package image

import (
	"fmt"
	"strings"

	"github.com/hale-lang/halebench/orchestrator/suite"
)

// countedScript is the part of build.sh that makes the count lane's files:
// each bench built again by the language's CountCompile (for a fixed CPU
// target) to CountedPath, its failure written to CountedFailedPath and
// nothing else (the timed build is not affected). The clock gate is built
// apart (apart.go), where no bench is compiled.
func countedScript(lang suite.Language) string {
	var b strings.Builder
	if lang.CountCompile != "" && lang.NotCounted == "" {
		fmt.Fprintf(&b, "cat >%s/count-compile.sh <<'HALEBENCH_COMPILE'\n%s%s\nHALEBENCH_COMPILE\n", scriptDir, compileLimits(), lang.CountCompile)
		fmt.Fprintf(&b, "for SRC in %s/*.%s; do\n  [ -e \"$SRC\" ] || continue\n  unit=$(basename \"$SRC\" .%s)\n  OUT=%s\n  export SRC OUT\n", SrcDir, lang.Ext, lang.Ext, CountedPath("$unit"))
		b.WriteString(compileRun("counted compile", scriptDir+"/count-compile.sh"))
		b.WriteString("  if [ $rc -eq 0 ]; then\n    echo \"built $unit (counted)\"\n  else\n" + compileFailed() + "    echo \"build_failed $unit (counted)\"; tail -n 20 " + scriptDir + "/build.log\n  fi\ndone\n")
	}
	return b.String()
}
