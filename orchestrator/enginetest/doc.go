// Package enginetest connects tests to the real engine. A test that needs the
// engine skips with the reason when none answers — except under CI=true,
// where a missing engine is a failure, never a skip.
package enginetest
