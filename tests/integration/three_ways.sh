#!/usr/bin/env bash
# The same poisoned fixture server through the entry points of issue 12
# -- the CLI (`mcpvet security scan`), the REST API (POST
# /api/v1/servers/poisoned/scan), the MCP tool (scan_server) over stdio
# and, a fourth way, the same tool over streamable HTTP (`mcpvet mcp
# --listen`) -- each into its own fresh store: the verdicts, the states
# after the scan and the states each store then holds must be the same,
# tool for tool.
set -u

MCPVET=${MCPVET:?set MCPVET to the mcpvet binary}
SRC=${MCPVET_SOURCE_DIR:?set MCPVET_SOURCE_DIR to the source tree}
FIX="$SRC/tests/fixtures"
TMP=$(mktemp -d)
SERVER_PID=""
cleanup() {
    if [ -n "$SERVER_PID" ]; then kill "$SERVER_PID" 2>/dev/null; wait "$SERVER_PID" 2>/dev/null; fi
    rm -rf "$TMP"
}
trap cleanup EXIT
passed=0
failed=0
check() {
    local name=$1
    shift
    if "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $name" >&2; fi
}

export HOME="$TMP/home" XDG_STATE_HOME="$TMP/state"
unset XDG_CONFIG_HOME MCPVET_API_KEY
mkdir -p "$HOME"
cat >"$TMP/mcp.json" <<EOF
{"mcpServers": {"poisoned": {"command": "python3",
  "args": ["$FIX/servers/mcp_fixture.py", "--tools", "$FIX/poisoned-tools.json"]}}}
EOF

# 1. CLI
"$MCPVET" security scan poisoned --config "$TMP/mcp.json" --store "$TMP/cli.db" --format json \
    >"$TMP/cli.json" 2>"$TMP/cli.err"
check "CLI: security scan exits 1 (quarantined tools)" test $? -eq 1

# 2. REST
"$MCPVET" serve --store "$TMP/rest.db" --config "$TMP/mcp.json" --quiet >"$TMP/out" 2>"$TMP/err" &
SERVER_PID=$!
BASE=""
for _ in $(seq 1 200); do
    BASE=$(grep -o 'http://127\.0\.0\.1:[0-9]*' "$TMP/out" 2>/dev/null | head -1)
    [ -n "$BASE" ] && break
    sleep 0.05
done
KEY=$(tr -d '\n' <"$XDG_STATE_HOME/mcpvet/api-key")
STATUS=$(curl -s -o "$TMP/rest.json" -w '%{http_code}' -X POST -H "X-API-Key: $KEY" \
    "$BASE/api/v1/servers/poisoned/scan")
check "REST: 200" test "$STATUS" = 200
kill -TERM "$SERVER_PID"
wait "$SERVER_PID"
check "REST: clean shutdown" test $? -eq 0
SERVER_PID=""

# 3. MCP tool
printf '%s\n' \
    '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}' \
    '{"jsonrpc":"2.0","method":"notifications/initialized"}' \
    '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"quarantine_security","arguments":{"operation":"scan_server","server":"poisoned"}}}' |
    "$MCPVET" mcp --store "$TMP/mcp.db" --config "$TMP/mcp.json" >"$TMP/mcp.out" 2>"$TMP/mcp.err"
python3 -c "
import json; r=[json.loads(l) for l in open('$TMP/mcp.out')]
open('$TMP/mcp.json.out','w').write(r[1]['result']['content'][0]['text'])"
check "MCP: a report came back" test -s "$TMP/mcp.json.out"

# 4. MCP tool over streamable HTTP
MCPVET_API_KEY=three-ways-http-key-0123456789 "$MCPVET" mcp --listen 127.0.0.1:0 --quiet \
    --store "$TMP/mcphttp.db" --config "$TMP/mcp.json" >"$TMP/out" 2>"$TMP/err" &
SERVER_PID=$!
URL=""
for _ in $(seq 1 200); do
    URL=$(grep -o 'http://127\.0\.0\.1:[0-9]*/mcp' "$TMP/out" 2>/dev/null | head -1)
    [ -n "$URL" ] && break
    sleep 0.05
done
post() { # BODY [SESSION]: the reply body in $TMP/http.body, headers in $TMP/http.hdr
    curl -s -D "$TMP/http.hdr" -o "$TMP/http.body" -w '%{http_code}' -X POST \
        -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \
        -H 'Authorization: Bearer three-ways-http-key-0123456789' \
        ${2:+-H "Mcp-Session-Id: $2"} --data-binary "$1" "$URL"
}
STATUS=$(post '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}')
SID=$(tr -d '\r' <"$TMP/http.hdr" | sed -n 's/^[Mm]cp-[Ss]ession-[Ii]d: //p')
check "MCP over HTTP: initialize gives a session" test "$STATUS" = 200 -a -n "$SID"
STATUS=$(post '{"jsonrpc":"2.0","method":"notifications/initialized"}' "$SID")
check "MCP over HTTP: 202 for the notification" test "$STATUS" = 202
STATUS=$(post '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"quarantine_security","arguments":{"operation":"scan_server","server":"poisoned"}}}' "$SID")
check "MCP over HTTP: 200" test "$STATUS" = 200
python3 -c "
import json; r=json.load(open('$TMP/http.body'))
open('$TMP/mcphttp.json.out','w').write(r['result']['content'][0]['text'])"
check "MCP over HTTP: a report came back" test -s "$TMP/mcphttp.json.out"
kill -TERM "$SERVER_PID"
wait "$SERVER_PID"
check "MCP over HTTP: clean shutdown" test $? -eq 0
SERVER_PID=""

for s in cli rest mcp mcphttp; do
    "$MCPVET" security list --store "$TMP/$s.db" --format json >"$TMP/$s.list"
done

check "the same verdicts and states through all four" python3 - "$TMP" <<'EOF'
import json, sys
tmp = sys.argv[1]
def report(path):
    d = json.load(open(path))
    return {(t["server"], t["name"]): (t["verdict"], (t.get("state") or {}).get("state"))
            for t in d["tools"]}
def stored(path):
    d = json.load(open(path))
    return {(t["server"], t["name"]): (t["state"], t["verdict"], t["current_pin"]) for t in d["tools"]}
files = ("cli.json", "rest.json", "mcp.json.out", "mcphttp.json.out")
cli, rest, mcp, http = (report("%s/%s" % (tmp, f)) for f in files)
want = {("poisoned", "add"): ("clean", "pending"),
        ("poisoned", "send_message"): ("quarantine", "quarantined"),
        ("poisoned", "fetch_url"): ("quarantine", "quarantined")}
ok = True
for name, got in (("cli", cli), ("rest", rest), ("mcp", mcp), ("mcp over http", http)):
    if got != want:
        print("%s report: %r" % (name, got)); ok = False
sums = [json.load(open("%s/%s" % (tmp, f)))["summary"] for f in files]
if not (sums[0] == sums[1] == sums[2] == sums[3]) or sums[0]["exit_code"] != 1:
    print("summaries differ: %r" % sums); ok = False
lists = [stored("%s/%s.list" % (tmp, s)) for s in ("cli", "rest", "mcp", "mcphttp")]
if not (lists[0] == lists[1] == lists[2] == lists[3]) or len(lists[0]) != 3:
    print("stores differ: %r" % lists); ok = False
sys.exit(0 if ok else 1)
EOF
check "each store logged its own actor" python3 - "$TMP" "$MCPVET" <<'EOF'
import json, subprocess, sys
tmp, mcpvet = sys.argv[1], sys.argv[2]
for store, actor in (("cli", "cli"), ("rest", "rest"), ("mcp", "mcp"), ("mcphttp", "mcp")):
    ev = json.loads(subprocess.check_output([mcpvet, "security", "history", "--store",
                                             "%s/%s.db" % (tmp, store), "--format", "json"]))
    if not ev or any(e["actor"] != actor for e in ev):
        sys.exit(1)
EOF

echo "three_ways: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
