#!/bin/sh
# Load benchmark of the REST API (issue 12), part of `make bench`: a real
# `mcpvet serve` on a random loopback port takes BENCH_SERVE_REQUESTS
# (default 10000) POST /api/v1/scan requests of a 20-tool body from
# BENCH_SERVE_CONNECTIONS (default 16) concurrent keep-alive connections
# (bench/serve_load.py). Reports requests/s, p50/p99 latency, errors (must
# be 0) and the server's RSS before and after. Writes bench/out/serve.txt.
#
# Usage: bench/serve.sh BUILD_DIR
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
N=${BENCH_SERVE_REQUESTS:-10000}
C=${BENCH_SERVE_CONNECTIONS:-16}
OUT=$ROOT/bench/out
mkdir -p "$OUT"
LOG=$OUT/serve.txt
DIR=$(mktemp -d)
PID=""
cleanup() {
    if [ -n "$PID" ]; then kill "$PID" 2>/dev/null || true; wait "$PID" 2>/dev/null || true; fi
    rm -rf "$DIR"
}
trap cleanup EXIT

printf 'bench-key-%s-0123456789abcdef\n' "$$" >"$DIR/key"
chmod 600 "$DIR/key"
HOME=$DIR "$BUILD/mcpvet" serve --quiet --store "$DIR/store.db" --api-key-file "$DIR/key" \
    --max-scans 16 >"$DIR/out" 2>"$DIR/err" &
PID=$!
BASE=""
for _ in $(seq 1 200); do
    BASE=$(grep -o 'http://127\.0\.0\.1:[0-9]*' "$DIR/out" 2>/dev/null | head -1 || true)
    [ -n "$BASE" ] && break
    sleep 0.05
done
[ -n "$BASE" ] || { echo "bench/serve.sh: the server did not start" >&2; cat "$DIR/err" >&2; exit 1; }
rss() { awk '/^VmRSS/ {print $2 " kB"}' "/proc/$PID/status"; }
KEY=$(tr -d '\n' <"$DIR/key")
# A short warm-up so "before" is the steady-state footprint, not start-up.
python3 "$ROOT/bench/serve_load.py" "$BASE" "$KEY" 200 "$C" >/dev/null
BEFORE=$(rss)
{
    echo "== mcpvet serve: POST /api/v1/scan load ($(nproc) cores) =="
    python3 "$ROOT/bench/serve_load.py" "$BASE" "$KEY" "$N" "$C"
    echo "server RSS before $BEFORE, after $(rss)"
} | tee "$LOG"
kill -TERM "$PID"
wait "$PID"
PID=""
