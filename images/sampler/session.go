//go:build linux

package main

import (
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/hale-lang/halebench/images/sampler/wire"
)

// session is what the sampler sets up once: the environment it reports,
// the memory cgroup hierarchy it makes sample cgroups in, and how benches
// are confined.
type session struct {
	env  wire.Env
	cg   cgroups
	conf *confinement
	stop chan struct{}
	// unconfined says why no bench may run here ("": they may).
	unconfined string
	// valgrindChecked: `valgrind --version` was asked (count.go).
	valgrindChecked bool
	// room is what every sample's clean-up checks (room.go).
	room room
	// gateUnchecked: the trusted record names no clock gate (trust.go).
	gateUnchecked bool
}

// newSession sets the sampler up to start benches as uid:gid.
func newSession(uid, gid uint32) *session {
	s := &session{stop: make(chan struct{})}
	s.env.Affinity = affinity()
	s.env.Kernel = kernel()
	s.env.CPUModel = cpuModel()
	// Before any other mount: the image's own, sealed (nodev.go).
	notes, imageUnsafe := keepImageNodesAway()
	cg, err := openCgroups()
	s.env.CgroupVersion = cgroupVersion()
	s.env.CgroupCpuset = cgroupCpuset(s.env.CgroupVersion)
	if err != nil {
		s.env.MemPeakSource = "unavailable"
		s.env.MemPeakError = err.Error()
	} else {
		s.cg = cg
		s.env.MemPeakSource = cg.source()
	}
	if s.cg == nil {
		notes = append(notes, "no per-sample pids limit: no cgroup of its own")
	} else if err := s.cg.pidsErr(); err != nil {
		notes = append(notes, "no per-sample pids limit: "+err.Error())
	}
	own := ownPrivileges()
	s.env.ContainerPrivileges = &own
	if err := makeHome(); err != nil {
		s.conf = &confinement{uid: uid, gid: gid, unsafe: []string{err.Error()}}
	} else {
		s.conf = confine(uid, gid)
		s.env.BenchPrivileges = s.conf.probeBench()
	}
	s.env.ConfinementErrors = append(append(notes, s.conf.errs...), s.conf.unsafe...)
	if imageUnsafe != "" {
		s.conf.unsafe = append(s.conf.unsafe, imageUnsafe)
		s.env.ConfinementErrors = append(s.env.ConfinementErrors, imageUnsafe)
	}
	if len(s.conf.unsafe) > 0 {
		s.unconfined = "benches cannot be confined here, so none runs: " + strings.Join(s.conf.unsafe, "; ")
	}
	// A SIGTERM from the engine (container stop) must not leave a bench
	// running without us: kill it and stop sampling.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT)
	go func() {
		<-sigs
		close(s.stop)
	}()
	return s
}

func (s *session) stopped() bool {
	select {
	case <-s.stop:
		return true
	default:
		return false
	}
}

func (s *session) close() {
	if s.cg != nil {
		s.cg.close()
	}
}

// run takes a job's warm-ups and samples, and stops at the first that is
// not ok.
func (s *session) run(o options) wire.Result {
	res := wire.Result{Status: wire.StatusOK, Samples: []wire.Sample{}, Env: s.env}
	if s.unconfined != "" {
		res.Status, res.Detail = wire.StatusUnconfined, s.unconfined
		return res
	}
	if o.buildFailed != "" {
		if msg, ok := readNote(o.buildFailed); ok {
			res.Status = wire.StatusBuildFailed
			res.BuildError = tail(string(msg), 4000)
			return res
		}
	}
	total := o.warmup + o.iters
	if o.iters == 0 {
		total = 0 // a count-only job
	}
	if o.room == wire.RoomOwner {
		// What the guest's last sample may have left after this side's
		// last clean: the runner sends this job only once the guest's
		// answered, so no process of it is left to write there.
		if err := s.room.clean(); err != nil {
			res.Status, res.Detail, res.Spent = wire.StatusRunFailed, "the shared room could not be emptied before the job: "+err.Error(), true
			return res
		}
	}
	seedCheck := s.timedRuns(o, total, &res)
	if o.count != nil && res.Status == wire.StatusOK && !res.Spent {
		res.Counts, res.Spent = s.countRuns(o, seedCheck)
		res.Env.Valgrind = s.env.Valgrind
	}
	return res
}

// timedRuns takes a job's warm-ups and samples into res, stopping at the
// first that is not ok. The first warm-up of a job with a count runs at
// the count's seed; its check= is returned for the counted runs (nil when
// no such run was made).
func (s *session) timedRuns(o options, total int, res *wire.Result) *string {
	prog := programOf(o)
	var seedCheck *string // the check= of a timed run at the count's seed
	for i := 0; i < total; i++ {
		phases.begin()
		ro, rp := runAt(o, prog, i)
		smp, spent := runOnce(ro, rp, s.cg, s.conf, s.stop)
		if ro.seed == wire.CountSeed && i == 0 && o.count != nil {
			seedCheck = &smp.Check
		}
		smp.Warmup = i < o.warmup
		why := "the sample left processes that could not be killed"
		if !spent {
			if err := s.cleanRoom(o.room); err != nil {
				spent, why = true, "the sample left what could not be cleaned: "+err.Error()
			}
		}
		phases.mark("room")
		phases.note("bench-elapsed", time.Duration(smp.Fig(wire.ElapsedNs)))
		phases.end()
		if spent {
			res.Spent = true
			if smp.Status == wire.StatusOK {
				smp.Status, smp.Detail = wire.StatusRunFailed, why
			}
		}
		res.Samples = append(res.Samples, smp)
		if smp.Status != wire.StatusOK {
			res.Status = smp.Status
			res.Detail = smp.Detail
			break
		}
	}
	return seedCheck
}

// cleanRoom empties the room after a sample: all of it, or, for a guest in
// another container's IPC namespace, what is its container's own.
func (s *session) cleanRoom(side string) error {
	if side == wire.RoomGuest {
		return s.room.cleanOwn()
	}
	return s.room.clean()
}

// runAt is the options and program of a job's i-th timed run: the job's,
// but for the first warm-up of a job with a count, which is discarded and
// so serves the count at no cost: it runs at the count's seed. Its program
// is made anew, since the environment (the seed with it) is the
// program's, not the options'.
func runAt(o options, prog program, i int) (options, program) {
	if o.count == nil || i != 0 || o.warmup <= 0 {
		return o, prog
	}
	o.seed = wire.CountSeed
	return o, programOf(o)
}
