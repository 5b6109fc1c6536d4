//go:build linux

package main

import (
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"sync"
	"syscall"
	"time"
)

// countLog is a counted run's Valgrind log: a loopback listener of the
// sampler's (--log-socket), never a descriptor the program inherits.
//
// Why a socket and why every connection is counted: Valgrind shares its
// process, its uid and its address space with the program it counts, so
// nothing Valgrind holds is out of the program's reach. Its reserved
// descriptors refuse write and close, but send and dup are let through
// (tried with 3.19: dup of the log socket, then write, lands in the log),
// and the files it can open the program can open. So the log cannot be
// made unwritable; what the sampler can make sure of is that the summary
// it reads is the last thing the one Valgrind it started wrote:
//
//   - Valgrind connects before any of the program's code runs, so the
//     first connection is Valgrind's own; nothing is inherited, so a
//     program that closes and reopens its descriptors finds no log.
//   - A program that execs starts a new Valgrind (--trace-children=yes),
//     which connects again; a program that connects itself is a second
//     connection too. More than one connection fails the count: a forged
//     summary followed by an exec (the way round the two-summaries rule)
//     is never read.
//   - Exactly one summary of the started pid (parseCountLog): a forged
//     one beside Valgrind's own fails the count.
//
// What is left is a program that attacks Valgrind itself from inside its
// own process (shuts its log socket after writing a summary of its own,
// or rewrites Valgrind's counters in memory): a bench's count, like its
// own elapsed_ns, is only as honest as its source, which is reviewed.
type countLog struct {
	ln    *net.TCPListener
	log   *tailBuffer
	mu    sync.Mutex
	conns int
	wg    sync.WaitGroup
	done  chan struct{}
}

// openCountLog listens on an ephemeral loopback port (the container has
// no other network) and takes connections until finish.
func openCountLog() (*countLog, error) {
	ln, err := net.ListenTCP("tcp4", &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		return nil, fmt.Errorf("valgrind's log socket: %w", err)
	}
	l := &countLog{ln: ln, log: &tailBuffer{max: 256 << 10}, done: make(chan struct{})}
	go l.serve()
	return l, nil
}

// addr is Valgrind's --log-socket.
func (l *countLog) addr() string { return l.ln.Addr().String() }

func (l *countLog) serve() {
	defer close(l.done)
	for {
		c, err := l.ln.Accept()
		if err != nil {
			return
		}
		l.take(c)
	}
}

// take counts a connection and reads it when it is the first.
func (l *countLog) take(c net.Conn) {
	l.mu.Lock()
	l.conns++
	first := l.conns == 1
	l.mu.Unlock()
	if !first {
		c.Close()
		return
	}
	l.wg.Add(1)
	go func() {
		defer l.wg.Done()
		defer c.Close()
		_, _ = io.Copy(l.log, c)
	}()
}

// finish is called once the counted run has been reaped: every connection
// the run made is by then accepted or queued. It takes the queued ones,
// closes the listener and waits up to wait for the log to end. It returns
// the log, how many connections were made, and whether the log ended (a
// log still open is held by a process that outlived the run).
func (l *countLog) finish(wait time.Duration) (string, int, bool) {
	l.drain()
	l.ln.Close()
	<-l.done
	ended := make(chan struct{})
	go func() {
		l.wg.Wait()
		close(ended)
	}()
	ok := true
	select {
	case <-ended:
	case <-time.After(wait):
		ok = false
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.log.String(), l.conns, ok
}

// drain accepts, without blocking, every connection still queued on the
// listener (Accept with a past deadline would not try the queue).
func (l *countLog) drain() {
	raw, err := l.ln.SyscallConn()
	if err != nil {
		return
	}
	for {
		var nfd int
		var aerr error
		if err := raw.Control(func(fd uintptr) {
			nfd, _, aerr = syscall.Accept4(int(fd), syscall.SOCK_CLOEXEC)
		}); err != nil || aerr != nil {
			if aerr != nil && !errors.Is(aerr, syscall.EAGAIN) && !errors.Is(aerr, syscall.EINTR) {
				l.mu.Lock()
				l.conns++ // a connection we could not take still counts
				l.mu.Unlock()
			}
			return
		}
		f := os.NewFile(uintptr(nfd), "valgrind-log")
		c, err := net.FileConn(f)
		f.Close()
		if err != nil {
			l.mu.Lock()
			l.conns++
			l.mu.Unlock()
			continue
		}
		l.take(c)
	}
}
