package runner

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
	"time"

	"github.com/hale-lang/halebench/images/sampler/wire"
	"github.com/hale-lang/halebench/orchestrator/engine"
	"github.com/hale-lang/halebench/orchestrator/image"
	"github.com/hale-lang/halebench/orchestrator/outcome"
)

// Server is one long-lived container of a bench image, pinned to one
// cpuset, whose sampler takes jobs on stdin: the container's start (about
// 0.2 s on a fuse-overlayfs engine) is paid once for every bench of that
// language and cpuset instead of once per bench. Between jobs the sampler
// blocks on stdin and uses no CPU, so servers of other languages pinned to
// the same CPU do not disturb each other.
type Server struct {
	c       engine.Container
	stdin   io.WriteCloser
	results chan string
	readErr error
	mu      sync.Mutex
	dead    error
	seq     int
	cpus    string
	// StartNs is what making and starting the container cost.
	StartNs int64
}

// ServerSpec says which container to keep.
type ServerSpec struct {
	Image     string
	CPUs      string
	Privilege engine.Privilege
	RunID     string
	MemLimit  int64 // per sample; the container gets room for the sampler
	Lang      string
	// SamplerArgs are added to the sampler's `serve` command line. Tests
	// only: -test-bench-uid asks for an impossible bench uid to show that
	// a failed uid switch stops every bench.
	SamplerArgs []string
	// Trusted is the sampler's -trusted (see Where).
	Trusted string
	// Labels are added to the container's.
	Labels map[string]string
	// ShmSize sizes the container's /dev/shm (0: the engine's default),
	// and adds as much to its memory limit. ShareShm lets another container
	// join its IPC namespace, ShmOf joins that of the container named
	// (engine.Spec): an xproc pair (Pool.SamplePair).
	ShmSize  int64
	ShareShm bool
	ShmOf    string
}

// StartServer creates, attaches to and starts a server container.
func StartServer(ctx context.Context, eng Engine, sp ServerSpec) (*Server, error) {
	start := time.Now()
	cmd := []string{image.SamplerPath, "serve"}
	if sp.Trusted != "" {
		cmd = append(cmd, "-trusted", sp.Trusted)
	}
	spec := engine.Spec{
		Image: sp.Image, Cmd: append(cmd, sp.SamplerArgs...), RunID: sp.RunID, CPUs: sp.CPUs,
		Privilege: sp.Privilege, Stdin: true,
		Labels:  map[string]string{"org.halebench.lang": sp.Lang, "org.halebench.role": "sampler"},
		ShmSize: sp.ShmSize, ShareShm: sp.ShareShm, ShmOf: sp.ShmOf,
	}
	for k, v := range sp.Labels {
		spec.Labels[k] = v
	}
	if sp.MemLimit > 0 {
		spec.Memory = sp.MemLimit + sp.ShmSize + 256<<20
	}
	c, err := eng.Create(ctx, spec)
	if err != nil {
		return nil, err
	}
	stdin, stdout, err := c.Attach(ctx)
	if err != nil {
		c.Remove()
		return nil, err
	}
	if err := c.Start(ctx); err != nil {
		stdin.Close()
		c.Remove()
		return nil, err
	}
	s := &Server{c: c, stdin: stdin, cpus: sp.CPUs, results: make(chan string, 1), StartNs: time.Since(start).Nanoseconds()}
	go s.read(stdout)
	return s, nil
}

// ContainerID names the server's container.
func (s *Server) ContainerID() string { return s.c.Identity() }

// Dead says why the server cannot take another job (nil: it can, as far
// as is known: a container that ended is known once its channel closed).
func (s *Server) Dead() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.dead == nil && s.readErr != nil {
		return fmt.Errorf("the sampler's channel closed: %w", s.readErr)
	}
	return s.dead
}

func (s *Server) read(r io.Reader) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		// Every line goes to Run: the sampler writes nothing but result
		// lines and the ready lines a job asks for, so anything else is a
		// protocol error.
		if line := sc.Text(); line != "" {
			s.results <- line
		}
	}
	s.mu.Lock()
	s.readErr = sc.Err()
	if s.readErr == nil {
		s.readErr = io.EOF
	}
	s.mu.Unlock()
	close(s.results)
}

// EncodeJob is the line that asks the sampler for job j under id and
// nonce: the wire format the sampler's `serve` reads (images/sampler), one
// JSON object and a newline. Only an answer carrying the nonce counts.
func EncodeJob(id, nonce string, j Job) []byte {
	return wire.EncodeJob(wire.Job{
		ID: id, Nonce: nonce, Iters: j.Iters, Warmup: j.Warmup, TimeoutNs: j.Timeout.Nanoseconds(),
		Seed: strconv.FormatInt(j.Seed, 10), MemLimit: j.MemLimit, OutCap: j.OutCap,
		BuildFailed: image.FailedPath(j.Unit), Env: j.Env,
		Argv:  append(j.Lang.Argv(image.BinPath(j.Unit), image.SrcPath(j.Unit, j.Lang.Ext)), j.Args...),
		Count: j.Count, Ready: j.OnReady != nil, Room: j.room,
	})
}

// Run samples one job in the server. A job that outlives its deadline, or a
// cancelled ctx, kills the server: the caller starts another for what
// follows. A job with OnReady gets it called when its bench says ready.
func (s *Server) Run(ctx context.Context, j Job) (o Outcome) {
	start := time.Now()
	o.CPUsAsked, o.ContainerID = s.cpus, s.c.Identity()
	defer func() { o.JobNs = time.Since(start).Nanoseconds() }()
	if err := s.Dead(); err != nil {
		return fail(o, outcome.RunFailed, "sampler container is gone: "+err.Error())
	}
	s.seq++
	id := strconv.Itoa(s.seq)
	nonce, err := NewNonce()
	if err != nil {
		return fail(o, outcome.RunFailed, err.Error())
	}
	if _, err := s.stdin.Write(EncodeJob(id, nonce, j)); err != nil {
		s.kill(err)
		return fail(o, outcome.RunFailed, "sending the job to the sampler: "+err.Error())
	}
	deadline := JobDeadline(j)
	timer := time.NewTimer(deadline)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			s.kill(ctx.Err())
			return fail(o, outcome.Interrupted, "the run was interrupted")
		case <-timer.C:
			s.kill(errors.New("job deadline passed"))
			return fail(o, outcome.Timeout, fmt.Sprintf("the sampler outlived its deadline of %s", deadline))
		case l, ok := <-s.results:
			if !ok {
				s.mu.Lock()
				err := s.readErr
				s.mu.Unlock()
				s.kill(err)
				return fail(o, outcome.RunFailed, fmt.Sprintf("the sampler container ended (%v); stderr: %s", err, tailString(s.c.Stderr(), 500)))
			}
			res, final, err := answer(l, id, nonce, &j)
			if err != nil {
				// Only the sampler writes on this channel, and it answers
				// the job in hand: the container is not to be trusted.
				s.kill(err)
				return fail(o, outcome.RunFailed, "protocol error on the sampler's channel: "+err.Error()+"; the container is discarded")
			}
			if !final {
				continue
			}
			if res.Spent {
				s.kill(errors.New("a sample left processes that could not be killed"))
			}
			return fill(o, res)
		}
	}
}

// answer reads one line of the sampler's channel during job id: its result
// (final), or the one ready line the job asked for, on which j.OnReady is
// called and cleared. Anything else is an error.
func answer(line, id, nonce string, j *Job) (res SamplerResult, final bool, err error) {
	if wire.IsReadyLine(line) {
		r, err := wire.ParseReadyLine(line, nonce)
		switch {
		case err != nil:
			return res, false, err
		case r.ID != id:
			return res, false, fmt.Errorf("a ready line for job %q while job %s ran", r.ID, id)
		case j.OnReady == nil:
			return res, false, fmt.Errorf("a ready line job %s did not ask for, or a second one", id)
		}
		ready := j.OnReady
		j.OnReady = nil
		ready()
		return res, false, nil
	}
	res, err = parseLine(line, nonce)
	if err == nil && res.ID != id {
		err = fmt.Errorf("a result for job %q while job %s ran", res.ID, id)
	}
	return res, err == nil, err
}

func (s *Server) kill(why error) {
	s.mu.Lock()
	if s.dead == nil {
		s.dead = why
	}
	s.mu.Unlock()
	s.c.Kill(context.Background())
}

// Close ends the server and removes its container.
func (s *Server) Close() error {
	s.stdin.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := s.c.Wait(ctx); err != nil {
		s.c.Kill(context.Background())
	}
	return s.c.Remove()
}
