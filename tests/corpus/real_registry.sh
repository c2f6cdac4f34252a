#!/usr/bin/env bash
# Real tools (shared/corpora/real, beside the checkout): the docker registry
# scanned as one registry gives no quarantine and a review rate <= 1%.
# A user's clone has no shared/ folder: the test then reports itself
# skipped (exit 77, ctest's SKIP_RETURN_CODE) naming the missing path.
set -u
mcpvet=${MCPVET:?MCPVET must point at the mcpvet binary}
src=${MCPVET_SOURCE_DIR:?}
shared=${MCPVET_SHARED_DIR:-$src/../shared}
real="$shared/corpora/real/docker_mcp_registry.json"
if [ ! -f "$real" ]; then
    echo "SKIPPED: real-tool data not found at $real (it exists only beside the project's CI checkout)"
    exit 77
fi
passed=0
failed=0
ok() { passed=$((passed + 1)); echo "ok: $1"; }
bad() { failed=$((failed + 1)); echo "FAIL: $1"; }
echo
echo "== real tools: docker registry as one registry =="
out=$("$mcpvet" eval --whole-registry --corpus "$real" --max-review-rate 0.01 \
    --max-quarantines 0 --jobs 2 2>&1)
rc=$?
echo "$out" | grep -v '^  *[a-z_]* *[0-9]' | head -40
if [ "$rc" -eq 0 ] && grep -q '^GATE PASSED' <<<"$out"; then
    ok "real registry: no quarantine, review rate <= 1%"
else
    bad "real registry limits (exit $rc)"
fi

echo
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
