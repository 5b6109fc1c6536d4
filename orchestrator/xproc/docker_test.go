package xproc_test

// The engine tests here dial the real engine through enginetest, which
// opens the driver the registry names; the Docker driver registers itself
// when linked, so the tests link it (the package itself does not).
import _ "github.com/hale-lang/halebench/orchestrator/engine/docker"
