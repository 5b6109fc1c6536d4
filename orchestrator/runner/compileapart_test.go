package runner_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hale-lang/halebench/images/sampler/wire"
	"github.com/hale-lang/halebench/orchestrator/engine"
	"github.com/hale-lang/halebench/orchestrator/enginetest"
	"github.com/hale-lang/halebench/orchestrator/image"
	"github.com/hale-lang/halebench/orchestrator/runner"
	"github.com/hale-lang/halebench/orchestrator/suite"
)

// standInHale is a hostile hale (an ab --b-image): asked to build, it
// appends a marker to every file the privileged sampler runs or a counted
// run preloads, then compiles the .hl file as C. What it managed it says in
// a file beside the programs, the one folder that leaves the compile stage.
const standInHale = `#!/bin/sh
if [ "$1" = --version ]; then echo "hale 0.17.0 (hostile stand-in)"; exit 0; fi
for f in /usr/local/bin/halebench-sampler /usr/bin/valgrind /bench/lib/halebench-clockgate.so; do
  mkdir -p "$(dirname "$f")" 2>/dev/null
  echo HOSTILE >>"$f" && echo "wrote $f" >>/bench/bin/standin-report || echo "could not write $f" >>/bench/bin/standin-report
done
exec clang -O1 -x c "$2" -o "${2%.hl}"
`

// standInValgrind is the stand-in toolchain's own valgrind: it says which
// uid ran it.
const standInValgrind = "#!/bin/sh\necho \"valgrind-standin uid=$(id -u)\"\n"

// standInExtra is what the hostile toolchain image adds to the c
// toolchain beside its hale: its own valgrind, an entrypoint that would
// answer for the sampler and a health check that would run beside it.
const standInExtra = `COPY valgrind /usr/bin/valgrind
ENTRYPOINT ["/bin/sh", "-c", "echo HOSTILE-ENTRYPOINT; exit 3", "--"]
HEALTHCHECK --interval=1s CMD ["/bin/sh", "-c", "echo HOSTILE >/tmp/healthcheck"]
`

// A --b-image toolchain whose compiler overwrites the sampler, Valgrind and
// the clock gate while the benches build: the bench image holds the files
// the apart build made (by digest), the compile's writes went nowhere, the
// job runs with the sampler's own entrypoint, Valgrind runs as the bench uid
// only, and a record the image does not match stops every job.
func TestHostileCompilerReachesNothingPrivileged(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	k := newGivenKit(t, ctx, "compile-apart")
	eng, runID := k.eng, k.runID
	standIn := k.standInHale("hostile-hale", standInHale, standInExtra, map[string]string{"valgrind": standInValgrind})
	bi := k.mustBenchImage("hale", standIn, map[string]string{
		"tiny": "#include <stdio.h>\nint main(void) { printf(\"elapsed_ns=1\\ncheck=ok:1\\n\"); return 0; }\n"})
	if len(bi.Trusted[image.SamplerPath]) != 64 || len(bi.Trusted[wire.ClockGatePath]) != 64 {
		t.Fatalf("no recorded digests for the sampler and the gate: %v", bi.Trusted)
	}
	// What the image holds is what the apart build made, and the
	// toolchain's valgrind is as the toolchain had it.
	out, err := eng.Command(ctx, bi.Ref, runID, []string{"sh", "-c", "cat /bench/bin/standin-report; sha256sum " + image.SamplerPath + " " + wire.ClockGatePath + "; cat /usr/bin/valgrind"})
	if err != nil {
		t.Fatal(err)
	}
	// The timed and the counted build each tried three; what the stage let
	// it write (its own /bench) stayed there, as the digests below show.
	if strings.Contains(out, "wrote /usr") || strings.Count(out, "could not write /usr/") != 4 {
		t.Errorf("the stand-in wrote to the toolchain's files in the compile stage:\n%s", out)
	}
	for _, p := range []string{image.SamplerPath, wire.ClockGatePath} {
		if !strings.Contains(out, bi.Trusted[p]+"  "+p) {
			t.Errorf("%s in the bench image is not the apart build's %s:\n%s", p, bi.Trusted[p], out)
		}
	}
	if !strings.HasSuffix(out, standInValgrind) || strings.Contains(out, "HOSTILE\n") {
		t.Errorf("the image's valgrind changed in the build:\n%s", out)
	}

	priv := k.privilege(k.cToolchain())
	o := runApart(t, eng, bi, priv, runID, image.TrustedArg(bi.Trusted))
	if o.Status != "ok" || len(o.Samples) != 1 || o.Samples[0].Check != "ok:1" {
		t.Fatalf("a job in the bench image: %+v", o)
	}
	if o.Env.Valgrind != "valgrind-standin uid=65534" {
		t.Errorf("the toolchain's valgrind ran as %q, want as the bench uid 65534", o.Env.Valgrind)
	}
	// A record the image does not match: nothing runs.
	forged := map[string]string{}
	for p, d := range bi.Trusted {
		forged[p] = d
	}
	forged[wire.ClockGatePath] = strings.Repeat("0", 64)
	o = runApart(t, eng, bi, priv, runID, image.TrustedArg(forged))
	if o.Status != "unconfined" || !strings.Contains(o.Detail, wire.ClockGatePath+" has sha256 "+bi.Trusted[wire.ClockGatePath]) || len(o.Samples) != 0 {
		t.Errorf("a changed clock gate was not refused: %+v", o)
	}
}

// runApart runs unit tiny of bi once, counted once, in a server that checks
// trusted.
func runApart(t *testing.T, eng engine.Driver, bi image.BenchImage, priv engine.Privilege, runID, trusted string) runner.Outcome {
	t.Helper()
	srv, err := runner.StartServer(context.Background(), eng, runner.ServerSpec{Image: bi.Ref, CPUs: "0", Privilege: priv,
		RunID: runID, MemLimit: 1 << 30, Lang: "hale", Trusted: trusted})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		srv.Close()
		enginetest.NoLeftovers(t, eng, runID)
	}()
	hale, _ := suite.ByName("hale")
	cj, why := runner.CountJobFor(hale, "tiny", 1, 20*time.Second)
	if why != "" {
		t.Fatal(why)
	}
	return srv.Run(context.Background(), runner.Job{Unit: "tiny", Lang: hale, Iters: 1, Timeout: 20 * time.Second, Seed: 1,
		MemLimit: 1 << 30, OutCap: 1 << 20, Count: &cj})
}
