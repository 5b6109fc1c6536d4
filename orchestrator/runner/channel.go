package runner

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

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
	Seccomp    string `json:"seccomp"`
	// "thread force mitigated" would mean a slower bench than without
	// halebench's filter.
	SpecStoreBypass string `json:"spec_store_bypass,omitempty"`
	PID1FDs         string `json:"pid1_fds,omitempty"`
	Filter          string `json:"filter,omitempty"`
}

// NewNonce is a job's secret: the sampler puts it in the job's result line,
// and a bench, which never sees it, cannot forge that line.
func NewNonce() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("making a job nonce: %w", err)
	}
	return hex.EncodeToString(b[:]), nil
}

// JobDeadline is how long the runner gives a job before it gives up on the
// container: per sample the timeout and the sampler's clean-up (at most
// about 6 s), and a little for the sampler's start.
func JobDeadline(j Job) time.Duration {
	return time.Duration(j.Iters+j.Warmup)*(j.Timeout+10*time.Second) + 30*time.Second
}

// parseLine reads one line of the sampler's channel: it must be a result
// carrying the job's nonce.
func parseLine(line, nonce string) (SamplerResult, error) {
	var res SamplerResult
	rest, ok := strings.CutPrefix(line, ResultPrefix)
	if !ok {
		return res, fmt.Errorf("a line that is not a result (%q)", tailString(line, 80))
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

// ParseResult finds, in a container's stdout, the result line that carries
// nonce; result lines without it are ignored: a bench could have written them.
func ParseResult(stdout, nonce string) (SamplerResult, error) {
	for _, line := range strings.Split(stdout, "\n") {
		if !strings.HasPrefix(line, ResultPrefix) {
			continue
		}
		if res, err := parseLine(line, nonce); err == nil {
			return res, nil
		}
	}
	return SamplerResult{}, errors.New("no result line carrying the run's nonce")
}
