package gitrepo

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/hale-lang/halebench/orchestrator/termtext"
)

// gitConfig is set on every git halebench runs, above any repository's
// own config: only the file, https and ssh transports (no ext::, which runs
// a command, nor git:// or plain http), no hooks, no fsmonitor command.
var gitConfig = [][2]string{
	{"protocol.allow", "never"},
	{"protocol.file.allow", "always"},
	{"protocol.https.allow", "always"},
	{"protocol.ssh.allow", "always"},
	{"core.hooksPath", "/dev/null"},
	{"core.fsmonitor", "false"},
}

// gitEnv is the environment of every git halebench runs: the caller's
// without any GIT_* variable (a hook's GIT_DIR or GIT_WORK_TREE would point
// git at another repository; GIT_CONFIG_* and GIT_SSH_COMMAND would bring
// their own config and commands), no system or user config (a user's
// url.*.insteadOf or protocol policy does not apply), no terminal prompt,
// and gitConfig.
func gitEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GIT_") {
			env = append(env, kv)
		}
	}
	env = append(env, "GIT_TERMINAL_PROMPT=0", "GIT_ASKPASS=true", "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null")
	env = append(env, "GIT_CONFIG_COUNT="+strconv.Itoa(len(gitConfig)))
	for i, kv := range gitConfig {
		env = append(env, "GIT_CONFIG_KEY_"+strconv.Itoa(i)+"="+kv[0], "GIT_CONFIG_VALUE_"+strconv.Itoa(i)+"="+kv[1])
	}
	return env
}

// Command is git with args in gitEnv.
func Command(ctx context.Context, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Env = gitEnv()
	return cmd
}

// DefaultCloneTimeout bounds a clone or fetch from a remote repository, so
// a network that does not answer is said in seconds, not after TCP's own
// timeouts.
const DefaultCloneTimeout = 30 * time.Second

// DefaultProbeTimeout bounds the first look at a remote (git ls-remote)
// before halebench commits to a clone: where the network is closed the
// pinned release is given up on in this long.
const DefaultProbeTimeout = 10 * time.Second

// ErrUnknownRef marks a ref the repository does not have.
var ErrUnknownRef = errors.New("unknown ref")

// FullID is a full commit id.
var FullID = regexp.MustCompile(`^[0-9a-f]{40}$`)

// IsRemote says whether repo is a URL (or scp-like address) rather than a
// folder on this host.
func IsRemote(repo string) bool {
	if st, err := os.Stat(repo); err == nil && st.IsDir() {
		return false
	}
	return strings.Contains(repo, "://") || strings.Contains(repo, "@")
}

// Run runs git in gitEnv (a clean environment, no terminal prompt: a
// remote asking for a password fails instead of waiting) and returns its
// trimmed stdout.
func Run(ctx context.Context, args ...string) (string, error) {
	if _, err := exec.LookPath("git"); err != nil {
		return "", fmt.Errorf("--hale-git needs git on this host (apt-get install git), or give a checkout with --hale-src=DIR")
	}
	cmd := Command(ctx, args...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if ctx.Err() == context.DeadlineExceeded {
			msg = "no answer in time (" + msg + ")"
		}
		return "", fmt.Errorf("git %s: %v: %s", args[0], err, termtext.Clean(msg))
	}
	return strings.TrimSpace(string(out)), nil
}

// ResolveRef names the commit a ref (tag, branch, full or abbreviated
// commit id) of a local repository points at. An unknown ref wraps
// ErrUnknownRef.
func ResolveRef(ctx context.Context, repo, ref string) (string, error) {
	if strings.HasPrefix(ref, "-") || ref == "" {
		return "", fmt.Errorf("ref %q: %w (give a tag, a branch or a commit id)", ref, ErrUnknownRef)
	}
	id, err := Run(ctx, "-C", repo, "rev-parse", "--verify", "--quiet", ref+"^{commit}")
	if err != nil || !FullID.MatchString(id) {
		return "", fmt.Errorf("%s has no commit named %q: %w (give a tag, a branch or a commit id of that repository)", repo, ref, ErrUnknownRef)
	}
	return id, nil
}
