module github.com/hale-lang/halebench/xproc

// A module of its own so that `go build ./...` of the orchestrator skips the
// xproc programs: each .go file here is a standalone program built alone.

go 1.24
