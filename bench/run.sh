#!/bin/sh
# mcpvet benchmark (`make bench`): generates registries of N tools from the
# real docker/mcp-registry corpus (bench/gen_registry.c), then measures for
# each N the end-to-end `mcpvet scan --format json --output FILE` with
# --jobs 1 and --jobs 2 (median of several runs, peak RSS from
# /usr/bin/time), checks that both reports are byte-identical, times each
# phase and each check with bench/bench_engine.c, and counts instructions
# per tool with callgrind on the small registries, and times the approval
# store (bench/bench_store.c: applying a scan of 10,000 tools and approving
# them). Benchmarks never fail a
# build: this script only reports.
#
# Usage: bench/run.sh BUILD_DIR
# Environment: BENCH_SIZES (default "1000 10000 100000"; add 1000000 for
#   the ~430 MB registry), BENCH_RUNS (default 5; the 1M registry uses 3),
#   BENCH_SHADOWING_SIZES (distinct-name registries for the typosquat
#   index, default "10000 100000 1000000"),
#   BENCH_CORPUS (default ../shared/corpora/real/docker_mcp_registry.json
#   next to the checkout), BENCH_CALLGRIND_MAX (largest N run under
#   callgrind, default 10000).
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
SIZES=${BENCH_SIZES:-"1000 10000 100000"}
RUNS=${BENCH_RUNS:-5}
CORPUS=${BENCH_CORPUS:-$ROOT/../shared/corpora/real/docker_mcp_registry.json}
CG_MAX=${BENCH_CALLGRIND_MAX:-10000}
OUT=$ROOT/bench/out
MCPVET=$BUILD/mcpvet
GEN=$BUILD/mcpvet_bench_gen
ENGINE=$BUILD/mcpvet_bench_engine
TIME=/usr/bin/time

for bin in "$MCPVET" "$GEN" "$ENGINE"; do
    [ -x "$bin" ] || { echo "bench: $bin is missing (run 'make build' first)" >&2; exit 2; }
done
[ -r "$CORPUS" ] || { echo "bench: corpus $CORPUS not readable (set BENCH_CORPUS)" >&2; exit 2; }
[ -x "$TIME" ] || { echo "bench: $TIME is missing (Debian package 'time')" >&2; exit 2; }
mkdir -p "$OUT"
LOG=$OUT/results.txt
: >"$LOG"
say() { printf '%s\n' "$*" | tee -a "$LOG"; }

# median of the numbers on stdin
median() { sort -g | awk '{v[NR]=$1} END {if (NR==0) print 0; else if (NR%2) print v[(NR+1)/2]; else print (v[NR/2]+v[NR/2+1])/2}'; }
# value of key $2 in bench_engine output file $1 (first field after the key)
kv() { awk -v k="$2" '$1==k {print $2; exit}' "$1"; }

say "== machine"
say "date:    $(date -u '+%Y-%m-%d %H:%M UTC')"
say "cpu:     $(awk -F': ' '/^model name/ {print $2; exit}' /proc/cpuinfo) ($(nproc) online cores)"
say "memory:  $(awk '/^MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo)"
say "kernel:  $(uname -sr)"
say "load:    $(cut -d' ' -f1-3 /proc/loadavg) (1/5/15 min, at start)"
say "mcpvet:  $("$MCPVET" --version) ($BUILD)"
say ""

# ---------------------------------------------------------------- workloads
gen() { # n file
    if [ ! -s "$2" ] || [ ! -s "${2%.json}.gen.txt" ] ||
        [ -n "$(find "$GEN" "$CORPUS" -newer "$2" 2>/dev/null)" ]; then
        "$GEN" --corpus "$CORPUS" --tools "$1" --out "$2" --labels "${2%.json}.labels" \
            2>"${2%.json}.gen.txt"
    fi
}
say "== workloads (bench/out, seed fixed: identical bytes on every machine)"
gen 10 "$OUT/registry-10.json"
for n in $SIZES; do
    gen "$n" "$OUT/registry-$n.json"
    say "$(sed "s#^mcpvet_bench_gen: $OUT/##" "$OUT/registry-$n.gen.txt")"
done
say ""

# ------------------------------------------------------------ measurements
# One end-to-end run: prints "wall_s cpu_s maxrss_kb"; the report goes to
# $3. Wall time from date's nanoseconds (GNU time only has 10 ms), CPU time
# (user+sys) and peak RSS from /usr/bin/time.
now_ns() { date +%s%N; }
scan_once() { # file jobs report
    rc=0
    t0=$(now_ns)
    "$TIME" -f '%U %S %M' -o "$OUT/time.txt" "$MCPVET" scan --tools "$1" --format json \
        --output "$3" --jobs "$2" >/dev/null 2>"$OUT/scan.err" || rc=$?
    t1=$(now_ns)
    # 1 = findings, 3 = degraded: both are normal outcomes of a scan
    if [ "$rc" -ne 0 ] && [ "$rc" -ne 1 ] && [ "$rc" -ne 3 ]; then
        echo "bench: mcpvet scan failed ($rc):" >&2
        cat "$OUT/scan.err" >&2
        exit 2
    fi
    awk -v ns=$((t1 - t0)) 'END {printf "%.4f %.2f %d\n", ns / 1e9, $1 + $2, $3}' "$OUT/time.txt"
}

# Fixed cost of a scan (process start, rule compilation, report) in
# instructions: the 10-tool file under callgrind.
cg() { # n file
    valgrind --tool=callgrind --callgrind-out-file="$OUT/callgrind-$1.out" "$MCPVET" scan \
        --tools "$2" --format json --output "$OUT/report-$1-cg.json" --jobs 1 \
        >/dev/null 2>"$OUT/callgrind-$1.log" || true
    awk '/Collected :/ {gsub(",", "", $NF); print $NF}' "$OUT/callgrind-$1.log" | tail -n 1 \
        >"$OUT/ir-$1.txt"
    callgrind_annotate --inclusive=no "$OUT/callgrind-$1.out" 2>/dev/null |
        grep -E '^ *[0-9,]+ +\(' | head -n 25 >"$OUT/callgrind-$1-top.txt" || true
    callgrind_annotate --inclusive=yes "$OUT/callgrind-$1.out" 2>/dev/null |
        grep -E '^ *[0-9,]+ +\(' >"$OUT/callgrind-$1-incl.txt" || true
}

# Inclusive instructions of the first function whose "file:function" name
# matches the extended regex $2 in the callgrind listing $1 (0 if none).
cg_incl() {
    awk -v re="$2" '{ n = $1; gsub(",", "", n); f = $0
        sub(/^ *[0-9,]+ +\([ 0-9.]+%\) +/, "", f); sub(/ \[.*$/, "", f)
        if (f ~ re) { print n; found = 1; exit } }
        END { if (!found) print 0 }' "$1"
}
# The serial share of a --jobs 2 scan, in instructions (repeatable on a busy
# machine, where two-thread wall times are not): callgrind with one profile
# per thread; the serial part is what the main thread runs outside the
# functions that also run on the worker threads (the engine's scan, the
# model's tool builds, the report's ranges, the split JSON parse). Prints
# "total serial": Amdahl's bound for two threads is total / (serial +
# (total - serial) / 2).
cg_par() { # n file
    rm -f "$OUT/callgrind-$1-j2.out"*
    valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file="$OUT/callgrind-$1-j2.out" \
        "$MCPVET" scan --tools "$2" --format json --output "$OUT/report-$1-cg2.json" --jobs 2 \
        >/dev/null 2>"$OUT/callgrind-$1-j2.log" || true
    total=$(cat "$OUT/callgrind-$1-j2.out"-[0-9]* 2>/dev/null | awk '/^summary:/ {s += $2} END {print s + 0}')
    main=$(awk '/^summary:/ {print $2}' "$OUT/callgrind-$1-j2.out-01" 2>/dev/null)
    callgrind_annotate --inclusive=yes "$OUT/callgrind-$1-j2.out-01" 2>/dev/null |
        grep -E '^ *[0-9,]+ +\(' >"$OUT/callgrind-$1-j2-incl.txt" || true
    par=0
    for re in 'engine\.c:worker_main$' 'build\.c:run_range$' 'report\.c:range_worker_main$' \
        'json\.c:split_piece_main$'; do
        par=$((par + $(cg_incl "$OUT/callgrind-$1-j2-incl.txt" "$re")))
    done
    echo "$total $((${main:-0} - par))" >"$OUT/serial-$1.txt"
}
have_cg=no
command -v valgrind >/dev/null 2>&1 && have_cg=yes
[ $have_cg = yes ] && cg 10 "$OUT/registry-10.json"

for n in $SIZES; do
    f=$OUT/registry-$n.json
    runs=$RUNS
    [ "$n" -ge 1000000 ] && [ "$runs" -gt 3 ] && runs=3
    for j in 1 2; do
        : >"$OUT/runs-$n-j$j.txt"
        i=0
        while [ $i -lt "$runs" ]; do
            scan_once "$f" $j "$OUT/report-$n-j$j.json" >>"$OUT/runs-$n-j$j.txt"
            i=$((i + 1))
        done
    done
    if cmp -s "$OUT/report-$n-j1.json" "$OUT/report-$n-j2.json"; then
        echo yes >"$OUT/identical-$n.txt"
    else
        echo NO >"$OUT/identical-$n.txt"
    fi
    erep=5
    [ "$n" -ge 1000000 ] && erep=1
    "$ENGINE" --tools "$f" --labels "$OUT/registry-$n.labels" --repeat $erep >"$OUT/engine-$n.txt"
    if [ "$n" -le "$CG_MAX" ] && [ $have_cg = yes ]; then
        cg "$n" "$f"
        cg_par "$n" "$f"
    fi
done

# ------------------------------------------------------------------ tables
say "== end to end: mcpvet scan --tools FILE --format json --output FILE (median of runs)"
say "   wall-clock time; cpu = user+sys; input = JSON bytes; text = decoded tool strings;"
say "   Ir/tool = callgrind instructions / N; +Ir/tool = the same minus the 10-tool run (fixed cost)"
hdr=$(printf '%9s %8s %9s %9s %8s %8s %8s %9s %8s %7s %6s %8s %6s %9s %9s %8s' \
    tools "input MB" "j1 wall s" "j1 tool/s" "in MB/s" "txt MB/s" "cpu us/t" \
    "j2 tool/s" "speedup" "j2==j1" "runs" "RSS MB" "RSS/in" "Ir/tool" "+Ir/tool" "Ir/byte")
say "$hdr"
for n in $SIZES; do
    e=$OUT/engine-$n.txt
    in_b=$(kv "$e" input_bytes)
    txt_b=$(kv "$e" text_bytes)
    w1=$(cut -d' ' -f1 "$OUT/runs-$n-j1.txt" | median)
    c1=$(cut -d' ' -f2 "$OUT/runs-$n-j1.txt" | median)
    w2=$(cut -d' ' -f1 "$OUT/runs-$n-j2.txt" | median)
    rss=$(cut -d' ' -f3 "$OUT/runs-$n-j1.txt" "$OUT/runs-$n-j2.txt" | sort -n | tail -n 1)
    runs=$(wc -l <"$OUT/runs-$n-j1.txt")
    ir="-"
    irm="-"
    irb="-"
    if [ -s "$OUT/ir-$n.txt" ]; then
        ir=$(awk -v n="$n" '{printf "%.0f", $1 / n}' "$OUT/ir-$n.txt")
        irb=$(awk -v b="$in_b" '{printf "%.1f", $1 / b}' "$OUT/ir-$n.txt")
        [ -s "$OUT/ir-10.txt" ] &&
            irm=$(awk -v n="$n" -v f="$(cat "$OUT/ir-10.txt")" '{printf "%.0f", ($1 - f) / (n - 10)}' "$OUT/ir-$n.txt")
    fi
    say "$(awk -v n="$n" -v ib="$in_b" -v tb="$txt_b" -v w1="$w1" -v c1="$c1" -v w2="$w2" \
        -v rss="$rss" -v same="$(cat "$OUT/identical-$n.txt")" -v runs="$runs" -v ir="$ir" -v irm="$irm" \
        -v irb="$irb" 'BEGIN {
        w1 = w1 > 0 ? w1 : 0.005; w2 = w2 > 0 ? w2 : 0.005
        printf "%9d %8.1f %9.3f %9.0f %8.1f %8.1f %8.2f %9.0f %7.2fx %7s %6d %8.1f %5.1fx %9s %9s %8s\n",
            n, ib / 1e6, w1, n / w1, ib / 1e6 / w1, tb / 1e6 / w1, c1 * 1e6 / n, n / w2, w1 / w2,
            same, runs, rss / 1024, rss * 1024 / ib, ir, irm, irb }')"
done
say ""

say "== phases and checks (mcpvet_bench_engine: CPU time of one thread, median)"
say "   per tool, microseconds; checks in nanoseconds per tool: prepare (whole registry,"
say "   divided by N) + inspect, each measured as (engine with only that check) - (no check);"
say "   core = the engine with no check (normalization, aggregation); scan j2 = wall-clock"
say "   speed-up of mv_scan_run with 2 threads over 1 (engine only, parse and render excluded)"
ids=$(awk '$1=="check" {print $2}' "$OUT/engine-$(echo "$SIZES" | awk '{print $1}').txt" | tr '\n' ' ')
line=$(printf '%9s %7s %7s %7s %7s %7s %8s' tools parse registry scan render total "scan j2")
for id in $ids; do line="$line $(printf '%14s' "$id" | cut -c1-14)"; done
say "$line"
for n in $SIZES; do
    e=$OUT/engine-$n.txt
    line=$(awk -v n="$n" '
        $1=="parse_ms" {p=$2} $1=="registry_ms" {r=$2} $1=="scan1_prepare_ms" {sp=$2}
        $1=="scan1_run_ms" {sr=$2} $1=="render_ms" {re=$2}
        $1=="scan1_wall_ms" {w1=$2} $1=="scan2_wall_ms" {w2=$2}
        END {printf "%9d %7.2f %7.2f %7.2f %7.2f %7.2f %7.2fx", n, p*1e3/n, r*1e3/n, (sp+sr)*1e3/n,
             re*1e3/n, (p+r+sp+sr+re)*1e3/n, (w2 > 0 ? w1/w2 : 0)}' "$e")
    for id in $ids; do
        line="$line $(awk -v id="$id" '$1=="check" && $2==id {printf "%14.0f", $3 + $4}' "$e")"
    done
    say "$line"
done
say ""
first=$(echo "$SIZES" | awk '{print $1}')
# Instructions per input byte by phase and by check (callgrind, inclusive,
# --jobs 1) for every size run under callgrind: the per-check cost table of
# docs/performance.md. A check's row is its inspect function.
cg_rows='engine start-up|engine\.c:mv_engine_new$
parse + build tools|model\.c:mv_model_parse$
registry prepare|engine\.c:mv_scan_new$
normalize|normalize\.c:mv_normalize$
unicode.hidden|unicode_hidden\.c:uh_inspect$
shadowing.cross_server|checks/shadowing\.c:inspect$
payload.decoded|payload_decoded\.c:payload_inspect$
directive.imperative|directive\.c:directive_inspect$
capability.mismatch|capability\.c:cap_inspect$
secret.embedded|secret_embedded\.c:inspect$
report render|report\.c:mv_report_render_to$'
cg_sizes=""
for n in $SIZES; do
    if [ -s "$OUT/callgrind-$n-incl.txt" ]; then cg_sizes="$cg_sizes $n"; fi
done
if [ -n "$cg_sizes" ]; then
    say "== instructions per input byte by phase and check (callgrind, inclusive, --jobs 1)"
    line=$(printf '%-24s' "tools:")
    for n in $cg_sizes; do line="$line $(printf '%10s' "$n")"; done
    say "$line"
    echo "$cg_rows" | while IFS='|' read -r label re; do
        line=$(printf '%-24s' "$label")
        for n in $cg_sizes; do
            ir=$(cg_incl "$OUT/callgrind-$n-incl.txt" "$re")
            line="$line $(awk -v i="$ir" -v b="$(kv "$OUT/engine-$n.txt" input_bytes)" \
                'BEGIN {printf "%10.1f", (b > 0 ? i / b : 0)}')"
        done
        say "$line"
    done
    line=$(printf '%-24s' "total")
    for n in $cg_sizes; do
        line="$line $(awk -v b="$(kv "$OUT/engine-$n.txt" input_bytes)" '{printf "%10.1f", $1 / b}' \
            "$OUT/ir-$n.txt")"
    done
    say "$line"
    say ""
fi
par_sizes=""
for n in $SIZES; do
    if [ -s "$OUT/serial-$n.txt" ]; then par_sizes="$par_sizes $n"; fi
done
if [ -n "$par_sizes" ]; then
    say "== --jobs 2 in instructions (callgrind, one profile per thread): the serial part is"
    say "   what the main thread runs outside the engine's scan, the tool builds, the report's"
    say "   ranges and the split parse; bound = Amdahl's speed-up for two threads"
    say "$(printf '%9s %14s %14s %8s %7s' tools "Ir (j2 run)" "serial Ir" serial bound)"
    for n in $par_sizes; do
        say "$(awk -v n="$n" '{printf "%9d %14d %14d %7.1f%% %6.2fx", n, $1, $2, 100 * $2 / $1,
            $1 / ($2 + ($1 - $2) / 2)}' "$OUT/serial-$n.txt")"
    done
    say ""
fi
say "engine start-up (mcpvet_bench_engine, wall, median of 21): $(kv "$OUT/engine-$first.txt" engine_new_ms) ms"
say "   per check (an engine with only that check): $(awk '$1=="init" {printf "%s %s ms; ", $2, $3}' "$OUT/engine-$first.txt")"

# 10-tool file, end to end (process start, rule compilation, parse, scan, report)
small=$OUT/registry-10.json
if command -v hyperfine >/dev/null 2>&1; then
    hyperfine -N --style none --warmup 3 --runs 30 -i --export-json "$OUT/small.json" \
        "$MCPVET scan --tools $small --format json --output $OUT/report-10.json --jobs 1" \
        >/dev/null 2>&1
    small_ms=$(awk -F: '/"median"/ {gsub(/[ ,]/, "", $2); printf "%.1f", $2 * 1000; exit}' "$OUT/small.json")
    how="hyperfine, median of 30"
else
    : >"$OUT/small.txt"
    i=0
    while [ $i -lt 30 ]; do
        scan_once "$small" 1 "$OUT/report-10.json" >>"$OUT/small.txt"
        i=$((i + 1))
    done
    small_ms=$(cut -d' ' -f1 "$OUT/small.txt" | median | awk '{printf "%.1f", $1 * 1000}')
    how="shell loop, median of 30"
fi
say "mcpvet scan of a 10-tool file: $small_ms ms wall ($how)"
say ""

# ------------------------------------------------- start-up (issue 15)
# Process start alone (`mcpvet --version`: loader and libraries) and a
# 20-tool scan end to end (engine start-up, parse, scan, report): callgrind
# instructions (repeatable on a busy machine), minor page faults (each costs
# microseconds in a VM guest) and wall-clock medians (hyperfine, 50 runs).
gen 20 "$OUT/registry-20.json"
say "== start-up (issue 15 targets: start-up <= 2 ms, a 20-tool scan <= 4 ms wall)"
scan20="$MCPVET scan --tools $OUT/registry-20.json --format json --output $OUT/report-20.json --jobs 1"
if [ $have_cg = yes ]; then
    valgrind --tool=callgrind --callgrind-out-file="$OUT/callgrind-version.out" "$MCPVET" \
        --version >/dev/null 2>"$OUT/callgrind-version.log" || true
    ver_ir=$(awk '/Collected :/ {gsub(",", "", $NF); print $NF}' "$OUT/callgrind-version.log" |
        tail -n 1)
    cg 20 "$OUT/registry-20.json"
    say "instructions: mcpvet --version ${ver_ir:-?}; 20-tool scan $(cat "$OUT/ir-20.txt")" \
        "(engine start-up $(cg_incl "$OUT/callgrind-20-incl.txt" 'engine\.c:mv_engine_new$'))"
fi
# shellcheck disable=SC2086
"$TIME" -f '%R' -o "$OUT/faults-version.txt" "$MCPVET" --version >/dev/null 2>&1 || true
# shellcheck disable=SC2086
"$TIME" -f '%R' -o "$OUT/faults-20.txt" $scan20 >/dev/null 2>&1 || true
say "minor page faults: mcpvet --version $(cat "$OUT/faults-version.txt"); 20-tool scan" \
    "$(cat "$OUT/faults-20.txt")"
if command -v hyperfine >/dev/null 2>&1; then
    hyperfine -N --style none --warmup 5 --runs 50 -i --export-json "$OUT/startup.json" \
        "$MCPVET --version" "$scan20" >/dev/null 2>&1
    say "$(awk -F: '/"median"/ {gsub(/[ ,]/, "", $2); m[++k] = $2 * 1000}
        END {printf "wall (hyperfine, median of 50): mcpvet --version %.2f ms; 20-tool scan %.2f ms",
             m[1], m[2]}' "$OUT/startup.json")"
fi
say "load average now: $(cut -d' ' -f1-3 /proc/loadavg)"
say ""

say "== injected attacks flagged: caught/injected (caught by the check of their category)"
for n in $SIZES; do
    say "$(awk -v n="$n" '$1=="detect" {s = s sprintf("%s %d/%d (%d)  ", $2, $4, $3, $5)}
        $1=="benign" {b = sprintf("benign %d: review %d, quarantine %d", $2, $4, $6)}
        END {printf "%9d  %s\n           %s", n, s, b}' "$OUT/engine-$n.txt")"
done
say ""

# ------------------------------------------------------ 1k versus largest N
last=$(echo "$SIZES" | awk '{print $NF}')
say "== per-tool cost: $first tools versus $last tools"
say "$(printf '%-42s %12s %12s %7s' metric "$first" "$last" ratio)"
row() { # label a b
    say "$(awk -v l="$1" -v a="$2" -v b="$3" 'BEGIN {printf "%-42s %12.2f %12.2f %6.2fx", l, a, b, (a > 0 ? b / a : 0)}')"
}
w_first=$(cut -d' ' -f1 "$OUT/runs-$first-j1.txt" | median)
w_last=$(cut -d' ' -f1 "$OUT/runs-$last-j1.txt" | median)
c_first=$(cut -d' ' -f2 "$OUT/runs-$first-j1.txt" | median)
c_last=$(cut -d' ' -f2 "$OUT/runs-$last-j1.txt" | median)
row "end to end, wall us/tool (j1)" "$(awk -v w="$w_first" -v n="$first" 'BEGIN {print w*1e6/n}')" \
    "$(awk -v w="$w_last" -v n="$last" 'BEGIN {print w*1e6/n}')"
small_s=$(awk -v ms="$small_ms" 'BEGIN {print ms / 1000}')
row "end to end minus 10-tool run, wall us/tool" \
    "$(awk -v w="$w_first" -v s="$small_s" -v n="$first" 'BEGIN {print (w-s)*1e6/(n-10)}')" \
    "$(awk -v w="$w_last" -v s="$small_s" -v n="$last" 'BEGIN {print (w-s)*1e6/(n-10)}')"
row "end to end, cpu us/tool (j1)" "$(awk -v w="$c_first" -v n="$first" 'BEGIN {print w*1e6/n}')" \
    "$(awk -v w="$c_last" -v n="$last" 'BEGIN {print w*1e6/n}')"
for k in parse_ms registry_ms scan1_run_ms render_ms; do
    row "$k -> us/tool" "$(kv "$OUT/engine-$first.txt" $k | awk -v n="$first" '{print $1*1e3/n}')" \
        "$(kv "$OUT/engine-$last.txt" $k | awk -v n="$last" '{print $1*1e3/n}')"
done
if [ -s "$OUT/ir-$first.txt" ] && [ -s "$OUT/ir-$last.txt" ]; then
    row "instructions/tool (callgrind)" "$(awk -v n="$first" '{print $1/n}' "$OUT/ir-$first.txt")" \
        "$(awk -v n="$last" '{print $1/n}' "$OUT/ir-$last.txt")"
fi
say ""
# ------------------------------------------------------------ approval store
# bench/bench_store.c: a real SQLite store (WAL, synchronous=FULL) in a
# temporary directory; median of 5 fresh stores.
if [ -x "$BUILD/mcpvet_bench_store" ]; then
    "$BUILD/mcpvet_bench_store" --tools 10000 --runs 5 >"$OUT/store.txt"
    say "== approval store, 10,000 tools (median of 5 runs, wall seconds)"
    say "$(awk '$1=="apply_first_s" {printf "   apply a scan, all new:          %.3f s\n", $2}
        $1=="apply_unchanged_s" {printf "   apply a scan, nothing changed:  %.3f s\n", $2}
        $1=="apply_all_changed_s" {printf "   apply a scan, every tool changed: %.3f s\n", $2}
        $1=="approve_all_s" {printf "   approve all 10,000 tools:       %.3f s", $2}' "$OUT/store.txt")"
    say ""
fi

# The typosquat name index of shadowing.cross_server on registries of
# distinct names only (its worst case), with planted look-alikes: CPU time
# of prepare and inspect per tool (BENCH_SHADOWING_SIZES, default up to 1M).
SHADOW=$BUILD/mcpvet_bench_shadowing
if [ -x "$SHADOW" ]; then
    say "== shadowing name index (mcpvet_bench_shadowing: distinct names, CPU time)"
    # shellcheck disable=SC2086
    "$SHADOW" ${BENCH_SHADOWING_SIZES:-10000 100000 1000000} | tee -a "$LOG"
    say ""
fi
say "raw data: $OUT (engine-N.txt, runs-N-jJ.txt, callgrind-N.out, callgrind-N-top.txt)"
