#!/usr/bin/env bash
# Integration tests of the mcpvet command line: exit codes and messages for
# usage errors, unreadable and invalid input, the bundled demo in every
# output format, render safety of hostile names, and `mcpvet eval` with and
# without the gate. Uses $MCPVET (the binary) and $MCPVET_SOURCE_DIR.
#
# The checks themselves evolve; assertions here depend only on what the
# command line promises (exit codes, formats, messages), never on how many
# findings today's checks produce.
set -u

MCPVET=${MCPVET:?set MCPVET to the mcpvet binary}
SRC=${MCPVET_SOURCE_DIR:?set MCPVET_SOURCE_DIR to the source tree}
DATA="$SRC/tests/integration/data"
DEMO="$SRC/examples/demo-snapshot.json"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

passed=0
failed=0
OUT="$TMP/stdout"
ERR="$TMP/stderr"
RC=0

# run ARGS...: run mcpvet, keeping stdout, stderr and the exit code.
run() {
    "$MCPVET" "$@" >"$OUT" 2>"$ERR"
    RC=$?
}

ok() {
    passed=$((passed + 1))
}

bad() {
    failed=$((failed + 1))
    echo "FAIL: $1" >&2
    echo "  command exit code: $RC" >&2
    echo "  stderr: $(head -c 600 "$ERR")" >&2
}

expect_rc() { # NAME WANT
    if [ "$RC" -eq "$2" ]; then ok; else bad "$1: exit code $RC, expected $2"; fi
}

expect_out() { # NAME FIXED-STRING
    if grep -qF -- "$2" "$OUT"; then ok; else bad "$1: stdout lacks '$2'"; fi
}

expect_err() { # NAME FIXED-STRING
    if grep -qF -- "$2" "$ERR"; then ok; else bad "$1: stderr lacks '$2'"; fi
}

expect_err_re() { # NAME EXTENDED-REGEX
    if grep -qE -- "$2" "$ERR"; then ok; else bad "$1: stderr does not match /$2/"; fi
}

expect_no_escape() { # NAME FILE
    if LC_ALL=C grep -q $'\x1b\|\x07\|\xe2\x80\xae' "$2"; then
        bad "$1: raw ESC, BEL or U+202E in output"
    else
        ok
    fi
}

# Valid JSON: python3 is on every Debian CI image; jq is an alternative.
expect_json() { # NAME FILE
    if command -v python3 >/dev/null 2>&1; then
        if python3 -m json.tool "$2" >/dev/null 2>&1; then ok; else bad "$1: invalid JSON"; fi
    elif command -v jq >/dev/null 2>&1; then
        if jq empty "$2" >/dev/null 2>&1; then ok; else bad "$1: invalid JSON"; fi
    else
        bad "$1: neither python3 nor jq is available to validate JSON"
    fi
}

# ---------------------------------------------------------------- usage
run
expect_rc "no arguments" 2
expect_err "no arguments" "Usage:"

run --help
expect_rc "--help" 0
expect_out "--help" "mcpvet scan --tools FILE"

run --version
expect_rc "--version" 0
if grep -qE '^mcpvet [0-9]+\.[0-9]+' "$OUT"; then ok; else bad "--version prints no version"; fi

run frobnicate
expect_rc "unknown command" 2
expect_err "unknown command" 'unknown command "frobnicate"'

run scan --help
expect_rc "scan --help" 0
expect_out "scan --help" "--fail-on"

# Without input, scan reads the agent clients' configs: an empty home has
# none, which is a usage error, never an empty "clean" scan.
mkdir -p "$TMP/empty-home"
(cd "$TMP/empty-home" &&
    exec env -u XDG_CONFIG_HOME -u APPDATA -u CODEX_HOME HOME="$TMP/empty-home" \
        "$MCPVET" scan >"$OUT" 2>"$ERR")
RC=$?
expect_rc "scan without input in an empty home" 2
expect_err "scan without input in an empty home" "no MCP client configuration with a server"

run scan --tools "$DEMO" --bogus
expect_rc "unknown option" 2
expect_err "unknown option" 'unknown option "--bogus"'

run scan --tools "$DEMO" extra.json
expect_rc "stray argument" 2
expect_err "stray argument" 'unexpected argument "extra.json"'

run scan --tools "$DEMO" --format xml
expect_rc "bad format" 2
expect_err "bad format" "--format must be text, json or sarif"

run scan --tools "$DEMO" --fail-on never
expect_rc "bad fail-on" 2
expect_err "bad fail-on" "--fail-on must be review, quarantine or pending"

for jobs in 0 abc 2x -1 99999; do
    run scan --tools "$DEMO" --jobs "$jobs"
    expect_rc "--jobs $jobs" 2
done

run scan --tools
expect_rc "missing option value" 2
expect_err "missing option value" "needs a value"

run scan --tools "$DEMO" --disable-check no.such.check
expect_rc "unknown --disable-check" 2
expect_err "unknown --disable-check" "no.such.check"

# ---------------------------------------------------------- input errors
run scan --tools "$TMP/missing.json"
expect_rc "missing file" 2
expect_err "missing file" "$TMP/missing.json"
expect_err "missing file" "No such file"

run scan --tools "$DATA/invalid.json"
expect_rc "invalid JSON" 2
expect_err_re "invalid JSON" 'invalid\.json:5:3: '

run scan --tools "$DATA/dup-key.json"
expect_rc "duplicate key" 2
expect_err_re "duplicate key" 'dup-key\.json:4:[0-9]+: duplicate object key "name"'

printf '{"tools":[{"name":"a","\\u001b[2Jx":1,"\\u001b[2Jx":2}]}' >"$TMP/hostile-key.json"
run scan --tools "$TMP/hostile-key.json"
expect_rc "hostile duplicate key" 2
expect_no_escape "hostile duplicate key message" "$ERR"

# ------------------------------------------------------------ the demo
run scan --tools "$DEMO"
TEXT_RC=$RC
cp "$OUT" "$TMP/demo.txt"
case "$RC" in
0 | 1 | 3) ok ;;
*) bad "demo scan: exit code $RC" ;;
esac
expect_out "demo scan" "Tools scanned: 15 (5 servers)"
expect_out "demo scan" "Coverage:"
# The exit code and the report agree.
if [ "$TEXT_RC" -eq 1 ]; then
    expect_out "demo exit 1" "[QUARANTINE] "
elif [ "$TEXT_RC" -eq 3 ]; then
    expect_out "demo exit 3" "DEGRADED"
else
    expect_out "demo exit 0" "0 quarantine"
fi

run scan --tools "$DEMO" --format json
expect_rc "demo json exit code" "$TEXT_RC"
expect_json "demo json" "$OUT"
expect_out "demo json" '"schema": "mcpvet.scan/1"'
n_tools=$(grep -c '"index": ' "$OUT")
if [ "$n_tools" -eq 15 ]; then ok; else bad "demo json lists $n_tools tools, expected 15"; fi

run scan --tools "$DEMO" --format sarif
expect_rc "demo sarif exit code" "$TEXT_RC"
expect_json "demo sarif" "$OUT"
expect_out "demo sarif" '"version": "2.1.0"'
expect_out "demo sarif" '"name": "mcpvet"'

run scan --tools "$DEMO" --output "$TMP/report.txt"
expect_rc "--output exit code" "$TEXT_RC"
if [ ! -s "$OUT" ] && cmp -s "$TMP/report.txt" "$TMP/demo.txt"; then
    ok
else
    bad "--output: file differs from stdout report or stdout not empty"
fi

run scan --tools "$DEMO" --output "$TMP/no/such/dir/report.txt"
expect_rc "unwritable --output" 2
expect_err "unwritable --output" "cannot open for writing"

# The report is written to the output's descriptor: a failed write is
# named with its reason (a full device), exit 2.
if [ -w /dev/full ]; then
    run scan --tools "$DEMO" --format json --output /dev/full
    expect_rc "--output /dev/full" 2
    expect_err "--output /dev/full" "write failed: No space left on device"
fi

run scan --tools "$DEMO" --jobs 1 --format json
cp "$OUT" "$TMP/j1.json"
run scan --tools "$DEMO" --jobs 2 --format json
if cmp -s "$OUT" "$TMP/j1.json"; then ok; else bad "json differs between --jobs 1 and 2"; fi

# A document large enough to be parsed and built on several threads
# (over 256 KiB, 1,800 tools): the same report for any --jobs, and for a
# broken document the same error, found in the second half of it (a syntax
# error, a nameless tool with a later shape error, a duplicate key).
python3 - "$TMP" <<'PY'
import json, sys
out = sys.argv[1]
servers = []
for s in range(600):
    tools = [{"name": "tool_%d_%d" % (s, t),
              "description": "Reads the \"file\" at path %d, line\n%d." % (t, s),
              "inputSchema": {"type": "object",
                              "properties": {"path": {"type": "string",
                                                      "description": "where %d" % s}},
                              "required": ["path"]}} for t in range(3)]
    servers.append({"name": "srv-%d" % s, "tools": tools})
doc = json.dumps({"servers": servers}, indent=1)
open(out + "/big.json", "w").write(doc)
open(out + "/big-syntax.json", "w").write(doc[:-40])
nameless = json.loads(doc)
del nameless["servers"][450]["tools"][1]["name"]
nameless["servers"][520] = 7
open(out + "/big-nameless.json", "w").write(json.dumps(nameless))
cut = doc.index('"name": "srv-500"')
open(out + "/big-dupkey.json", "w").write(doc[:cut] + '"x": 1, "x": 2, ' + doc[cut:])
PY
run scan --tools "$TMP/big.json" --jobs 1 --format json
cp "$OUT" "$TMP/big-j1.json"
for jobs in 2 4; do
    run scan --tools "$TMP/big.json" --jobs $jobs --format json
    if cmp -s "$OUT" "$TMP/big-j1.json"; then ok; else bad "large document: json differs between --jobs 1 and $jobs"; fi
done
for jobs in 1 2; do
    run scan --tools "$TMP/big.json" --jobs $jobs --format json --output "$TMP/big-out.json"
    if cmp -s "$TMP/big-out.json" "$TMP/big-j1.json"; then ok; else bad "large document: --output differs from stdout with --jobs $jobs"; fi
done
for broken in syntax nameless dupkey; do
    run scan --tools "$TMP/big-$broken.json" --jobs 1
    expect_rc "large document, $broken, --jobs 1" 2
    cp "$ERR" "$TMP/err-j1.txt"
    for jobs in 2 4; do
        run scan --tools "$TMP/big-$broken.json" --jobs $jobs
        expect_rc "large document, $broken, --jobs $jobs" 2
        if cmp -s "$ERR" "$TMP/err-j1.txt"; then ok; else bad "large document, $broken: error differs with --jobs $jobs"; fi
    done
done
run scan --tools "$TMP/big-nameless.json" --jobs 2
expect_err "nameless tool reported first" "servers[450].tools[1]"

run scan --tools "$DEMO" --server mail
expect_out "--server filter" "Tools scanned: 2 (1 server)"

run scan --tools "$DEMO" --server nosuchserver
expect_rc "--server without match" 2
expect_err "--server without match" '"nosuchserver"'

run scan --tools - <"$DEMO"
expect_rc "stdin exit code" "$TEXT_RC"
expect_out "stdin" "Tools scanned: 15 (5 servers)"

run scan --tools "$DATA/small-corpus.json"
expect_out "scan of a corpus" "Tools scanned: 7"

# A review-level finding fails with --fail-on review at least as often.
run scan --tools "$DEMO" --fail-on review
if [ "$TEXT_RC" -eq 1 ] && [ "$RC" -ne 1 ]; then
    bad "--fail-on review passed a scan that --fail-on quarantine failed"
else
    ok
fi

# -------------------------------------------------------- render safety
printf '{"tools":[{"name":"\\u001b[31mred\\u202eevil","description":"x\\u001b]0;t\\u0007y","inputSchema":{"type":"object","properties":{"p\\u001b[1m":{"type":"string","description":"\\u202e"}}}}]}' \
    >"$TMP/hostile.json"
for format in text json sarif; do
    run scan --tools "$TMP/hostile.json" --format "$format" --show-clean
    case "$RC" in
    0 | 1 | 3) ok ;;
    *) bad "hostile names ($format): exit code $RC" ;;
    esac
    expect_no_escape "hostile names ($format)" "$OUT"
done
run scan --tools "$TMP/hostile.json" --show-clean
expect_out "hostile name shown escaped" '\u001B[31mred\u202Eevil'

# ----------------------------------------------------------------- eval
run eval
expect_rc "eval without --corpus" 2
expect_err "eval without --corpus" "no corpus"

run eval --corpus "$DATA/small-corpus.json"
expect_rc "eval" 0
expect_out "eval" "Malicious category"
expect_out "eval" "Overall: 7 entries (3 malicious, 2 hard negatives, 2 clean benign)"
expect_out "eval" "Variant parity (phrase_injection)"

run eval --corpus "$DATA/small-corpus.json" --per-entry
expect_out "eval --per-entry" "it-mal-1"
expect_out "eval --per-entry" "it-b-2"

run eval --corpus "$DATA/small-corpus.json" --format json --per-entry
expect_rc "eval json" 0
expect_json "eval json" "$OUT"
expect_out "eval json" '"schema": "mcpvet.eval/1"'
expect_out "eval json" '"id": "it-hn-2"'

run eval --corpus "$DATA/small-corpus.json" --whole-registry
expect_rc "eval --whole-registry" 0
expect_out "eval --whole-registry" "whole-registry"

# it-mal-2 is labeled malicious but reads innocently: no honest scanner
# catches it, so a perfect-recall gate must fail.
run eval --corpus "$DATA/small-corpus.json" --gate --min-recall 1.0 --max-fp 0
expect_rc "gate failure" 6
expect_out "gate failure" "GATE FAILED: recall"
expect_out "gate failure scorecard" "Malicious category"

run eval --corpus "$DATA/small-corpus.json" --gate --min-recall 1.0 --format json
expect_rc "gate failure (json)" 6
expect_err "gate failure (json)" "GATE FAILED: recall"
expect_json "gate failure (json)" "$OUT"

run eval --corpus "$DATA/small-corpus.json" --gate --min-recall 0 --max-fp 1 --structural-min-recall 0
expect_rc "gate pass" 0
expect_out "gate pass" "GATE PASSED: recall"

run eval --corpus "$DATA/no-hard-negatives.json" --gate
expect_rc "gate without hard negatives" 2
expect_err "gate without hard negatives" "no hard negatives"
expect_out "scorecard printed on a config error" "Malicious category"

# Benign limits alone: a corpus of real tools has no malicious entries.
run eval --corpus "$DATA/corpus-dir/holdout/held.json" --max-review-rate 1 --max-quarantines 1
expect_rc "benign limits without --gate" 0
expect_out "benign limits without --gate" "GATE PASSED: 1 benign entries"

run eval --corpus "$DATA/small-corpus.json" --max-quarantines -1
expect_rc "--max-quarantines -1" 2

run eval --corpus "$DATA/small-corpus.json" --min-recall 0.5
expect_rc "threshold without --gate" 2
expect_err "threshold without --gate" "need --gate"

for value in 1.5 abc 0.5x -0.1 nan; do
    run eval --corpus "$DATA/small-corpus.json" --gate --min-recall "$value"
    expect_rc "--min-recall $value" 2
done

run eval --corpus "$DATA/small-corpus.json" --format sarif
expect_rc "eval --format sarif" 2

run eval --corpus "$DEMO"
expect_rc "eval of a snapshot" 2
expect_err "eval of a snapshot" "not a labeled corpus"

run eval --corpus "$DATA/corpus-dir"
expect_rc "eval of a directory" 0
expect_out "eval of a directory" "4 entries from 2 files"
expect_out "eval of a directory" "Holdout: 2 entries (1 malicious"

mkdir -p "$TMP/empty"
run eval --corpus "$TMP/empty"
expect_rc "eval of a directory without json" 2
expect_err "eval of a directory without json" "no *.json files"

run eval --corpus "$DATA/small-corpus.json" --disable-check no.such.check
expect_rc "eval unknown --disable-check" 2

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
