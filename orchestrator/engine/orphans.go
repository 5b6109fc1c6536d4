package engine

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
)

// LabelOwner names the process that made a container: "<hostname>:<pid>",
// for people and for the tests that look for a run's containers.
const LabelOwner = "org.halebench.owner"

// LabelOwnerID is the owner's identity, which cannot collide:
// "<boot id>/<pid namespace>/<pid>/<start time in clock ticks>". The orphan
// sweep judges a container by it alone.
const LabelOwnerID = "org.halebench.owner-id"

var shortID = regexp.MustCompile(`^[0-9a-f]{12}$`)

// Owner is this process's owner label value.
func Owner() string {
	h, _ := os.Hostname()
	return h + ":" + strconv.Itoa(os.Getpid())
}

// Identity names one process on one boot of one kernel.
type Identity struct {
	Boot  string // /proc/sys/kernel/random/boot_id
	PIDNS string // the pid namespace, as /proc/self/ns/pid names it
	PID   int
	Start string // field 22 of /proc/PID/stat
}

func (i Identity) String() string {
	return fmt.Sprintf("%s/%s/%d/%s", i.Boot, i.PIDNS, i.PID, i.Start)
}

// ParseIdentity reads an owner-id label.
func ParseIdentity(s string) (Identity, bool) {
	f := strings.Split(s, "/")
	if len(f) != 4 || f[0] == "" || f[1] == "" || f[3] == "" {
		return Identity{}, false
	}
	pid, err := strconv.Atoi(f[2])
	if err != nil || pid <= 0 {
		return Identity{}, false
	}
	return Identity{Boot: f[0], PIDNS: f[1], PID: pid, Start: f[3]}, true
}

var self struct {
	once sync.Once
	id   Identity
}

// SelfIdentity is this process's identity.
func SelfIdentity() Identity {
	self.once.Do(func() {
		b, _ := os.ReadFile("/proc/sys/kernel/random/boot_id")
		ns, _ := os.Readlink("/proc/self/ns/pid")
		self.id = Identity{Boot: strings.TrimSpace(string(b)), PIDNS: ns, PID: os.Getpid(), Start: startTime(os.Getpid())}
	})
	return self.id
}

// startTime is when a process started, in clock ticks after boot ("" when
// there is no such process in this pid namespace).
func startTime(pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return ""
	}
	// The command name, in parentheses, may hold spaces: count fields
	// after its closing one. starttime is field 22, the 20th after it.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return ""
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 20 {
		return ""
	}
	return f[19]
}

// liveStart is startTime, and whether the process is there at all. Where
// /proc/PID/stat cannot be read (/proc mounted with hidepid=2, another
// user's process), signal 0 asks the kernel instead: EPERM means there is
// such a process, only not one this user may signal, so it is alive with
// an unknown start.
func liveStart(pid int) (start string, alive bool) {
	return liveStartWith(pid, startTime)
}

func liveStartWith(pid int, stat func(int) string) (string, bool) {
	if s := stat(pid); s != "" {
		return s, true
	}
	err := syscall.Kill(pid, 0)
	return "", err == nil || errors.Is(err, syscall.EPERM)
}

// Sweep is what an orphan sweep did.
type Sweep struct {
	Removed int
	// Left are halebench containers whose owner cannot be proven gone
	// (no owner identity, another machine or boot, another pid namespace):
	// "<short id>: <why>". They are left alone.
	Left []string
}

// OwnerGone says whether the process that made a container with these
// labels is provably gone, judged from this process; running holds the
// short IDs of the engine's running containers (a run inside a container
// is gone when its container is). When it is not gone, why names what
// stops the judgement ("" for a live owner). Every driver's RemoveOrphans
// judges by it.
func OwnerGone(labels map[string]string, running map[string]bool) (gone bool, why string) {
	return judgeOwner(labels, SelfIdentity(), running, liveStart)
}

// judgeOwner says whether the run that made a container is provably gone;
// when it is not, why names what stops the judgement ("" for a live owner).
// A run in this pid namespace is gone when its pid is, or is now another
// process (another start time); a run inside a container (halebench's own
// image: its hostname is the container's short id) is gone when that
// container no longer runs. Anything else is not judged, nor is a pid that
// is alive but whose start time cannot be read.
func judgeOwner(labels map[string]string, me Identity, running map[string]bool, start func(int) (string, bool)) (gone bool, why string) {
	host, _, _ := strings.Cut(labels[LabelOwner], ":")
	inContainer := shortID.MatchString(host)
	id, ok := ParseIdentity(labels[LabelOwnerID])
	switch {
	case !ok && inContainer && !running[host]:
		return true, ""
	case !ok:
		return false, fmt.Sprintf("no owner identity (owner label %q)", labels[LabelOwner])
	case id.Boot != me.Boot:
		return false, "made on another machine or before a reboot (boot " + id.Boot + ")"
	case id.PIDNS != me.PIDNS:
		if inContainer && !running[host] {
			return true, ""
		}
		if inContainer {
			return false, ""
		}
		return false, "made from another pid namespace (" + id.PIDNS + ")"
	}
	if id.PID == me.PID && id.Start == me.Start {
		return false, ""
	}
	st, alive := start(id.PID)
	switch {
	case !alive:
		return true, ""
	case st == "":
		return false, fmt.Sprintf("owner pid %d is alive but its start time cannot be read (/proc mounted with hidepid?): not judged", id.PID)
	}
	return st != id.Start, ""
}
