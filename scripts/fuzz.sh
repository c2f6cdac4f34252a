#!/usr/bin/env bash
# Runs libFuzzer targets built in BUILD (make fuzz) for SECONDS each, one
# after the other, and fails when any of them crashed, leaked, timed out or
# broke an invariant. Per target: the growing corpus in BUILD/corpus/<t>
# (seeded from fuzz/corpus_<t>, which is never written), crash inputs in
# BUILD/artifacts/<t>/, the whole libFuzzer log in BUILD/logs/<t>.log. The
# summary gives executions, coverage (cov:) and features (ft:) per target.
#
# Usage: scripts/fuzz.sh BUILD SECONDS TARGET...
set -u
build=$1
seconds=$2
shift 2
src=$(cd "$(dirname "$0")/.." && pwd)
failed=()
summary=""
for t in "$@"; do
    bin="$build/fuzz_$t"
    seeds="$src/fuzz/corpus_$t"
    [ "$t" = model ] && seeds="$src/fuzz/corpus"
    case "$t" in
        model | session | store_import | engine | proxy) max_len=16384 ;;
        *) max_len=4096 ;;
    esac
    mkdir -p "$build/corpus/$t" "$build/artifacts/$t" "$build/logs"
    log="$build/logs/$t.log"
    echo "== fuzz_$t: ${seconds}s (log: $log)"
    if [ ! -x "$bin" ]; then
        echo "fuzz: $bin is missing" >&2
        failed+=("$t")
        continue
    fi
    "$bin" -max_total_time="$seconds" -max_len="$max_len" -timeout=30 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$build/artifacts/$t/" \
        "$build/corpus/$t" "$seeds" >"$log" 2>&1
    rc=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    last=$(grep -E '^#[0-9]+' "$log" | tail -1)
    cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
    ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
    status=ok
    if [ "$rc" -ne 0 ]; then
        status="FAILED (exit $rc)"
        failed+=("$t")
        grep -E 'ERROR|invariant broken|SUMMARY|Test unit written' "$log" | head -5
    fi
    summary+=$(printf '%-14s execs %-10s cov %-6s ft %-7s %s' "$t" "${execs:-?}" "${cov:-?}" \
        "${ft:-?}" "$status")$'\n'
done
echo
echo "target         executions  coverage   features"
printf '%s' "$summary"
if [ "${#failed[@]}" -gt 0 ]; then
    echo "fuzz: failed: ${failed[*]} (inputs in $build/artifacts/)" >&2
    exit 1
fi
