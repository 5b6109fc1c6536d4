//go:build halebench_fake

// This file exists so that a `go build -tags halebench_fake` binary offers
// --driver=fake (the in-memory engine) for end-to-end tests of the verbs;
// the product binary, built without the tag, never links the fake.
package main

import _ "github.com/hale-lang/halebench/orchestrator/enginetest" // registers "fake"
