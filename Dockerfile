# halebench's own image: the orchestrator with the suite, run against the
# host's engine through its socket:
#   docker run --rm -v /var/run/docker.sock:/var/run/docker.sock halebench run
# With no registry, BASE is the Debian base halebench makes: `make image` runs
# `halebench own-image`, which builds this through the engine's BuildKit. With
# nothing but Docker and a registry: mkdir -p build/hostca && docker build
# --build-arg BASE=debian:trixie -t halebench . (not reproducible; see README).
ARG BASE=halebench/base:trixie
FROM ${BASE} AS build
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends golang-go ca-certificates git \
 && rm -rf /var/lib/apt/lists/*
# Trust what the host trusts (make image copies its CA bundle here; a plain
# docker build after `mkdir -p build/hostca` gives none).
COPY build/hostca/ /usr/local/share/ca-certificates/
RUN update-ca-certificates >/dev/null 2>&1 || true; for f in /usr/local/share/ca-certificates/*.crt; do [ ! -f "$f" ] || cat "$f" >> /etc/ssl/certs/ca-certificates.crt; done
# go.mod asks for a newer Go than Debian's; the module proxy serves it.
ENV GOTOOLCHAIN=auto CGO_ENABLED=0
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN go build -trimpath -o /out/halebench ./cmd/halebench

FROM ${BASE}
# halebench passes these pinned (name=version) and records them.
ARG PACKAGES="ca-certificates git"
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ${PACKAGES} \
 && rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin /var/cache/ldconfig/aux-cache /var/log/apt /var/log/dpkg.log /var/log/alternatives.log
COPY --from=build /out/halebench /usr/local/bin/halebench
COPY benches /suite/benches
COPY xproc /suite/xproc
COPY baselines.json /suite/baselines.json
WORKDIR /suite
ENTRYPOINT ["halebench"]
CMD ["run"]
