package outcome

// Unwitnessed: the subject's time or region count disagrees with its
// witness, measured outside the program (the sampler's wall time of the
// process, the whole process's instructions, instructions per ns): the
// bench's own elapsed_ns, or its region count, is not taken and does not
// gate. It needs attention on a workstation (a warning,
// exit 1 under --strict); in CI (CI=true) a run with an unwitnessed
// subject fails as one that could not measure it does (exit 3).
const Unwitnessed Status = "unwitnessed"
