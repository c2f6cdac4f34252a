#!/usr/bin/env bash
# Which shared libraries a run of mcpvet loads (issue 15, start-up): a scan
# of a tools file without a store must not load SQLite (src/store/
# sqlite_dl.c loads it when a store is opened) nor the shared libstemmer
# with its thirty languages (the English stemmer is linked in when
# libstemmer.a exists), and a scan with a store, and `security list`, must
# load SQLite and work (hard positives). Reads the loader's own account
# (LD_DEBUG=files), so it tests what the process did, not how it was built.
set -u

MCPVET=${MCPVET:?set MCPVET to the mcpvet binary}
SRC=${MCPVET_SOURCE_DIR:?set MCPVET_SOURCE_DIR to the source tree}
DEMO="$SRC/examples/demo-snapshot.json"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

passed=0
failed=0
fail() {
    failed=$((failed + 1))
    echo "FAIL: $1" >&2
}

# loaded LOG LIB: whether the loader's log names LIB as loaded.
loaded() {
    grep -qE "file=$2[^ ]* \[[0-9]+\];  (needed|dynamically loaded) by" "$1"
}

# A scan without a store: no SQLite, no shared libstemmer; the report is
# the same as the one written without the loader's log.
LD_DEBUG=files "$MCPVET" scan --tools "$DEMO" --format json --output "$TMP/a.json" \
    2>"$TMP/a.log"
rc=$?
"$MCPVET" scan --tools "$DEMO" --format json --output "$TMP/b.json" 2>/dev/null
if [ "$rc" -ne 0 ] && [ "$rc" -ne 1 ]; then fail "scan without a store exited $rc"
elif ! grep -q 'file=libc.so' "$TMP/a.log"; then fail "LD_DEBUG=files logged nothing"
elif loaded "$TMP/a.log" libsqlite3; then fail "a scan without a store loaded SQLite"
elif ! cmp -s "$TMP/a.json" "$TMP/b.json"; then fail "the two scans' reports differ"
else passed=$((passed + 1)); fi
if grep -q 'MV_STEMMER_ENGLISH_STATIC' "$SRC/CMakeLists.txt" && [ -e /usr/lib/x86_64-linux-gnu/libstemmer.a ] &&
    loaded "$TMP/a.log" libstemmer; then
    fail "the shared libstemmer was loaded although libstemmer.a is linked in"
else passed=$((passed + 1)); fi

# With a store: SQLite is loaded on use and the store works.
LD_DEBUG=files "$MCPVET" scan --tools "$DEMO" --store "$TMP/s.db" --format json \
    --output "$TMP/c.json" 2>"$TMP/c.log"
rc=$?
if [ "$rc" -ne 0 ] && [ "$rc" -ne 1 ]; then fail "scan with a store exited $rc"
elif ! loaded "$TMP/c.log" libsqlite3; then fail "a scan with a store did not load SQLite"
elif [ ! -s "$TMP/s.db" ]; then fail "the store was not written"
else passed=$((passed + 1)); fi

LD_DEBUG=files "$MCPVET" security list --store "$TMP/s.db" >"$TMP/list.txt" 2>"$TMP/d.log"
rc=$?
if [ "$rc" -ne 0 ]; then fail "security list exited $rc: $(grep -v '^ *[0-9]*:' "$TMP/d.log" | head -3)"
elif ! loaded "$TMP/d.log" libsqlite3; then fail "security list did not load SQLite"
elif ! [ -s "$TMP/list.txt" ]; then fail "security list printed nothing"
else passed=$((passed + 1)); fi

echo "lazy_libs: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
