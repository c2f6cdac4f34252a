#!/usr/bin/env bash
# The learned wording check's table (src/engine/checks/wording_table.inc)
# against the script that makes it (scripts/train_wording.py):
#   1. the check in C and the trainer's split into words agree: on the
#      never-seen holdout, the npm-harvested real tools and one round file,
#      every other check disabled, they flag exactly the same tools;
#   2. the table is re-created byte for byte from the corpus in the
#      repository, so a corpus change that was not retrained fails here.
set -u
mcpvet=${MCPVET:?MCPVET must point at the mcpvet binary}
src=${MCPVET_SOURCE_DIR:?}
build=$(dirname "$mcpvet")
passed=0
failed=0
ok() { passed=$((passed + 1)); echo "ok: $1"; }
bad() { failed=$((failed + 1)); echo "FAIL: $1"; }

if [ ! -x "$build/mcpvet_wording_dump" ]; then
    echo "missing $build/mcpvet_wording_dump"
    exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if python3 "$src/scripts/train_wording.py" "$build" --verify "$src"/corpus/holdout/*.json \
    "$src/corpus/real/npm_servers.json" "$src/corpus/round13_exfil.json"; then
    ok "the check and the trainer flag the same tools"
else
    bad "the check and the trainer disagree (see the mismatches above)"
fi

if python3 "$src/scripts/train_wording.py" "$build" --out "$tmp/table.inc" &&
    cmp -s "$tmp/table.inc" "$src/src/engine/checks/wording_table.inc"; then
    ok "the table is re-created byte for byte from the corpus"
else
    bad "the table differs from a retraining: run scripts/train_wording.py build after a corpus change"
fi

echo "passed $passed, failed $failed"
[ "$failed" -eq 0 ]
