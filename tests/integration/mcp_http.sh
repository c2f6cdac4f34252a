#!/usr/bin/env bash
# `mcpvet mcp --listen` (issue 12): the quarantine_security server over MCP
# streamable HTTP, with real clients:
#   - the official MCP Inspector CLI (--transport http) lists the tool and
#     calls list, scan_server and inspect, with the key as a header; without
#     the key it gets nothing;
#   - mcpvet's own MCP client (`mcpvet scan --config` of a config naming the
#     URL) reaches it, and the tool's own definition scans clean even at
#     --fail-on review;
#   - curl: Host and Origin refusals, 401, 405 for GET, 404 after DELETE;
#   - the key rules: a generated key file (0600, path printed, key never
#     printed), --api-key-file, a non-loopback address refused without
#     --allow-remote, HTTP options refused without --listen;
#   - SIGTERM stops it cleanly (exit 0) with the store intact, after a
#     scan in flight got its answer.
set -u

MCPVET=${MCPVET:?set MCPVET to the mcpvet binary}
SRC=${MCPVET_SOURCE_DIR:?set MCPVET_SOURCE_DIR to the source tree}
FIX="$SRC/tests/fixtures"
NODE_MODULES="$SRC/tests/node/node_modules"
INSPECTOR="$NODE_MODULES/.bin/mcp-inspector-cli"
TMP=$(mktemp -d)
SERVER_PID=""
cleanup() {
    if [ -n "$SERVER_PID" ]; then kill "$SERVER_PID" 2>/dev/null; wait "$SERVER_PID" 2>/dev/null; fi
    rm -rf "$TMP"
}
trap cleanup EXIT

passed=0
failed=0
ok() { passed=$((passed + 1)); }
bad() {
    failed=$((failed + 1))
    echo "FAIL: $1" >&2
    [ -f "$TMP/last" ] && echo "  output: $(head -c 800 "$TMP/last")" >&2
}
check() {
    local name=$1
    shift
    if "$@"; then ok; else bad "$name"; fi
}

if [ ! -x "$INSPECTOR" ]; then
    echo "FAIL: $INSPECTOR is missing (run scripts/install-node-deps.sh)" >&2
    exit 1
fi

export HOME="$TMP/home" XDG_STATE_HOME="$TMP/state"
unset XDG_CONFIG_HOME MCPVET_API_KEY
mkdir -p "$HOME"
STORE="$TMP/store.db"
KEY=mcp-http-test-key-0123456789abcdef
cat >"$TMP/mcp.json" <<EOF
{"mcpServers": {"poisoned": {"command": "python3",
  "args": ["$FIX/servers/mcp_fixture.py", "--tools", "$FIX/poisoned-tools.json"]},
  "slow": {"command": "python3", "args": ["$FIX/servers/mcp_fixture.py", "--misbehave", "hang"],
           "env": {"MCPVET_FIXTURE_PIDFILE": "$TMP/slow.pid"}}}}
EOF

# start ARGS...: `mcpvet mcp --listen 127.0.0.1:0 ARGS` in the background;
# its URL in $URL (empty when it did not come up).
start() {
    "$MCPVET" mcp --listen 127.0.0.1:0 "$@" >"$TMP/out" 2>"$TMP/err" &
    SERVER_PID=$!
    URL=""
    for _ in $(seq 1 400); do
        URL=$(sed -n 's/^mcpvet mcp: listening on \(http:[^ ]*\)$/\1/p' "$TMP/out" 2>/dev/null)
        [ -n "$URL" ] && break
        kill -0 "$SERVER_PID" 2>/dev/null || break
        sleep 0.05
    done
}
stop() {
    kill -TERM "$SERVER_PID"
    wait "$SERVER_PID"
    STOP_RC=$?
    SERVER_PID=""
}
inspector() { # ARGS...: the Inspector CLI against $URL with the key; JSON in $TMP/last
    (cd "$NODE_MODULES" && timeout 120 "$INSPECTOR" --cli "$URL" --transport http \
        --header "Authorization: Bearer $KEY" "$@" >"$TMP/last" 2>"$TMP/inspector.err")
}
py() { # EXPR over the last output parsed as `d`
    python3 -c "import json,sys; d=json.load(open('$TMP/last')); sys.exit(0 if ($1) else 1)"
}
pyt() { # EXPR over the tool result's text parsed as `t`
    python3 -c "import json,sys; d=json.load(open('$TMP/last')); t=json.loads(d['content'][0]['text']); sys.exit(0 if ($1) else 1)"
}
status() { # curl ARGS... -> the HTTP status (body in $TMP/last, headers in $TMP/hdr)
    curl -s -o "$TMP/last" -D "$TMP/hdr" -w '%{http_code}' "$@"
}
INIT='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"curl","version":"1"}}}'

# ------------------------------------------------ usage and key refusals
"$MCPVET" mcp --api-key-file "$TMP/k" --store "$STORE" </dev/null >"$TMP/last" 2>&1
check "HTTP options need --listen" test $? -eq 2
check "... and the error says so" grep -q -- '--api-key-file needs --listen' "$TMP/last"
MCPVET_API_KEY=$KEY "$MCPVET" mcp --listen 0.0.0.0:0 --store "$STORE" >"$TMP/last" 2>&1
check "a non-loopback address needs --allow-remote" test $? -eq 2
check "... and the error names it" grep -q -- '--allow-remote' "$TMP/last"
"$MCPVET" mcp --listen 0.0.0.0:0 --allow-remote --store "$STORE" >"$TMP/last" 2>&1
check "a remote bind needs a key of the user's" test $? -eq 2
"$MCPVET" mcp --listen 127.0.0.1:99999 --store "$STORE" >"$TMP/last" 2>&1
check "a bad port is refused" test $? -eq 2

# ----------------------------------------- a generated key (no key given)
start --store "$STORE" --config "$TMP/mcp.json"
KEYFILE="$XDG_STATE_HOME/mcpvet/api-key"
check "started with a generated key" test -n "$URL" -a -f "$KEYFILE"
check "the key file is 0600" test "$(stat -c %a "$KEYFILE")" = 600
check "its path is printed" grep -q "generated an API key in $KEYFILE" "$TMP/out"
GEN=$(tr -d '\n' <"$KEYFILE")
check "the key itself is never printed" bash -c "! grep -qF '$GEN' '$TMP/out' '$TMP/err'"
check "the generated key works" test "$(status -X POST -H "Authorization: Bearer $GEN" \
    -H 'Content-Type: application/json' --data-binary "$INIT" "$URL")" = 200
check "no key: 401" test "$(status -X POST -H 'Content-Type: application/json' \
    --data-binary "$INIT" "$URL")" = 401
stop
check "SIGTERM: exit 0" test "$STOP_RC" -eq 0

# ------------------------------------------------- the Inspector, the key
MCPVET_API_KEY=$KEY start --store "$STORE" --config "$TMP/mcp.json" --timeout 4
check "started (key from MCPVET_API_KEY)" test -n "$URL"
check "the key's source is printed" grep -q 'API key from MCPVET_API_KEY' "$TMP/out"
check "the URL is on loopback" grep -Eq '^http://127\.0\.0\.1:[0-9]+/mcp$' <<<"$URL"

inspector --method tools/list
check "inspector: tools/list" py '[t["name"] for t in d["tools"]] == ["quarantine_security"]'
check "the schema requires operation" py 'd["tools"][0]["inputSchema"]["required"] == ["operation"]'
inspector --method tools/call --tool-name quarantine_security --tool-arg operation=list
check "inspector: list on an empty store" py 'd["isError"] is False and d["structuredContent"]["tools"] == []'
inspector --method tools/call --tool-name quarantine_security --tool-arg operation=scan_server \
    --tool-arg server=poisoned
check "inspector: scan_server" py 'd["isError"] is False'
check "scan_server reports the verdicts" \
    pyt '[x["verdict"] for x in t["tools"]] == ["clean", "quarantine", "quarantine"]'
inspector --method tools/call --tool-name quarantine_security --tool-arg operation=list
check "inspector: list shows the states" \
    pyt '{x["name"]: x["state"] for x in t["tools"]} == {"add": "pending", "send_message": "quarantined", "fetch_url": "quarantined"}'
inspector --method tools/call --tool-name quarantine_security --tool-arg operation=approve \
    --tool-arg server=poisoned --tool-arg 'tools=["add"]'
check "inspector: approve is refused" \
    pyt 'd["isError"] is True and t["error"]["code"] == "approval_disabled"'
# Without the key the Inspector gets nothing.
(cd "$NODE_MODULES" && timeout 120 "$INSPECTOR" --cli "$URL" --transport http \
    --method tools/list >"$TMP/last" 2>"$TMP/inspector.err")
check "inspector without the key fails" test $? -ne 0
check "... and lists nothing" bash -c "! grep -q quarantine_security '$TMP/last'"

# ------------------------------------------------ mcpvet's own MCP client
cat >"$TMP/client.json" <<EOF
{"mcpServers": {"mcpvet-http": {"type": "http", "url": "$URL",
  "headers": {"Authorization": "Bearer $KEY"}}}}
EOF
"$MCPVET" scan --config "$TMP/client.json" --fail-on review --format json \
    --store "$TMP/client-store.db" >"$TMP/last" 2>"$TMP/scan.err"
check "mcpvet scan of the HTTP server: exit 0 at --fail-on review" test $? -eq 0
check "... one tool, clean, no findings" \
    py '[(t["name"], t["verdict"], t["signals"]) for t in d["tools"]] == [("quarantine_security", "clean", [])]'
check "... reached over HTTP in a session (legacy handshake after the stateless probe)" \
    py 'd["servers"][0]["status"] == "ok" and d["servers"][0]["protocol_version"] == "2025-11-25"'
check "... over streamable HTTP" grep -q '"transport": *"http"' "$TMP/last"
check "the key never reaches the report" bash -c "! grep -qF '$KEY' '$TMP/last' '$TMP/scan.err'"
sed "s/$KEY/wrong-key-0123456789abcdefgh/" "$TMP/client.json" >"$TMP/client-bad.json"
"$MCPVET" scan --config "$TMP/client-bad.json" --format json --store "$TMP/client-store.db" \
    >"$TMP/last" 2>"$TMP/scan.err"
check "mcpvet scan with a wrong key: not clean (exit 3)" test $? -eq 3

# -------------------------------------------------------- curl, by hand
HOSTPORT=${URL#http://}
HOSTPORT=${HOSTPORT%/mcp}
check "foreign Host: 421" test "$(status -X POST -H "Authorization: Bearer $KEY" \
    -H 'Host: evil.example' -H 'Content-Type: application/json' --data-binary "$INIT" "$URL")" = 421
check "foreign Origin: 403" test "$(status -X POST -H "Authorization: Bearer $KEY" \
    -H 'Origin: http://evil.example' -H 'Content-Type: application/json' \
    --data-binary "$INIT" "$URL")" = 403
check "GET: 405" test "$(status -H "Authorization: Bearer $KEY" "$URL")" = 405
check "another path: 404" test "$(status -X POST -H "Authorization: Bearer $KEY" \
    -H 'Content-Type: application/json' --data-binary "$INIT" "http://$HOSTPORT/other")" = 404
check "its own Origin: 200" test "$(status -X POST -H "Authorization: Bearer $KEY" \
    -H "Origin: http://$HOSTPORT" -H 'Content-Type: application/json' \
    --data-binary "$INIT" "$URL")" = 200
SID=$(tr -d '\r' <"$TMP/hdr" | sed -n 's/^[Mm]cp-[Ss]ession-[Ii]d: //p')
check "a session id" test ${#SID} -eq 64
req() { # BODY -> status, in the session
    status -X POST -H "Authorization: Bearer $KEY" -H "Mcp-Session-Id: $SID" \
        -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \
        --data-binary "$1" "$URL"
}
check "tools/list in the session: 200" \
    test "$(req '{"jsonrpc":"2.0","id":2,"method":"tools/list"}')" = 200
check "... the tool" py 'd["result"]["tools"][0]["name"] == "quarantine_security"'
check "a notification: 202" test "$(req '{"jsonrpc":"2.0","method":"notifications/initialized"}')" = 202
check "bad JSON: 400 with a parse error" test "$(req '{"jsonrpc":')" = 400
check "... naming the byte" py 'd["error"]["code"] == -32700 and "at byte" in d["error"]["message"]'
check "DELETE: 200" test "$(status -X DELETE -H "Authorization: Bearer $KEY" \
    -H "Mcp-Session-Id: $SID" "$URL")" = 200
check "after DELETE: 404" test "$(req '{"jsonrpc":"2.0","id":3,"method":"ping"}')" = 404

# SIGTERM while a scan of a server that never answers is in flight: the
# scan runs into its --timeout (4 s), its answer is sent, then the server
# exits 0.
check "a new session for the slow scan" test "$(status -X POST -H "Authorization: Bearer $KEY" \
    -H 'Content-Type: application/json' --data-binary "$INIT" "$URL")" = 200
SID=$(tr -d '\r' <"$TMP/hdr" | sed -n 's/^[Mm]cp-[Ss]ession-[Ii]d: //p')
rm -f "$TMP/slow.pid"
curl -s -o "$TMP/slow.json" -w '%{http_code}' -X POST -H "Authorization: Bearer $KEY" \
    -H "Mcp-Session-Id: $SID" -H 'Content-Type: application/json' --data-binary \
    '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"quarantine_security","arguments":{"operation":"scan_server","server":"slow"}}}' \
    "$URL" >"$TMP/slow.status" &
SLOW=$!
for _ in $(seq 1 400); do [ -s "$TMP/slow.pid" ] && break; sleep 0.05; done
check "the slow server was started" test -s "$TMP/slow.pid"
stop
wait "$SLOW"
check "SIGTERM: exit 0" test "$STOP_RC" -eq 0
check "the scan in flight got its answer" test "$(cat "$TMP/slow.status")" = 200
check "... a report saying the server timed out" python3 -c "
import json,sys; d=json.load(open('$TMP/slow.json')); t=json.loads(d['result']['content'][0]['text'])
sys.exit(0 if t['servers'][0]['status'] == 'timeout' else 1)"
check "the stop is logged" grep -q 'mcpvet mcp: stopped' "$TMP/err"
check "the key never reaches the log" bash -c "! grep -qF '$KEY' '$TMP/err' '$TMP/out'"
"$MCPVET" security list --store "$STORE" --format json >"$TMP/last"
check "the store holds the scan" \
    py '{t["name"]: t["state"] for t in d["tools"]} == {"add": "pending", "send_message": "quarantined", "fetch_url": "quarantined"}'

# ------------------------------------------------------ --api-key-file
printf '%s\n' "$KEY" >"$TMP/keyfile"
chmod 644 "$TMP/keyfile"
"$MCPVET" mcp --listen 127.0.0.1:0 --api-key-file "$TMP/keyfile" --store "$STORE" >"$TMP/last" 2>&1
check "a key file readable by others is refused" test $? -eq 2
check "... and the error says chmod 600" grep -q 'chmod 600' "$TMP/last"
chmod 600 "$TMP/keyfile"
start --api-key-file "$TMP/keyfile" --store "$STORE" --quiet
check "started with --api-key-file" test -n "$URL"
check "the key file's key works" test "$(status -X POST -H "X-API-Key: $KEY" \
    -H 'Content-Type: application/json' --data-binary "$INIT" "$URL")" = 200
check "--quiet: no request lines" bash -c "! grep -q 'POST /mcp' '$TMP/err'"
stop
check "SIGTERM: exit 0" test "$STOP_RC" -eq 0

echo "mcp_http: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
