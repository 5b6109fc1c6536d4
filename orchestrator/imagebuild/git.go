package imagebuild

import (
	"context"
	"os"
	"os/exec"
	"strconv"
	"strings"
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

// gitCommand is git with args in gitEnv.
func gitCommand(ctx context.Context, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Env = gitEnv()
	return cmd
}
