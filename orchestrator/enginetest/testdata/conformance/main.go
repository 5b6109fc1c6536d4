// The conformance suite's program (enginetest.Conformance): built static
// at test time and imported as the only file of a test image, so the
// suite needs no base image. Each verb shows one thing a driver must do.
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

const shmFile = "/dev/shm/halebench-conformance"

func main() {
	args := os.Args
	if filepath.Base(args[0]) == "true" {
		return // the privilege probe runs `true`
	}
	if len(args) < 2 {
		fail("usage: conformance VERB [ARG…]")
	}
	switch args[1] {
	case "cat": // stdin to stdout
		io.Copy(os.Stdout, os.Stdin)
	case "args": // the arguments, one line
		fmt.Println(strings.Join(args[2:], " "))
	case "exit": // exit CODE MESSAGE: MESSAGE on stderr, then exit CODE
		code, _ := strconv.Atoi(args[2])
		fmt.Fprintln(os.Stderr, strings.Join(args[3:], " "))
		os.Exit(code)
	case "cpus": // the cpuset this process may run on
		fmt.Println(statusField("Cpus_allowed_list"))
	case "memlimit": // the memory limit of this container's cgroup
		fmt.Println(memLimit())
	case "serve": // serve TEXT: TEXT into /dev/shm, "ready", then hold it until stdin ends (the fake runs its sampler for a command with "serve")
		if err := os.WriteFile(shmFile, []byte(args[2]), 0o644); err != nil {
			fail(err.Error())
		}
		fmt.Println("ready")
		io.Copy(io.Discard, os.Stdin)
	case "shm-read": // what serve wrote
		b, err := os.ReadFile(shmFile)
		if err != nil {
			fail(err.Error())
		}
		fmt.Println(string(b))
	default:
		fail("no verb " + args[1])
	}
}

func statusField(name string) string {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		fail(err.Error())
	}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), name+":"); ok {
			return strings.TrimSpace(v)
		}
	}
	fail("no " + name + " in /proc/self/status")
	return ""
}

// memLimit reads cgroup v2's memory.max, else v1's limit_in_bytes.
func memLimit() string {
	for _, p := range []string{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"} {
		if b, err := os.ReadFile(p); err == nil {
			return strings.TrimSpace(string(b))
		}
	}
	fail("no memory limit file under /sys/fs/cgroup")
	return ""
}

func fail(msg string) {
	fmt.Fprintln(os.Stderr, "conformance:", msg)
	os.Exit(2)
}
