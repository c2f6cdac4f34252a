#!/bin/sh
# Benchmark of reaching real servers (issue 9), part of `make bench`:
#   1. wall time of `mcpvet scan --config F` over the three real npm
#      servers (everything, memory, filesystem; stdio) one by one and all
#      together: reached concurrently, the together time should be close
#      to the slowest alone, not to the sum;
#   2. the MCP client's own CPU cost per tools/list message and per tool
#      (bench/bench_mcp.c against the fixture server).
# Medians of BENCH_SERVER_RUNS runs (default 5). Only reports, never fails
# a build.
#
# Usage: bench/servers.sh BUILD_DIR
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
RUNS=${BENCH_SERVER_RUNS:-5}
OUT=$ROOT/bench/out
MCPVET=$BUILD/mcpvet
NODE_BIN=$ROOT/tests/node/node_modules/.bin
mkdir -p "$OUT"
LOG=$OUT/servers.txt
: >"$LOG"
say() { printf '%s\n' "$*" | tee -a "$LOG"; }
median() { sort -g | awk '{v[NR]=$1} END {if (NR==0) print 0; else if (NR%2) print v[(NR+1)/2]; else print (v[NR/2]+v[NR/2+1])/2}'; }

"$ROOT/scripts/install-node-deps.sh"
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
mkdir -p "$DIR/files"
echo hello >"$DIR/files/a.txt"
entry() { # name
    case $1 in
    everything) printf '"everything": {"command": "%s", "args": ["stdio"]}' "$NODE_BIN/mcp-server-everything" ;;
    memory) printf '"memory": {"command": "%s", "env": {"MEMORY_FILE_PATH": "%s"}}' \
        "$NODE_BIN/mcp-server-memory" "$DIR/memory.json" ;;
    filesystem) printf '"filesystem": {"command": "%s", "args": ["%s"]}' \
        "$NODE_BIN/mcp-server-filesystem" "$DIR/files" ;;
    esac
}
for s in everything memory filesystem; do
    printf '{"mcpServers": {%s}}\n' "$(entry $s)" >"$DIR/$s.json"
done
printf '{"mcpServers": {%s, %s, %s}}\n' "$(entry everything)" "$(entry memory)" \
    "$(entry filesystem)" >"$DIR/all.json"

wall() { # config -> seconds of one scan
    t0=$(date +%s%N)
    rc=0
    "$MCPVET" scan --config "$1" --client generic --format json --output "$DIR/r.json" \
        >/dev/null 2>&1 || rc=$?
    t1=$(date +%s%N)
    [ "$rc" -eq 0 ] || echo "bench: scan of $1 exited $rc" >&2
    awk -v ns=$((t1 - t0)) 'BEGIN {printf "%.3f\n", ns / 1e9}'
}

say "== reaching real servers: mcpvet scan --config F (stdio, median of $RUNS)"
say "$(printf '%-22s %10s' servers 'wall s')"
slowest=0
for s in everything memory filesystem all; do
    : >"$DIR/runs-$s"
    i=0
    while [ $i -lt "$RUNS" ]; do
        wall "$DIR/$s.json" >>"$DIR/runs-$s"
        i=$((i + 1))
    done
    m=$(median <"$DIR/runs-$s")
    [ "$s" = all ] || slowest=$(awk -v a="$slowest" -v b="$m" 'BEGIN {print (b > a ? b : a)}')
    [ "$s" = all ] && together=$m
    label=$s
    [ "$s" = all ] && label="all three together"
    say "$(printf '%-22s %10s' "$label" "$m")"
done
say "$(awk -v t="$together" -v s="$slowest" 'BEGIN {printf "together / slowest alone: %.2fx", (s > 0 ? t / s : 0)}')"
say ""

say "== MCP client overhead (bench/bench_mcp.c, fixture server, median)"
MCPVET_SOURCE_DIR=$ROOT "$BUILD/mcpvet_bench_mcp" --tools 2000 --pages 200 --repeat "$RUNS" |
    tee -a "$LOG"
say ""
say "raw data: $LOG"
