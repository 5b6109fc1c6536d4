package runner

// ServerStderr is the tail of what a server's sampler wrote on stderr
// (BenchmarkSampleOverhead's phase lines).
func ServerStderr(s *Server) string { return s.c.Stderr() }
