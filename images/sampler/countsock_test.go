//go:build linux

package main

import (
	"net"
	"testing"
	"time"
)

// The log socket reads the first connection and counts every one, those
// still queued when the run ended too.
func TestCountLogCountsEveryConnection(t *testing.T) {
	l, err := openCountLog()
	if err != nil {
		t.Fatal(err)
	}
	first, err := net.Dial("tcp4", l.addr())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := first.Write([]byte("==1== Events    : Ir\n")); err != nil {
		t.Fatal(err)
	}
	first.Close()
	var late []net.Conn
	for i := 0; i < 2; i++ {
		c, err := net.Dial("tcp4", l.addr())
		if err != nil {
			t.Fatal(err)
		}
		c.Write([]byte("==1== Collected : 5\n"))
		late = append(late, c)
	}
	log, conns, ended := l.finish(5 * time.Second)
	for _, c := range late {
		c.Close()
	}
	if conns != 3 || !ended || log != "==1== Events    : Ir\n" {
		t.Fatalf("log %q, %d connections, ended %v; want the first's text alone and 3", log, conns, ended)
	}
	if _, err := net.Dial("tcp4", l.addr()); err == nil {
		t.Fatal("the log socket still listens after the run")
	}
}
