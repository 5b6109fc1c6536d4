package runner

import (
	"context"
	"fmt"
	"io"

	"github.com/hale-lang/halebench/images/sampler/wire"
	"github.com/hale-lang/halebench/orchestrator/outcome"
)

// PairWhere is where an xproc pair runs: the reader's server, whose IPC
// namespace (and so its /dev/shm of ShmSize bytes) other containers may
// join, and the producer's, which joins it; each pinned to its own
// cpuset. The two are one placement: started together, and both replaced
// when either is gone.
type PairWhere struct {
	Reader, Producer Where
	ShmSize          int64
}

type pairServers struct{ reader, producer *Server }

// SamplePair runs an xproc pair: the reader's job, and once its bench says
// ready, the producer's in the container that shares the reader's IPC
// namespace. It returns when both have answered (producer nil: it was
// never sent, the reader never said ready), so the next pair of jobs finds
// no process of this one. The shared room (/dev/shm, /dev/mqueue, System V
// IPC) is the reader's sampler's to empty, before its job and after each
// sample (wire.RoomOwner); the producer's sampler leaves it alone
// (wire.RoomGuest). Whatever the producer leaves there after the reader's
// last clean is emptied by the next reader job, which is only sent once
// the producer answered. Each job's OnReady is SamplePair's own.
func (p *Pool) SamplePair(ctx context.Context, w PairWhere, reader, producer Job) (Outcome, *Outcome) {
	ps, err := p.getPair(ctx, w)
	if err != nil {
		return fail(Outcome{CPUsAsked: w.Reader.CPUs}, outcome.RunFailed, err.Error()), nil
	}
	reader.room, producer.room = wire.RoomOwner, wire.RoomGuest
	producer.OnReady = nil
	answered := make(chan Outcome, 1)
	sent := false
	reader.OnReady = func() {
		sent = true
		go func() { answered <- ps.producer.Run(ctx, producer) }()
	}
	ro := ps.reader.Run(ctx, reader)
	if !sent {
		return ro, nil
	}
	po := <-answered
	return ro, &po
}

// getPair returns the pair's servers, starting both (again) if either is
// missing or gone.
func (p *Pool) getPair(ctx context.Context, w PairWhere) (*pairServers, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if ps := p.pairs[w]; ps != nil {
		if ps.reader.Dead() == nil && ps.producer.Dead() == nil {
			return ps, nil
		}
		ps.close(p.log)
		delete(p.pairs, w)
	}
	r, err := p.start(ctx, w.Reader, ServerSpec{MemLimit: p.mem, ShmSize: w.ShmSize, ShareShm: true,
		Labels: map[string]string{"org.halebench.xproc": "reader"}}, "reader")
	if err != nil {
		return nil, err
	}
	// The segment's pages are charged to whichever side touches them first.
	mem := p.mem
	if mem > 0 {
		mem += w.ShmSize
	}
	prod, err := p.start(ctx, w.Producer, ServerSpec{MemLimit: mem, ShmOf: r.ContainerID(),
		Labels: map[string]string{"org.halebench.xproc": "producer"}}, "producer")
	if err != nil {
		r.Close()
		return nil, err
	}
	ps := &pairServers{reader: r, producer: prod}
	p.pairs[w] = ps
	return ps, nil
}

// close ends the producer first: it lives in the reader's IPC namespace.
func (ps *pairServers) close(log io.Writer) {
	for _, s := range []*Server{ps.producer, ps.reader} {
		if err := s.Close(); err != nil {
			fmt.Fprintf(log, "warning: %v\n", err)
		}
	}
}
