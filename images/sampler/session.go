//go:build linux

package main

import (
	"os"
	"os/signal"
	"syscall"

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
}

func newSession() *session {
	s := &session{stop: make(chan struct{})}
	s.env.Affinity = affinity()
	s.env.Kernel = kernel()
	s.env.CPUModel = cpuModel()
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
	own := ownPrivileges()
	s.env.ContainerPrivileges = &own
	s.conf = confine()
	if bp, err := s.conf.probeBench(); err != nil {
		s.conf.errs = append(s.conf.errs, "probing the bench's privileges: "+err.Error())
	} else {
		s.env.BenchPrivileges = bp
	}
	s.env.ConfinementErrors = s.conf.errs
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
	if o.buildFailed != "" {
		if msg, err := os.ReadFile(o.buildFailed); err == nil {
			res.Status = wire.StatusBuildFailed
			res.BuildError = tail(string(msg), 4000)
			return res
		}
	}
	total := o.warmup + o.iters
	for i := 0; i < total; i++ {
		smp, spent := runOnce(o, s.cg, s.conf, s.stop)
		smp.Warmup = i < o.warmup
		if spent {
			res.Spent = true
			if smp.Status == wire.StatusOK {
				smp.Status, smp.Detail = wire.StatusRunFailed, "the sample left processes that could not be killed"
			}
		}
		res.Samples = append(res.Samples, smp)
		if smp.Status != wire.StatusOK {
			res.Status = smp.Status
			res.Detail = smp.Detail
			break
		}
	}
	return res
}
