#!/bin/sh
# The review queue at scale (issue 16), a benchmark, not a test: builds a
# store of BENCH_REVIEW_SERVERS (1,000) servers x BENCH_REVIEW_TOOLS (50)
# tools with bench/gen_review_store.c, serves it with a real `mcpvet serve`
# on a random loopback port, then measures
#   - REST filter latency p50/p99 per query (bench/review_load.py),
#   - in headless Chromium (bench/review_page.mjs, playwright-core from
#     tests/node): time to the first paint of the queue, the page's filter
#     response p50/p99, its JS heap and DOM size,
#   - the server's peak RSS.
# Writes bench/out/review.txt. Needs the build, tests/node (run
# scripts/install-node-deps.sh) and Debian's chromium.
#
# Usage: bench/review.sh BUILD_DIR
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
S=${BENCH_REVIEW_SERVERS:-1000}
T=${BENCH_REVIEW_TOOLS:-50}
CHROMIUM=${MCPVET_CHROMIUM:-/usr/bin/chromium}
OUT=$ROOT/bench/out
mkdir -p "$OUT"
LOG=$OUT/review.txt
DIR=$(mktemp -d)
PID=""
cleanup() {
    if [ -n "$PID" ]; then kill "$PID" 2>/dev/null || true; wait "$PID" 2>/dev/null || true; fi
    rm -rf "$DIR"
}
trap cleanup EXIT

start=$(date +%s)
"$BUILD/mcpvet_gen_review_store" --out "$DIR/store.db" --servers "$S" --tools "$T" >"$DIR/gen.txt"
gen_s=$(( $(date +%s) - start ))

printf 'bench-key-%s-0123456789abcdef\n' "$$" >"$DIR/key"
chmod 600 "$DIR/key"
HOME=$DIR "$BUILD/mcpvet" serve --store "$DIR/store.db" --api-key-file "$DIR/key" \
    >"$DIR/out" 2>"$DIR/err" &
PID=$!
BASE=""
for _ in $(seq 1 200); do
    BASE=$(grep -o 'http://127\.0\.0\.1:[0-9]*' "$DIR/out" 2>/dev/null | head -1 || true)
    [ -n "$BASE" ] && break
    sleep 0.05
done
[ -n "$BASE" ] || { echo "the server did not start: $(cat "$DIR/err")" >&2; exit 1; }
KEY=$(tr -d '\n' <"$DIR/key")

{
    echo "# bench/review.sh $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(nproc) CPUs"
    echo "store: $(cat "$DIR/gen.txt") (generated in ${gen_s}s, $(du -m "$DIR/store.db" | cut -f1) MB)"
    echo
    echo "## REST (one keep-alive connection, 50 rounds)"
    python3 "$ROOT/bench/review_load.py" "$BASE" "$KEY" 50
    echo
    echo "## Page (headless Chromium)"
    BASE="$BASE" API_KEY="$KEY" CHROMIUM="$CHROMIUM" MCPVET_SOURCE_DIR="$ROOT" \
        node "$ROOT/bench/review_page.mjs"
    echo
    echo "server_peak_rss_mb $(awk '/VmHWM/ {printf "%.1f", $2 / 1024}' /proc/$PID/status)"
} | tee "$LOG"
