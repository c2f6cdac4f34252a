#!/usr/bin/env bash
# The same poisoned fixture server through the three entry points of
# issue 12 -- the CLI (`mcpvet security scan`), the REST API (POST
# /api/v1/servers/poisoned/scan) and the MCP tool (scan_server) -- each
# into its own fresh store: the verdicts, the states after the scan and
# the states each store then holds must be the same, tool for tool.
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

for s in cli rest mcp; do
    "$MCPVET" security list --store "$TMP/$s.db" --format json >"$TMP/$s.list"
done

check "the same verdicts and states through all three" python3 - "$TMP" <<'EOF'
import json, sys
tmp = sys.argv[1]
def report(path):
    d = json.load(open(path))
    return {(t["server"], t["name"]): (t["verdict"], (t.get("state") or {}).get("state"))
            for t in d["tools"]}
def stored(path):
    d = json.load(open(path))
    return {(t["server"], t["name"]): (t["state"], t["verdict"], t["current_pin"]) for t in d["tools"]}
cli, rest, mcp = (report("%s/%s" % (tmp, f)) for f in ("cli.json", "rest.json", "mcp.json.out"))
want = {("poisoned", "add"): ("clean", "pending"),
        ("poisoned", "send_message"): ("quarantine", "quarantined"),
        ("poisoned", "fetch_url"): ("quarantine", "quarantined")}
ok = True
for name, got in (("cli", cli), ("rest", rest), ("mcp", mcp)):
    if got != want:
        print("%s report: %r" % (name, got)); ok = False
sums = [json.load(open("%s/%s" % (tmp, f)))["summary"] for f in ("cli.json", "rest.json", "mcp.json.out")]
if not (sums[0] == sums[1] == sums[2]) or sums[0]["exit_code"] != 1:
    print("summaries differ: %r" % sums); ok = False
lists = [stored("%s/%s.list" % (tmp, s)) for s in ("cli", "rest", "mcp")]
if not (lists[0] == lists[1] == lists[2]) or len(lists[0]) != 3:
    print("stores differ: %r" % lists); ok = False
sys.exit(0 if ok else 1)
EOF
check "each store logged its own actor" python3 - "$TMP" "$MCPVET" <<'EOF'
import json, subprocess, sys
tmp, mcpvet = sys.argv[1], sys.argv[2]
for store, actor in (("cli", "cli"), ("rest", "rest"), ("mcp", "mcp")):
    ev = json.loads(subprocess.check_output([mcpvet, "security", "history", "--store",
                                             "%s/%s.db" % (tmp, store), "--format", "json"]))
    if not ev or any(e["actor"] != actor for e in ev):
        sys.exit(1)
EOF

echo "three_ways: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
