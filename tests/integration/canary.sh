#!/usr/bin/env bash
# Secrets never leak (issue 14): a run seeded with canary secrets, and every
# output of it grepped for them.
#
# The config holds canaries where a client config keeps secrets: env
# values, header values, a bearer token taken from mcpvet's own environment
# (${CANARY_BEARER}), a token in a URL query, and credential arguments
# (--api-key=..., --api-key VALUE). Its servers are real: the stdio fixture
# serving a tool whose description embeds an AWS-style key and echoing its
# env and command line to stderr (one of them then exits, so its stderr
# and exit reach the report), and the HTTP fixture that needs a header.
#
# Every output of `scan --list`, `scan` (text, JSON, SARIF, the saved
# snapshot), `security scan` into a store, `security list`, `history` and
# `export`, every stderr, and a dump of the store file (python3's sqlite3)
# must be free of every config canary. The key inside the tool text is
# tool content, not a config secret: reports and listings show it only
# masked; the snapshot, the store's definitions and the export keep the
# definitions the pins are computed over, so they hold it as the server
# sent it. Files with secrets (the store) must be created 0600.
set -u

MCPVET=${MCPVET:?set MCPVET to the mcpvet binary}
SRC=${MCPVET_SOURCE_DIR:?set MCPVET_SOURCE_DIR to the source tree}
FIXTURE="$SRC/tests/fixtures/servers/mcp_fixture.py"
HOSTILE="$SRC/tests/fixtures/http/hostile.py"
TMP=$(mktemp -d)
HTTP_PID=""
cleanup() {
    [ -n "$HTTP_PID" ] && kill "$HTTP_PID" 2>/dev/null
    wait 2>/dev/null
    rm -rf "$TMP"
}
trap cleanup EXIT

passed=0
failed=0
ok() { passed=$((passed + 1)); }
bad() {
    failed=$((failed + 1))
    echo "FAIL: $1" >&2
}

# The config canaries (each unique, so a hit names its source).
C_ENV=CANARYenv7f3a9q      # env value of the stdio servers
C_BEARER=CANARYbearer9d1m  # mcpvet's environment, via ${CANARY_BEARER}
C_HDR=CANARYhdr2b7e0p      # a header value
C_QUERY=CANARYquery8e1z    # a token in the URL's query
C_ARG1=CANARYarg51c2xq     # --api-key=VALUE
C_ARG2=CANARYarg2v8w4k     # --api-key VALUE
C_HTTPKEY=s3cret-token-do-not-print # the header the HTTP fixture requires
CONFIG_CANARIES="$C_ENV $C_BEARER $C_HDR $C_QUERY $C_ARG1 $C_ARG2 $C_HTTPKEY"
# The secret inside a tool description, and how reports mask it.
TOOL_KEY=AKIAQ7ZK3M9TR2XWB4HN
TOOL_KEY_MASKED='AKIAQ7\*\*\*'

umask 022 # as a user's shell would have it: the store must still be 0600
cat >"$TMP/tools.json" <<EOF
{"tools":[
 {"name":"deploy","description":"Deploys the app. Uses the account key $TOOL_KEY for uploads.",
  "inputSchema":{"type":"object","properties":{"target":{"type":"string"}}}},
 {"name":"add","description":"Adds two numbers.",
  "inputSchema":{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}}}}]}
EOF

python3 "$HOSTILE" auth >"$TMP/http.out" 2>"$TMP/http.err" &
HTTP_PID=$!
for _ in $(seq 100); do
    grep -q '^PORT ' "$TMP/http.out" 2>/dev/null && break
    sleep 0.1
done
PORT=$(sed -n 's/^PORT //p' "$TMP/http.out")
if [ -z "$PORT" ]; then
    echo "FAIL: the HTTP fixture did not start: $(cat "$TMP/http.err")" >&2
    exit 1
fi

cat >"$TMP/mcp.json" <<EOF
{"mcpServers":{
 "deployer":{"command":"python3",
   "args":["$FIXTURE","--tools","$TMP/tools.json","--echo-secrets","--api-key=$C_ARG1"],
   "env":{"MCPVET_SECRET":"$C_ENV","TOKEN":"\${CANARY_BEARER}"}},
 "crasher":{"command":"python3",
   "args":["$FIXTURE","--misbehave","stderr-exit","--echo-secrets","--api-key","$C_ARG2"],
   "env":{"MCPVET_SECRET":"$C_ENV","TOKEN":"\${CANARY_BEARER}"}},
 "remote":{"url":"http://127.0.0.1:$PORT/mcp?token=$C_QUERY",
   "headers":{"X-Api-Key":"$C_HTTPKEY","Authorization":"Bearer \${CANARY_BEARER}",
              "X-Extra":"$C_HDR"}}
}}
EOF
export CANARY_BEARER=$C_BEARER
# The default store path, so mcpvet creates its directories too.
export XDG_STATE_HOME="$TMP/state"
STORE="$TMP/state/mcpvet/store.db"
OUTS=()

# run NAME EXPECTED_CODES ARGS...: mcpvet with stdout and stderr kept as
# $TMP/NAME.out and $TMP/NAME.err, both grepped below.
run() {
    local name=$1 codes=$2 rc
    shift 2
    timeout 120 "$MCPVET" "$@" >"$TMP/$name.out" 2>"$TMP/$name.err"
    rc=$?
    OUTS+=("$TMP/$name.out" "$TMP/$name.err")
    case " $codes " in
    *" $rc "*) ok ;;
    *) bad "$name: exit code $rc, expected one of: $codes ($(head -c 400 "$TMP/$name.err"))" ;;
    esac
}

C="--config $TMP/mcp.json --timeout 20"
run list "0" scan --list $C
run scan_text "1 3" scan $C --no-store --save-snapshot "$TMP/snapshot.json"
run scan_json "1 3" scan $C --no-store --format json
run scan_sarif "1 3" scan $C --no-store --format sarif
run security_scan "1 3" security scan $C
run approve "0" security approve deployer --all
run list_text "0" security list
run list_json "0" security list --format json
run history_text "0" security history
run history_json "0" security history --format json
run export "0" security export "$TMP/export.json"
run scan_store "1 3" scan $C --format json

# The runs reached what they should (a leak test that scans nothing proves
# nothing): the deploy tool was scanned and its key found, the crasher's
# failure reported, the HTTP server reached with its header.
grep -q "deployer/deploy" "$TMP/scan_text.out" && ok || bad "scan did not reach deployer/deploy"
grep -q "secret.embedded" "$TMP/scan_text.out" && ok || bad "the tool's key was not found"
grep -q "$TOOL_KEY_MASKED" "$TMP/scan_text.out" && ok || bad "the tool's key is not shown masked"
grep -q "crasher" "$TMP/scan_json.out" && grep -q '"closed"' "$TMP/scan_json.out" && ok ||
    bad "the crasher's failure is not in the JSON report"
grep -q "remote/read_file" "$TMP/scan_text.out" && ok ||
    bad "the HTTP server was not reached with its header"
grep -q '"deploy"' "$TMP/snapshot.json" && ok || bad "the snapshot lacks the deploy tool"
grep -q "$TOOL_KEY" "$TMP/export.json" && ok || bad "the export lacks the approved definitions"

# A dump of every table of the store, values included.
python3 - "$STORE" >"$TMP/store_dump.txt" 2>"$TMP/store_dump.err" <<'EOF'
import sqlite3, sys
db = sqlite3.connect("file:%s?mode=ro" % sys.argv[1], uri=True)
for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name"):
    for row in db.execute('SELECT * FROM "%s"' % name):
        print(name, "|".join("" if v is None else str(v) for v in row))
EOF
[ -s "$TMP/store_dump.txt" ] && ok || bad "could not dump the store: $(cat "$TMP/store_dump.err")"
grep -q "deploy" "$TMP/store_dump.txt" && ok || bad "the store dump lacks the deploy tool"

# No config canary anywhere: outputs, stderr, snapshot, export, the store
# file itself (raw bytes, WAL and all) and its dump.
FILES=("${OUTS[@]}" "$TMP/snapshot.json" "$TMP/export.json" "$TMP/store_dump.txt")
for f in "$STORE" "$STORE-wal" "$STORE-shm"; do
    [ -e "$f" ] && FILES+=("$f")
done
for c in $CONFIG_CANARIES; do
    hits=$(grep -la -- "$c" "${FILES[@]}" 2>/dev/null)
    if [ -n "$hits" ]; then
        bad "config secret $c appears in: $(echo $hits | sed "s|$TMP/||g")"
        grep -ah -- "$c" $hits | head -3 | cut -c1-300 >&2
    else
        ok
    fi
done

# The tool's key: masked in every report and listing and in stderr; kept
# as sent only in the definitions (snapshot, export, the store's definition
# columns), where the pin needs it.
for f in "${OUTS[@]}"; do
    case "$f" in */export.out) continue ;; esac
    if grep -qa -- "$TOOL_KEY" "$f"; then
        bad "the tool's key appears unmasked in ${f#"$TMP"/}"
        grep -a -- "$TOOL_KEY" "$f" | head -2 | cut -c1-300 >&2
    else
        ok
    fi
done
# In the store: only inside definitions, never in the findings summaries.
python3 - "$STORE" "$TOOL_KEY" >"$TMP/key_columns.txt" <<'EOF'
import sqlite3, sys
db = sqlite3.connect("file:%s?mode=ro" % sys.argv[1], uri=True)
for (table,) in db.execute("SELECT name FROM sqlite_master WHERE type='table'"):
    cols = [r[1] for r in db.execute('PRAGMA table_info("%s")' % table)]
    for row in db.execute('SELECT * FROM "%s"' % table):
        for c, v in zip(cols, row):
            if isinstance(v, str) and sys.argv[2] in v:
                print("%s.%s" % (table, c))
EOF
if grep -qv "definition" "$TMP/key_columns.txt"; then
    bad "the tool's key is stored outside definitions: $(sort -u "$TMP/key_columns.txt" | tr '\n' ' ')"
else
    ok
fi

# Files holding secrets are private.
mode=$(stat -c %a "$STORE" 2>/dev/null)
[ "$mode" = "600" ] && ok || bad "the store is created with mode $mode, not 600"
dmode=$(stat -c %a "$(dirname "$STORE")" 2>/dev/null)
[ "$dmode" = "700" ] && ok || bad "the store's new directory has mode $dmode, not 700"
for f in "$STORE-wal" "$STORE-shm"; do
    if [ -e "$f" ]; then
        m=$(stat -c %a "$f")
        [ "$m" = "600" ] && ok || bad "${f#"$TMP"/} has mode $m, not 600"
    fi
done

echo "canary: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
