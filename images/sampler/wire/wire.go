package wire

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// ResultPrefix starts each line on which the sampler answers a job.
const ResultPrefix = "halebench-result "

// Sample statuses the sampler gives. They are the report's statuses too
// (orchestrator/judge names each of them).
const (
	StatusOK          = "ok"
	StatusNoElapsed   = "no_elapsed"
	StatusBadOutput   = "bad_output"
	StatusRunFailed   = "run_failed"
	StatusTimeout     = "timeout"
	StatusOOM         = "oom"
	StatusBuildFailed = "build_failed"
	// StatusUnconfined: the sampler could not confine benches (no seccomp
	// filter, no uid switch, no capability drop), so it ran none.
	StatusUnconfined = "unconfined"
)

// Job is one (bench, language) the runner asks `serve` for.
type Job struct {
	ID          string   `json:"id"`
	Nonce       string   `json:"nonce"`
	Iters       int      `json:"iters"`
	Warmup      int      `json:"warmup"`
	TimeoutNs   int64    `json:"timeout_ns"`
	Seed        string   `json:"seed"`
	MemLimit    int64    `json:"mem_limit"`
	OutCap      int      `json:"out_cap"`
	BuildFailed string   `json:"build_failed"`
	Env         []string `json:"env"`
	Argv        []string `json:"argv"`
	// Count, when set, asks for counted runs after the timed samples (or
	// instead of them when Iters is 0).
	Count *CountJob `json:"count,omitempty"`
	// Ready asks for a ready line (EncodeReady) on the channel the first
	// time a sample's bench prints the line "ready" on its stdout: the
	// reader of an xproc pair says so once its ring is open, and only then
	// is its producer started.
	Ready bool `json:"ready,omitempty"`
	// Room says whose the IPC room is (/dev/shm, /dev/mqueue and System V
	// IPC) when two containers share one IPC namespace: "" the job's alone,
	// RoomOwner or RoomGuest.
	Room string `json:"room,omitempty"`
}

// The two sides of a shared IPC room (Job.Room).
const (
	// RoomOwner's sampler empties the shared room before its job's first
	// sample and after every sample, as it does its own.
	RoomOwner = "owner"
	// RoomGuest's sampler never touches the shared room (the owner's
	// bench is using it); it empties only its own container's room.
	RoomGuest = "guest"
)

// Sample is one run of a bench program, as the sampler measured it.
type Sample struct {
	Warmup bool   `json:"warmup,omitempty"`
	Status string `json:"status"`
	Detail string `json:"detail,omitempty"`
	Check  string `json:"check,omitempty"`
	// Figures are what the sampler measured of it, by the names declared
	// in figures.go.
	Figures    Figures `json:"figures,omitempty"`
	ExitCode   int     `json:"exit_code"`
	Signal     string  `json:"signal,omitempty"`
	StderrTail string  `json:"stderr_tail,omitempty"`
}

// Env is what the sampler saw of its container.
type Env struct {
	Affinity      string `json:"affinity"`
	CgroupCpuset  string `json:"cgroup_cpuset,omitempty"`
	CgroupVersion string `json:"cgroup_version"`
	MemPeakSource string `json:"mem_peak_source"`
	MemPeakError  string `json:"mem_peak_error,omitempty"`
	Kernel        string `json:"kernel,omitempty"`
	CPUModel      string `json:"cpu_model,omitempty"`
	// Valgrind is `valgrind --version` in the bench image, when it counted.
	Valgrind string `json:"valgrind,omitempty"`
	// What the container gave the sampler, and what a bench process got.
	ContainerPrivileges *Privileges `json:"container_privileges,omitempty"`
	BenchPrivileges     *Privileges `json:"bench_privileges,omitempty"`
	ConfinementErrors   []string    `json:"confinement_errors,omitempty"`
}

// Privileges is one process's rights as it read them in /proc/self/status
// (the sampler's own, and a probe run exactly as a bench is run).
type Privileges struct {
	UID        string `json:"uid"`
	GID        string `json:"gid"`
	CapEff     string `json:"cap_eff"`
	CapPrm     string `json:"cap_prm"`
	CapBnd     string `json:"cap_bnd"`
	CapAmb     string `json:"cap_amb"`
	NoNewPrivs string `json:"no_new_privs"`
	Seccomp    string `json:"seccomp"` // 0 none, 1 strict, 2 filter
	// "thread force mitigated" would mean a slower bench than without
	// halebench's filter.
	SpecStoreBypass string `json:"spec_store_bypass,omitempty"`
	// For the bench only: whether it could open PID 1's descriptors.
	PID1FDs string `json:"pid1_fds,omitempty"`
	Filter  string `json:"filter,omitempty"`
}

// Result is the sampler's verdict on one job's samples.
type Result struct {
	ID    string `json:"id,omitempty"`
	Nonce string `json:"nonce,omitempty"`
	// Spent: a sample left processes that could not be killed, a cgroup
	// that could not be removed or files that could not be cleaned; the
	// sampler takes no further job.
	Spent      bool     `json:"spent,omitempty"`
	Env        Env      `json:"env"`
	Status     string   `json:"status"`
	Detail     string   `json:"detail,omitempty"`
	Samples    []Sample `json:"samples"`
	Counts     []Count  `json:"counts,omitempty"`
	BuildError string   `json:"build_error,omitempty"`
}

// ReadyPrefix starts the one line the sampler may write on its channel
// before a job's result: the job asked for it (Job.Ready) and its bench
// said "ready".
const ReadyPrefix = "halebench-ready "

// Ready is the ready line's body: the job it is about and the job's nonce.
type Ready struct {
	ID    string `json:"id"`
	Nonce string `json:"nonce"`
}

// EncodeReady is the ready line of job id, newline included.
func EncodeReady(id, nonce string) []byte {
	line, _ := json.Marshal(Ready{ID: id, Nonce: nonce})
	return append(append([]byte(ReadyPrefix), line...), '\n')
}

// IsReadyLine says whether line is meant as a ready line.
func IsReadyLine(line string) bool { return strings.HasPrefix(line, ReadyPrefix) }

// ParseReadyLine reads a ready line: it must carry nonce.
func ParseReadyLine(line, nonce string) (Ready, error) {
	var r Ready
	rest, ok := strings.CutPrefix(line, ReadyPrefix)
	if !ok {
		return r, fmt.Errorf("a line that is not a ready line (%q)", clip(line, 80))
	}
	dec := json.NewDecoder(strings.NewReader(rest))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return r, fmt.Errorf("ready line: %w", err)
	}
	if r.Nonce != nonce {
		return r, errors.New("a ready line without the job's nonce")
	}
	if r.ID == "" {
		return r, errors.New("a ready line without a job id")
	}
	return r, nil
}

// EncodeJob is j as the line the sampler reads: one JSON object and a
// newline.
func EncodeJob(j Job) []byte {
	line, _ := json.Marshal(j)
	return append(line, '\n')
}

// EncodeResult is r as the line the sampler answers with, newline included.
func EncodeResult(r Result) []byte {
	line, _ := json.Marshal(r)
	return append(append([]byte(ResultPrefix), line...), '\n')
}

// ParseResultLine reads one line of the sampler's channel: it must be a
// result carrying nonce, the job's secret that a bench never sees.
func ParseResultLine(line, nonce string) (Result, error) {
	var res Result
	rest, ok := strings.CutPrefix(line, ResultPrefix)
	if !ok {
		return res, fmt.Errorf("a line that is not a result (%q)", clip(line, 80))
	}
	if err := json.Unmarshal([]byte(rest), &res); err != nil {
		return res, fmt.Errorf("result line: %w", err)
	}
	if res.Nonce != nonce {
		return res, errors.New("a result line without the job's nonce")
	}
	if res.Status == "" {
		return res, errors.New("result without a status")
	}
	return res, nil
}

func clip(s string, n int) string {
	s = strings.TrimSpace(s)
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}
