// Package gitrepo runs the host's git for halebench, hardened: a clean
// environment (no caller's GIT_* variable, no user or system config), only
// the file, https and ssh transports, no hooks, no prompt. It resolves refs
// of a repository; what is cloned (a subject build's tree) and what is
// walked (bisect's first-parent history) live with their users.
package gitrepo
