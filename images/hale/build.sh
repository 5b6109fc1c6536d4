#!/bin/sh
# Builds hale-cli in /src (halebench's hale toolchain image, builder stage).
#
# The way: HALE_BUILD_WAY=crates-io|debian, or chosen here: crates-io when its
# index answers, else debian. crates-io is hale's own Dockerfile's build (hale's
# Cargo.lock, crates fetched). debian is the build where no crate registry
# answers: Debian's librust-*-dev packages are the registry (source
# replacement, offline), crates Debian lacks come from /halebench/vendor through
# the [patch] entries halebench wrote to /halebench/patch.toml, and Cargo.lock
# is re-resolved against those versions (hale's pins are crates.io's).
set -eu
out=/halebench/out
mkdir -p "$out" /halebench/bin
export CARGO_HOME=/halebench/cargo-home
mkdir -p "$CARGO_HOME"

way=${HALE_BUILD_WAY:-}
if [ -z "$way" ]; then
    if curl -fsS --max-time 20 -o /dev/null https://index.crates.io/config.json 2>/dev/null; then
        way=crates-io
    else
        way=debian
        echo "halebench: index.crates.io does not answer: building offline from Debian's packaged crates" >&2
    fi
fi

# cargo_seconds: the cargo build alone, the figure a warm target dir (the
# cache mount) shrinks.
cargo_build() {
    t0=$(date +%s)
    cargo build --release --workspace "$@"
    cargo_seconds=$(( $(date +%s) - t0 ))
}

case $way in
crates-io)
    cargo_build
    ;;
debian)
    # Every registry crate of hale's Cargo.lock as "name major": Debian names
    # its package librust-NAME-dev (the newest) or librust-NAME-MAJOR-dev
    # (MAJOR "1", or "0.8" for 0.x), with _ as -.
    vendored=$(awk '/ = \{ .*path = / {
        n = $1
        if (match($0, /package = "[^"]*"/)) n = substr($0, RSTART + 11, RLENGTH - 12)
        print n
    }' /halebench/patch.toml | sort -u)
    awk '
        /^\[\[package\]\]/ { if (name != "" && src) print name, ver; name = ""; ver = ""; src = 0; next }
        /^name = /    { gsub(/"/, "", $3); name = $3 }
        /^version = / { gsub(/"/, "", $3); ver = $3 }
        /^source = /  { src = 1 }
        END { if (name != "" && src) print name, ver }
    ' Cargo.lock > /tmp/lock-crates
    apt-get update -qq
    pkgs=""
    missing=""
    while read -r name ver; do
        if printf '%s\n' "$vendored" | grep -qx "$name"; then continue; fi
        deb=$(printf '%s' "$name" | tr '_A-Z' '-a-z')
        major=${ver%%.*}
        if [ "$major" = 0 ]; then
            rest=${ver#0.}
            major=0.${rest%%.*}
        fi
        found=""
        for p in "librust-$deb-dev" "librust-$deb-$major-dev"; do
            if apt-cache show "$p" >/dev/null 2>&1; then
                pkgs="$pkgs $p"
                found=1
            fi
        done
        [ -n "$found" ] || missing="$missing $name"
    done < /tmp/lock-crates
    if [ -n "$missing" ]; then
        echo "halebench: no Debian package for:$missing (fine if Debian's versions of their dependents do not need them; else give them with --hale-vendor)" >&2
    fi
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $pkgs >/dev/null
    rm -rf /var/lib/apt/lists/*
    {
        printf '[source.crates-io]\nreplace-with = "debian"\n\n[source.debian]\ndirectory = "/usr/share/cargo/registry"\n\n[net]\noffline = true\n\n'
        cat /halebench/patch.toml
    } > "$CARGO_HOME/config.toml"
    cp Cargo.lock "$out/Cargo.lock.upstream"
    rm -f Cargo.lock
    cargo generate-lockfile --offline
    cargo_build --offline
    ;;
*)
    echo "halebench: unknown HALE_BUILD_WAY=$way (crates-io or debian)" >&2
    exit 2
    ;;
esac

cp target/release/hale target/release/libhale_ts_shim.a /halebench/bin/
cp Cargo.lock "$out/Cargo.lock"
{
    echo "way=$way"
    echo "cargo_lock_sha256=$(sha256sum Cargo.lock | cut -d' ' -f1)"
    echo "rustc=$(rustc --version)"
    echo "cargo=$(cargo --version)"
    echo "cargo_seconds=$cargo_seconds"
} > "$out/hale-build.txt"
cat "$out/hale-build.txt"
