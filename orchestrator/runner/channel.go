package runner

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/hale-lang/halebench/images/sampler/wire"
)

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
	d := time.Duration(j.Iters+j.Warmup)*(j.Timeout+10*time.Second) + 30*time.Second
	if c := j.Count; c != nil {
		// Each counted run, and a region job's possible re-run over the
		// whole process.
		d += time.Duration(c.Runs+1) * (time.Duration(c.TimeoutNs) + 10*time.Second)
	}
	return d
}

// parseLine reads one line of the sampler's channel: it must be a result
// carrying the job's nonce.
func parseLine(line, nonce string) (SamplerResult, error) {
	return wire.ParseResultLine(line, nonce)
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
