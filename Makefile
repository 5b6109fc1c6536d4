# halebench — see README.md. Needs a Docker Engine, Go (see go.mod) and, to
# make the Debian base image without a registry, mmdebstrap (installed by
# `make deps` through apt when missing).
GO      ?= go
BIN     := bin/halebench
ARGS    ?=
# the tag `make image` gives halebench's own image (a test on a shared
# engine gives its own, leaving halebench:latest alone)
HALEBENCH_IMAGE ?= halebench:latest

.PHONY: all deps deps-build deps-test build bench images test test-slow image check-hl clean

all: build

# deps: what building needs (mmdebstrap) and what the tests need besides
# (headless chromium, which opens the HTML report in its test; python3-junitparser,
# which reads the JUnit file in its test).
deps: deps-build deps-test

deps-build:
	@command -v mmdebstrap >/dev/null 2>&1 || { \
	  echo "installing mmdebstrap (makes the Debian base image; no registry is needed)" >&2; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mmdebstrap >/dev/null; }

deps-test:
	@command -v chromium >/dev/null 2>&1 || { \
	  echo "installing chromium (the HTML report's test opens the page headless)" >&2; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }
	@/usr/bin/python3 -c 'import junitparser' >/dev/null 2>&1 || { \
	  echo "installing python3-junitparser (a real JUnit consumer reads --junit's file in its test)" >&2; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-junitparser >/dev/null; }

build:
	$(GO) build -o $(BIN) ./cmd/halebench

# The main job: build every image, run every bench in every language, gate, report.
bench: deps-build build
	./$(BIN) run $(ARGS)

images: deps-build build
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
# The host's CA bundle goes along: where the host reaches the module proxy
# through an intercepting proxy, the build container must trust it too.
image: deps-build build
	mkdir -p build/hostca && cp /etc/ssl/certs/ca-certificates.crt build/hostca/host.crt
	./$(BIN) own-image -t $(HALEBENCH_IMAGE)

# Parse + type-check the .hl programs with a hale tree's own crates (offline).
check-hl:
	tools/check-hl.sh

clean:
	rm -rf bin results build
