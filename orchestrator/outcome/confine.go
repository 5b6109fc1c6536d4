package outcome

// Unconfined: the sampler could not confine benches in its container (no
// seccomp filter for the architecture, a failed uid switch, a capability
// that could not be dropped), so it ran none of them. The run cannot be
// trusted: it fails.
const Unconfined Status = "unconfined"
