# halebench — see README.md. Needs a Docker Engine (access to its socket: the
# docker group is enough) and Go (see go.mod): every target builds bin/halebench
# first, `make image` too (halebench builds its own image; with nothing but
# Docker, see the README). Nothing here needs root: the Debian base image is
# bootstrapped inside the engine.
GO      ?= go
BIN     := bin/halebench
ARGS    ?=
# the tag `make image` gives halebench's own image (a test on a shared
# engine gives its own, leaving halebench:latest alone)
HALEBENCH_IMAGE ?= halebench:latest
IMAGE_ARGS ?=

.PHONY: all deps deps-test build bench images test test-slow image check-hl clean

all: build

# deps: host tools that only tests want: headless chromium (opens the HTML
# report in TestPageInChromium) and python3-junitparser (reads the JUnit file
# in TestJUnitReadByJunitparser). Installed through apt only when run as root
# (as .ci/run is, where CI=true makes a missing one a failure); and Debian's
# qemu-user-static (TestSlowArm64Emulated runs arm64 images under it); as any other
# user, a missing one is named with the test that will skip, and nothing else
# needs it. Building and benching need no host tool beyond Go.
deps: deps-test

deps-test:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing chromium (the HTML report's test opens the page headless)" >&2; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	  else echo "note: no chromium and not root: TestPageInChromium (orchestrator/render) will skip; install Debian's chromium to run it" >&2; fi; }
	@/usr/bin/python3 -c 'import junitparser' >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing python3-junitparser (a real JUnit consumer reads --junit's file in its test)" >&2; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-junitparser >/dev/null; \
	  else echo "note: no python3-junitparser and not root: TestJUnitReadByJunitparser (orchestrator/render) will skip; install Debian's python3-junitparser to run it" >&2; fi; }
	@command -v qemu-aarch64-static >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing qemu-user-static (TestSlowArm64Emulated runs arm64 images under its user-mode emulator)" >&2; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq qemu-user-static >/dev/null; \
	  else echo "note: no qemu-user-static and not root: TestSlowArm64Emulated (cmd/halebench) will skip; it also registers the emulator in binfmt_misc, which needs root" >&2; fi; }

# The commit and dirty flag every document names (halebench version): set
# at link time, since go build stamps none in a linked git worktree or with
# -buildvcs=false. Outside git both are empty and the binary says so.
STAMP_PKG  := github.com/hale-lang/halebench/orchestrator/stamp
COMMIT     := $(shell git rev-parse HEAD 2>/dev/null)
DIRTY      := $(shell git status --porcelain 2>/dev/null | grep -q . && echo true || echo false)
LDFLAGS    := -X $(STAMP_PKG).Commit=$(COMMIT) -X $(STAMP_PKG).Dirty=$(DIRTY)

build:
	$(GO) build -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/halebench

# The main job: build every image, run every bench in every language, gate, report.
bench: build
	./$(BIN) run $(ARGS)

images: build
	./$(BIN) images $(ARGS)

# The tests: unit tests and integration tests against the real engine. The
# slow ones (a no-cache rebuild of every image, hale-cli built from a tag,
# the whole catalogue once, the README's CI recipe cold then warm)
# skip here, saying so, and run under test-slow; .ci/run runs both.
test: deps
	$(GO) vet ./...
	$(GO) test -p 1 -count=1 -timeout 30m ./...

# The slow tests only: every test named TestSlow* (enginetest.Slow fails a
# slow test named otherwise), with HALEBENCH_SLOW=1 so they do not skip.
test-slow: deps
	HALEBENCH_SLOW=1 $(GO) test -p 1 -count=1 -timeout 50m -run '^TestSlow' ./...

# halebench's own image, built by halebench through the engine's BuildKit
# FROM the locally made base, reproducibly (see `halebench help own-image`).
# IMAGE_ARGS passes own-image flags: a CI job gives its restored cache folder
# (IMAGE_ARGS=--cache-dir=.halebench-cache), so the base is not built cold.
# The host's CA bundle goes along: where the host reaches the module proxy
# through an intercepting proxy, the build container must trust it too.
image: build
	mkdir -p build/hostca && cp /etc/ssl/certs/ca-certificates.crt build/hostca/host.crt
	./$(BIN) own-image -t $(HALEBENCH_IMAGE) $(IMAGE_ARGS)

# Parse + type-check the .hl programs with a hale tree's own crates (offline).
check-hl:
	tools/check-hl.sh

clean:
	rm -rf bin results build
