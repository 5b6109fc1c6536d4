package outcome

// Unwitnessed: the subject's time disagrees with its witness, measured
// outside the program (the sampler's wall time of the process, a count's
// instructions per ns): the bench's own elapsed_ns is not taken, so its
// time does not gate. It needs attention on a workstation (a warning,
// exit 1 under --strict); in CI (CI=true) a run with an unwitnessed
// subject fails as one that could not measure it does (exit 3).
const Unwitnessed Status = "unwitnessed"
