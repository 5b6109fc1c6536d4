package runner

// ServerStderr is the tail of what a server's sampler wrote on stderr
// (BenchmarkSampleOverhead's phase lines).
func ServerStderr(s *Server) string { return s.c.Stderr() }

// Answer is answer: one line of the sampler's channel during job id.
func Answer(line, id, nonce string, j *Job) (SamplerResult, bool, error) {
	return answer(line, id, nonce, j)
}
