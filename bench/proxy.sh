#!/bin/sh
# `make bench`, the proxy part (issue 13): pass-through overhead of
# `mcpvet proxy` on tools/call round trips and the cost of a 100-tool
# tools/list scanned and checked against the store. Reports only; never
# fails a build. Method and numbers: docs/performance.md ("Proxy").
#
# Usage: bench/proxy.sh BUILD_DIR
# Environment: BENCH_PROXY_CALLS (default 10000), BENCH_PROXY_SIZES
#   (message sizes in bytes, default "100 4096 65000").
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
[ -x "$BUILD/mcpvet" ] || { echo "bench: $BUILD/mcpvet is missing" >&2; exit 2; }
mkdir -p "$ROOT/bench/out"
python3 "$ROOT/bench/proxy_bench.py" "$BUILD/mcpvet" | tee "$ROOT/bench/out/proxy.txt"
