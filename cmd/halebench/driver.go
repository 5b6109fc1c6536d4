// The engine the verbs run on: cmd wires the driver in, and nothing below
// it dials. Docker (package engine/docker) is the one driver; DOCKER_HOST
// names it.

package main

import (
	"context"

	"github.com/hale-lang/halebench/orchestrator/engine"
	"github.com/hale-lang/halebench/orchestrator/engine/docker"
	"github.com/hale-lang/halebench/orchestrator/lifecycle"
)

// dial connects the engine DOCKER_HOST names; Close hangs it up.
func dial(ctx context.Context) (engine.Driver, error) {
	e, err := docker.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return e, nil
}

// session is a lifecycle session on an engine it dialled: Close ends the
// session, then hangs the engine up.
type session struct {
	*lifecycle.Session
	eng engine.Driver
}

// openSession dials the engine and opens a session of o on it.
func openSession(ctx context.Context, o lifecycle.Options) (*session, error) {
	eng, err := dial(ctx)
	if err != nil {
		return nil, err
	}
	o.Engine = eng
	s, err := lifecycle.Open(ctx, o)
	if err != nil {
		eng.Close()
		return nil, err
	}
	return &session{Session: s, eng: eng}, nil
}

func (s *session) Close() {
	s.Session.Close()
	s.eng.Close()
}
