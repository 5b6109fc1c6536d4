package image

import (
	"context"
	"fmt"
	"os"
	"path"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hale-lang/halebench/images"
	"github.com/hale-lang/halebench/images/sampler/wire"
	"github.com/hale-lang/halebench/orchestrator/suite"
)

// Source is one program to build into a bench image.
type Source struct {
	Unit string // unique name in the image: /bench/src/<Unit>.<ext>, /bench/bin/<Unit>
	Path string // file on the host
}

// BenchImage is the image a language's benches run in.
type BenchImage struct {
	Lang     string  `json:"-"`
	Ref      string  `json:"reference"`
	ID       string  `json:"id"`
	Digest   string  `json:"digest,omitempty"`
	Executed int     `json:"steps_executed"`
	Cached   int     `json:"steps_cached"`
	Inputs   *Inputs `json:"inputs,omitempty"`
	// Trusted are the sha256 digests of the files the image got from the
	// apart build, by their path in the image: what the sampler checks
	// before it does anything privileged (pass TrustedArg(Trusted)).
	Trusted map[string]string `json:"trusted,omitempty"`
	// Provenance is where the image came from and what vouches for it.
	Provenance *Provenance `json:"provenance,omitempty"`
}

// Paths inside a bench image.
const (
	SamplerPath = "/usr/local/bin/halebench-sampler"
	SrcDir      = "/bench/src"
	BinDir      = "/bench/bin"
)

// SrcPath, BinPath and FailedPath name a unit's files inside the image.
func SrcPath(unit, ext string) string { return SrcDir + "/" + unit + "." + ext }
func BinPath(unit string) string      { return BinDir + "/" + unit }
func FailedPath(unit string) string   { return BinDir + "/" + unit + ".build_failed" }

// CountedPath is the bench's build for the count lane (a fixed CPU target);
// CountedFailedPath holds why that build failed, when it did.
func CountedPath(unit string) string       { return BinDir + "/" + unit + ".counted" }
func CountedFailedPath(unit string) string { return CountedPath(unit) + ".build_failed" }

// benchDockerfile compiles the benches in a stage of their own, with no
// network (the build's force-network-mode): the stage's script runs as
// root and runs each compile, and nothing else, as the language's compile
// uid (CompileUID), so that no compile can stop or kill the script, its
// memory watch or the kill that follows it. It makes the bench image of
// the toolchain, the pristine sources, the compiled programs (root's: no
// bench can rewrite one) and, last, the apart files (apart.go). The
// image's entrypoint and health check are reset: a --b-image toolchain
// chooses its own, and either would run in the privileged container.
func benchDockerfile(region bool, uid int) string {
	df := fmt.Sprintf(`ARG TOOLCHAIN
FROM ${TOOLCHAIN} AS compile
COPY --chown=%[1]d:%[1]d src/ `+SrcDir+`/
COPY --chown=%[1]d:%[1]d bin/ `+BinDir+`/
COPY build.sh /bench/build.sh
USER 0:0
RUN sh /bench/build.sh
FROM ${TOOLCHAIN}
COPY src/ `+SrcDir+`/
COPY --from=compile --chown=0:0 `+BinDir+`/ `+BinDir+`/
COPY --chown=0:0 `+apartDir+`/halebench-sampler `+SamplerPath+`
`, uid)
	if region {
		df += "COPY --chown=0:0 " + apartDir + "/gate/ " + path.Dir(wire.ClockGatePath) + "/\n"
	}
	return df + "USER 0:0\nENTRYPOINT []\nHEALTHCHECK NONE\n"
}

// CompileUID is the uid a language's benches are compiled as: one of its
// own, not nobody (65534, whom the sampler runs benches as and a host may
// run daemons as), because RLIMIT_NPROC, the compile's cap on processes,
// counts every task of the uid on the host: with a uid per language, the
// compile steps BuildKit runs side by side (one per language) do not share
// one budget, and a fork bomb in one language's bench cannot make
// another's compile fail. They share it where one language is compiled
// twice at once (ab's two sides). 65520–65525 lie in the range Debian
// reserves (65000–65533) and inside the 65536 uids any user-namespace
// remapping maps.
func CompileUID(lang string) int {
	for i, l := range suite.All {
		if l.Name == lang {
			return compileUIDBase + i
		}
	}
	return compileUIDBase + len(suite.All)
}

const compileUIDBase = 65520

// The caps of one compile (or check) of one bench source: a source is a
// few KiB, so what outgrows them (`#include "/dev/zero"`, a template bomb, a
// compiler stuck on a FIFO, a fork bomb) is a broken bench, made
// build_failed rather than left to hang the build or eat the host (clang
// reads a device such as /dev/zero as an empty file, but a macro bomb or
// rustc's include_bytes! of a device grow without end).
//
// A BuildKit RUN step on this engine gets no cgroup limits and cannot make
// a cgroup (the cgroup mounts are read-only), so the whole compile tree is
// bounded with what the kernel gives one uid. The step's script runs as
// root and each compile as the compile uid (CompileUID, through setpriv,
// with no capability and no_new_privs), so what bounds a compile runs
// where the compile cannot signal it:
//   - processes: RLIMIT_NPROC at CompileProcCap, set in the compile's own
//     shell (the kernel does not hold root to it), which counts every task
//     (process or thread) of the compile uid on the host;
//   - memory, hard: RLIMIT_DATA at CompileMemCapKiB per process (its heap
//     and other private writable memory), so at most CompileMemCapKiB ×
//     CompileProcCap for the tree;
//   - memory, watched: the resident anonymous and shared memory of the
//     uid's processes summed every 0.2 s by a watch (root's) beside each
//     compile; over CompileTreeMemCapKiB every process of the uid is
//     killed;
//   - time: a wall clock for the compile (timeout, root's), and after it
//     every process the uid still has is killed, again until none is left
//     (kill -KILL -1 sent as the uid: it reaches the uid's processes in the
//     step's pid namespace and nothing of root's), so nothing a compiler
//     left behind — a setsid child included, which outlives timeout's
//     process group — runs on into the next compile or writes after the
//     check. The whole build has a deadline of halebench's besides
//     (buildDeadline), which holds where a toolchain image's own shell or
//     tools do not.
//
// The disk a compile may write is capped twice: each file it writes at
// CompileFileCapBytes (RLIMIT_FSIZE, inherited by every process it starts:
// a write past it fails, the writer gets SIGXFSZ), and what the compile
// stage holds after each compile (its output folder and every place the
// uid can write) at CompileDiskCapKiB, over which the unit's output is
// removed and it is build_failed saying so.
const (
	CompileTimeCapSeconds = 300
	CompileMemCapKiB      = 2 << 20   // 2 GiB
	CompileTreeMemCapKiB  = 4 << 20   // 4 GiB
	CompileProcCap        = 256       // tasks: processes and threads
	CompileFileCapBytes   = 256 << 20 // 256 MiB
	CompileDiskCapKiB     = 1 << 20   // 1 GiB
)

// compileKillGrace is what timeout waits after its TERM before it KILLs.
const compileKillGrace = 10

// compileTimeCap is the per-compile wall clock, in seconds:
// CompileTimeCapSeconds, or in a test binary HALEBENCH_TEST_COMPILE_SECONDS,
// so that a test of the build's deadline need not wait ten minutes.
func compileTimeCap() int {
	if testing.Testing() {
		if n, err := strconv.Atoi(os.Getenv("HALEBENCH_TEST_COMPILE_SECONDS")); err == nil && n > 0 {
			return n
		}
	}
	return CompileTimeCapSeconds
}

// buildDeadline is halebench's own bound on a whole bench-image build of
// units sources: each compiled twice (timed and counted) at the time cap
// and its kill grace, plus a margin of one more compile and two minutes
// for the rest of the build (copies, the export; in a test binary
// HALEBENCH_TEST_BUILD_MARGIN_SECONDS instead). Past it the build is
// cancelled, whatever the toolchain image's own tools do.
func buildDeadline(units int) time.Duration {
	perCompile := time.Duration(compileTimeCap()+compileKillGrace) * time.Second
	rest := 2 * time.Minute
	if testing.Testing() {
		if n, err := strconv.Atoi(os.Getenv("HALEBENCH_TEST_BUILD_MARGIN_SECONDS")); err == nil && n > 0 {
			rest = time.Duration(n) * time.Second
		}
	}
	return time.Duration(2*units)*perCompile + perCompile + rest
}

// DeadlineError is a bench image whose build ran past buildDeadline and was
// cancelled: its language's benches are build_failed, saying so.
type DeadlineError struct {
	Lang     string
	Units    int
	Deadline time.Duration
}

func (e *DeadlineError) Error() string {
	return fmt.Sprintf("benches %s: the bench image's build ran past halebench's deadline of %s (%d sources, each compiled twice at most %d s) and was cancelled: a compile or the toolchain image's own tools kept the build step from ending", e.Lang, e.Deadline, e.Units, compileTimeCap())
}

// compileWritable are the places the compile uid can write in the compile
// stage, whose sum the disk cap holds.
const compileWritable = "/bench /tmp /var/tmp /dev/shm"

// scriptDir holds the script's own files (the compile scripts, the watch,
// the log), root's and not writable by the compile uid.
const scriptDir = "/tmp/halebench"

// dropPriv is the command prefix that runs a command as the compile uid
// ($U) with no group, no capability (inheritable or bounding) and
// no_new_privs, so no set-uid file in a toolchain image gives any back.
const dropPriv = `setpriv --reuid="$U" --regid="$U" --clear-groups --inh-caps=-all --bounding-set=-all --no-new-privs`

// compileTasks is shell for the number of tasks (processes and threads) of
// the compile uid in the step's pid namespace.
const compileTasks = `$(awk -v u="$U" 'FNR==1 {m=0} /^Uid:/ {m=($2==u)} m && /^Threads:/ {s+=$2} END {print s+0}' /proc/[0-9]*/status 2>/dev/null)`

// killAll is shell that kills every process of the compile uid, again while
// any is left (a fork bomb can fork while kill -1 walks the task list; what
// it killed cannot fork again). The kill is sent as the uid, so kill -1
// reaches its processes and none of root's.
const killAll = "  n=0; while " + dropPriv + " sh -c 'kill -s KILL -- -1' 2>/dev/null && [ $n -lt 50 ]; do n=$((n+1)); done\n"

// watchScript is the memory watch of one compile, run as root: $1 is the
// pid of its timeout; it ends when that timeout has.
func watchScript() string {
	return fmt.Sprintf(`set -u
while kill -0 "$1" 2>/dev/null; do
  kib=$(awk -v u="$U" 'FNR==1 {m=0} /^Uid:/ {m=($2==u)} m && /^(RssAnon|RssShmem):/ {s+=$2} END {print s+0}' /proc/[0-9]*/status 2>/dev/null)
  if [ "${kib:-0}" -gt %d ]; then
    echo "$kib" >%[2]s/watch/over
%[3]s    exit 0
  fi
  sleep 0.2
done
exit 0
`, CompileTreeMemCapKiB, scriptDir, killAll)
}

// compileRun is the shell that runs one compile (script, its output $OUT)
// under its caps: status in rc, log in scriptDir/build.log.
func compileRun(what, script string) string {
	var b strings.Builder
	log := scriptDir + "/build.log"
	fmt.Fprintf(&b, "  rm -rf %[1]s/watch; mkdir %[1]s/watch\n", scriptDir)
	fmt.Fprintf(&b, "  timeout -k %d %d %s sh %s </dev/null >%s 2>&1 &\n  cpid=$!\n", compileKillGrace, compileTimeCap(), dropPriv, script, log)
	fmt.Fprintf(&b, "  sh %s/watch.sh $cpid </dev/null >/dev/null 2>&1 &\n  wpid=$!\n", scriptDir)
	b.WriteString("  wait $cpid; rc=$?\n  wait $wpid\n")
	fmt.Fprintf(&b, "  tasks=%s\n", compileTasks)
	b.WriteString(killAll)
	fmt.Fprintf(&b, "  if [ -s %s/watch/over ]; then echo \"halebench: the %s of $unit held $(cat %[1]s/watch/over) KiB of memory over its processes, over the %[3]d MiB cap for a compile's whole tree, and was killed\" >>%[4]s; rc=1\n", scriptDir, what, CompileTreeMemCapKiB>>10, log)
	fmt.Fprintf(&b, "  elif [ $rc -eq 124 ] || [ $rc -eq 137 ]; then echo \"halebench: the %s of $unit ran over the %d s time cap and was killed, with every process it started\" >>%s\n  fi\n", what, compileTimeCap(), log)
	fmt.Fprintf(&b, "  if [ $rc -ne 0 ] && { [ \"$tasks\" -ge %d ] || grep -qi -e 'cannot fork' -e 'fork: ' -e 'resource temporarily unavailable' %s; }; then echo \"halebench: the %s of $unit reached the cap of %d processes and threads for its uid (RLIMIT_NPROC; $tasks at its end)\" >>%[2]s; fi\n", CompileProcCap/2, log, what, CompileProcCap)
	b.WriteString(compileBounds(what))
	return b.String()
}

// compileBounds is the shell that follows one compile (its status in rc,
// its log in scriptDir/build.log, its output $OUT): the file and disk caps
// are said and enforced.
func compileBounds(what string) string {
	var b strings.Builder
	log := scriptDir + "/build.log"
	fmt.Fprintf(&b, "  if [ $rc -ne 0 ] && grep -qi -e 'file size limit exceeded' -e 'file too large' %s; then echo \"halebench: the %s of $unit wrote a file over the %d MiB cap for one file and was stopped\" >>%[1]s; fi\n", log, what, CompileFileCapBytes>>20)
	fmt.Fprintf(&b, "  used=$(du -skx %s 2>/dev/null | awk '{s+=$1} END {print s+0}')\n", compileWritable)
	fmt.Fprintf(&b, "  if [ \"$used\" -gt %d ]; then rm -rf \"$OUT\" \"$OUT\".* /tmp/halebench-scratch/* /tmp/halebench-home/* 2>/dev/null; echo \"halebench: the %s of $unit left $used KiB on disk, over the %d MiB cap for a compile: its output was removed\" >>%s; rc=1; fi\n", CompileDiskCapKiB, what, CompileDiskCapKiB>>10, log)
	return b.String()
}

// compileFailed is the shell that records a failed compile's log at
// $OUT.build_failed. The script is root and the compile uid owns the
// folder, so a link left there is removed first, not written through (no
// process of the uid is left to make another).
func compileFailed() string {
	return fmt.Sprintf("    rm -f \"$OUT\" \"$OUT.build_failed\"\n    cat %s/build.log >\"$OUT.build_failed\"\n", scriptDir)
}

// compileLimits are the per-process limits at the top of a compile script,
// which runs as the compile uid: RLIMIT_NPROC holds only there.
func compileLimits() string {
	// ulimit -f counts 512-byte blocks in sh (dash, and bash as sh); the
	// process cap is -u in bash and busybox, -p in dash.
	return fmt.Sprintf("ulimit -d %d || exit 125\nulimit -f %d || exit 125\n{ ulimit -u %[3]d || ulimit -p %[3]d; } 2>/dev/null || exit 125\n", CompileMemCapKiB, CompileFileCapBytes/512, CompileProcCap)
}

// buildScript compiles every source of one language. A compile error leaves
// <unit>.build_failed holding the compiler's message instead of failing the
// image, so one broken sibling does not stop the others.
func buildScript(lang suite.Language) string {
	cmd := lang.Compile
	if cmd == "" {
		cmd = lang.Check
	}
	var b strings.Builder
	fmt.Fprintf(&b, "#!/bin/sh\n# Generated by halebench: builds every .%s bench of %s.\nset -u\nU=%d\nexport U\nmkdir -p %s\nfails=0\n", lang.Ext, lang.Name, CompileUID(lang.Name), BinDir)
	// The script's own files: root's, in a folder the compile uid cannot write.
	fmt.Fprintf(&b, "rm -rf %[1]s; mkdir -m 0755 %[1]s || exit 1\n", scriptDir)
	fmt.Fprintf(&b, "if ! %s true; then echo \"halebench: this toolchain image cannot drop to uid $U with setpriv (util-linux): halebench compiles each bench as that uid through it; add util-linux to the image\" >&2; exit 1; fi\n", dropPriv)
	// The compilers' scratch (clang's crash reproducers among it, named at
	// random) goes to a folder removed at the end, not into the image.
	b.WriteString("TMPDIR=/tmp/halebench-scratch\nexport TMPDIR\nrm -rf \"$TMPDIR\"; mkdir -p \"$TMPDIR\"; chown \"$U:$U\" \"$TMPDIR\"\n")
	// The compile uid's home is not writable: the compilers' caches (go's
	// among them) go to a scratch home of its own.
	fmt.Fprintf(&b, "HOME=/tmp/halebench-home\nGOCACHE=$HOME/go-build\nexport HOME GOCACHE\nrm -rf \"$HOME\"; mkdir -p \"$HOME\"; chown \"$U:$U\" \"$HOME\"\nrm -f %s/.keep\n", BinDir)
	fmt.Fprintf(&b, "cat >%s/compile.sh <<'HALEBENCH_COMPILE'\n%s%s\nHALEBENCH_COMPILE\n", scriptDir, compileLimits(), cmd)
	fmt.Fprintf(&b, "cat >%s/watch.sh <<'HALEBENCH_WATCH'\n%sHALEBENCH_WATCH\n", scriptDir, watchScript())
	fmt.Fprintf(&b, "for SRC in %s/*.%s; do\n  [ -e \"$SRC\" ] || continue\n  unit=$(basename \"$SRC\" .%s)\n  OUT=%s/$unit\n  export SRC OUT\n", SrcDir, lang.Ext, lang.Ext, BinDir)
	b.WriteString(compileRun("compile", scriptDir+"/compile.sh"))
	b.WriteString("  if [ $rc -eq 0 ]; then\n    echo \"built $unit\"\n  else\n" + compileFailed() + "    echo \"build_failed $unit\"; tail -n 20 " + scriptDir + "/build.log\n    fails=$((fails+1))\n  fi\ndone\n")
	b.WriteString(countedScript(lang))
	b.WriteString("# Only " + BinDir + " leaves this stage; the rest goes with it.\nrm -rf " + scriptDir + " /tmp/halebench-scratch \"$HOME\"\necho \"$fails failed\"\n")
	return b.String()
}

// BenchImage builds the image holding every source of one language, the
// sampler, and the compiled programs, on the language's toolchain image.
func (b *Builder) BenchImage(ctx context.Context, lang suite.Language, sources []Source) (BenchImage, error) {
	bi := BenchImage{Lang: lang.Name}
	tc, err := b.Toolchain(ctx, lang)
	if err != nil {
		return bi, err
	}
	if tc.Status != Available {
		return bi, fmt.Errorf("benches %s: the toolchain is %s: %s", lang.Name, tc.Status, tc.Reason)
	}
	goTC, err := b.SamplerToolchain(ctx)
	if err != nil {
		return bi, err
	}
	bf, err := b.benchFiles(lang, sources)
	if err != nil {
		return bi, err
	}
	in := &Inputs{DockerfileSHA256: sha256Hex(bf.files["Dockerfile"]), BaseDigest: tc.Digest, Files: map[string]string{}}
	for name, data := range bf.files {
		if name != "Dockerfile" && name != "bin/.keep" {
			in.Files[name] = sha256Hex(data)
		}
	}
	dir, err := b.materialize(bf.files)
	if err != nil {
		return bi, err
	}
	defer os.RemoveAll(dir)
	args := benchLabels(lang.Name, b.opts.Scope)
	args["TOOLCHAIN"], args["GO_TOOLCHAIN"], args[noNetwork] = tc.Ref, goTC.Ref, "none"
	var trusted map[string]string
	if !b.opts.NoBuild {
		// Also when the image is found: the record the sampler checks is
		// made from what these inputs build, not read from the image.
		if trusted, err = b.buildApart(ctx, lang, bf.apart, args, dir); err != nil {
			return bi, err
		}
		args["label:"+LabelTrusted] = TrustedArg(trusted)
		for p, d := range trusted {
			in.Files[apartDir+p] = d
		}
	}
	var t Toolchain
	s := image{repo: b.opts.Prefix + "/bench-" + lang.Name, key: inputsDigest(append([]string{tc.ID, goTC.ID}, bf.parts...)...),
		contextDir: dir, dfDir: dir, args: args, in: in, what: "benches " + lang.Name, parent: tc.layers,
		parentWhy: joinWhy(parentWhy(tc.Ref, tc.Provenance), parentWhy(goTC.Ref, goTC.Provenance)),
		tag:       archTag(b.arch()), arch: b.arch()}
	if err := b.buildBefore(ctx, &t, s, len(sources)); err != nil {
		return bi, err
	}
	if trusted == nil { // --no-build: the found image's own record (useFound restored its labels into args)
		if trusted, err = foundRecord(args["label:"+LabelTrusted]); err != nil {
			return bi, fmt.Errorf("benches %s: the found image's %s label: %w: rebuild it without --no-build", lang.Name, LabelTrusted, err)
		}
	}
	// The toolchains' digests, not their references, are what the image was made from.
	in.BuildArgs = map[string]string{"TOOLCHAIN": tc.Ref + "@" + tc.Digest, "GO_TOOLCHAIN": goTC.Ref + "@" + goTC.Digest, "SOURCE_DATE_EPOCH": b.epochString()}
	bi.Ref, bi.ID, bi.Digest, bi.Executed, bi.Cached, bi.Inputs, bi.Trusted, bi.Provenance = t.Ref, t.ID, t.Digest, t.Executed, t.Cached, in, trusted, t.Provenance
	return bi, nil
}

// buildBefore is buildOrFind of a bench image of units sources within
// buildDeadline. The in-step caps are the toolchain image's own shell and
// tools (a given image chooses them); this bound is halebench's, and
// cancelling the solve ends the step's processes.
func (b *Builder) buildBefore(ctx context.Context, t *Toolchain, s image, units int) error {
	dl := buildDeadline(units)
	bctx, cancel := context.WithTimeout(ctx, dl)
	defer cancel()
	err := b.buildOrFind(bctx, t, s)
	if err != nil && ctx.Err() == nil && bctx.Err() == context.DeadlineExceeded {
		return &DeadlineError{Lang: strings.TrimPrefix(s.what, "benches "), Units: units, Deadline: dl}
	}
	return err
}

// benchContext is what a bench image is built from: its build context
// (files), the apart build's (apart) and the parts its inputs digest is
// made of, in a fixed order.
type benchContext struct {
	files, apart map[string][]byte
	parts        []string
}

// benchFiles is a bench image's build context (the Dockerfile, the build
// script, the benches' sources as src/<unit>.<ext>), the apart build's (the
// sampler's sources and the clock gate's) and its inputs.
func (b *Builder) benchFiles(lang suite.Language, sources []Source) (benchContext, error) {
	lang = lang.ForArch(b.arch())
	df := benchDockerfile(countsRegion(lang), CompileUID(lang.Name))
	files := map[string][]byte{"Dockerfile": []byte(df), "build.sh": []byte(buildScript(lang)), "bin/.keep": nil}
	sampler := map[string][]byte{"sampler/go.mod": []byte("module " + images.SamplerModule + "\n\ngo 1.22\n")}
	gate, err := images.FS.ReadFile(images.ClockGateFile)
	if err != nil {
		return benchContext{}, err
	}
	apart := apartFiles(lang, sampler, gate, b.Foreign())
	parts := []string{df, string(files["build.sh"]), string(apart["Dockerfile"]), string(sampler["sampler/go.mod"]), images.ClockGateFile, string(gate), gateScript()}
	for _, name := range images.SamplerFiles {
		data, err := images.FS.ReadFile(name)
		if err != nil {
			return benchContext{}, err
		}
		apart[name] = data
		parts = append(parts, name, string(data))
	}
	sort.Slice(sources, func(i, j int) bool { return sources[i].Unit < sources[j].Unit })
	parts = append(parts, "epoch", b.epochString())
	for _, s := range sources {
		data, err := suite.ReadSource(s.Path)
		if err != nil {
			return benchContext{}, err
		}
		name := "src/" + s.Unit + "." + lang.Ext
		if _, dup := files[name]; dup {
			return benchContext{}, fmt.Errorf("two %s sources are both named %s: rename one", lang.Name, s.Unit)
		}
		files[name] = data
		parts = append(parts, name, string(data))
	}
	if len(sources) == 0 {
		files["src/.keep"] = nil
	}
	if b.opts.Scope != "" {
		parts = append(parts, "scope", b.opts.Scope)
	}
	return benchContext{files: files, apart: apart, parts: parts}, nil
}

// BenchSources is the sources of benches in a language, for a bench image:
// each bench's file in that language, under the bench's name.
func BenchSources(benches []*suite.Bench) func(suite.Language) []Source {
	return func(l suite.Language) []Source {
		var srcs []Source
		for _, b := range benches {
			if p := b.Sources[l.Name]; p != "" {
				srcs = append(srcs, Source{Unit: b.Name, Path: p})
			}
		}
		return srcs
	}
}
