#!/usr/bin/env bash
# `mcpvet mcp` (issue 12) with real clients:
#   - the official MCP Inspector CLI lists quarantine_security and calls
#     list, scan_server, inspect, quarantine and a refused approve;
#   - mcpvet's own MCP client (mv_mcp_fetch through `mcpvet scan --config`)
#     reaches it, and its own description and schema scan clean even at
#     --fail-on review;
#   - the protocol by hand: version negotiation 2024-11-05..2025-11-25,
#     server/discover and _meta for 2026-07-28, ping, notifications,
#     parse errors, batches, unknown methods and tools, oversized input;
#   - approve is refused (naming `mcpvet security approve`) unless the
#     server was started with --allow-agent-approval; the audit log says
#     "mcp"; every string returned about a poisoned tool is render-safe.
set -u

MCPVET=${MCPVET:?set MCPVET to the mcpvet binary}
SRC=${MCPVET_SOURCE_DIR:?set MCPVET_SOURCE_DIR to the source tree}
FIX="$SRC/tests/fixtures"
NODE_MODULES="$SRC/tests/node/node_modules"
INSPECTOR="$NODE_MODULES/.bin/mcp-inspector-cli"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

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
unset XDG_CONFIG_HOME
mkdir -p "$HOME"
STORE="$TMP/store.db"
cat >"$TMP/mcp.json" <<EOF
{"mcpServers": {"poisoned": {"command": "python3",
  "args": ["$FIX/servers/mcp_fixture.py", "--tools", "$FIX/poisoned-tools.json"]}}}
EOF

# inspector ARGS...: the Inspector CLI against `mcpvet mcp` (its own
# package.json is looked up relative to the working directory, hence the
# cd; its own --config option would take ours, hence -c). Output (JSON) in
# $TMP/last.
inspector() {
    (cd "$NODE_MODULES" && timeout 120 "$INSPECTOR" --cli "$MCPVET" mcp --store "$STORE" \
        -c "$TMP/mcp.json" "$@" >"$TMP/last" 2>"$TMP/inspector.err")
}
py() { # EXPR over the last output parsed as `d`
    python3 -c "import json,sys; d=json.load(open('$TMP/last')); sys.exit(0 if ($1) else 1)"
}
# The tool result's text, parsed, as `t`.
pyt() {
    python3 -c "import json,sys; d=json.load(open('$TMP/last')); t=json.loads(d['content'][0]['text']); sys.exit(0 if ($1) else 1)"
}
render_safe_text() { # every decoded string of the result text is render-safe
    python3 - "$TMP/last" <<'EOF'
import json, sys, unicodedata
def strings(v):
    if isinstance(v, str):
        yield v
    elif isinstance(v, list):
        for x in v:
            yield from strings(x)
    elif isinstance(v, dict):
        for k, x in v.items():
            yield k
            yield from strings(x)
d = json.load(open(sys.argv[1]))
vals = list(strings(json.loads(d["content"][0]["text"])))
bad = [s for s in vals if any(unicodedata.category(c) in ("Cf", "Co", "Cn") or
                              (unicodedata.category(c) == "Cc" and c != "\n") for c in s)]
sys.exit(1 if bad or not vals else 0)
EOF
}

# ----------------------------------------------------- the MCP Inspector
inspector --method tools/list
check "inspector: tools/list" py '[t["name"] for t in d["tools"]] == ["quarantine_security"]'
check "the schema requires operation" \
    py 'd["tools"][0]["inputSchema"]["required"] == ["operation"] and "approve" in d["tools"][0]["inputSchema"]["properties"]["operation"]["enum"]'
inspector --method tools/call --tool-name quarantine_security --tool-arg operation=list
check "inspector: list on an empty store" py 'd["isError"] is False and d["structuredContent"]["tools"] == []'
inspector --method tools/call --tool-name quarantine_security --tool-arg operation=scan_server \
    --tool-arg server=poisoned
check "inspector: scan_server" py 'd["isError"] is False'
check "scan_server reports the verdicts" \
    pyt '[x["verdict"] for x in t["tools"]] == ["clean", "quarantine", "quarantine"]'
check "scan_server returns render-safe strings" render_safe_text
inspector --method tools/call --tool-name quarantine_security --tool-arg operation=list
check "inspector: list shows pending and quarantined tools" \
    pyt '{x["name"]: x["state"] for x in t["tools"]} == {"add": "pending", "send_message": "quarantined", "fetch_url": "quarantined"}'
inspector --method tools/call --tool-name quarantine_security --tool-arg operation=inspect \
    --tool-arg server=poisoned --tool-arg tool=send_message
check "inspector: inspect" pyt 't["state"] == "quarantined" and t["findings"] is not None and "\\u200d" in t["definition"].lower()'
check "inspect returns render-safe strings" render_safe_text
inspector --method tools/call --tool-name quarantine_security --tool-arg operation=approve \
    --tool-arg server=poisoned --tool-arg 'tools=["add"]'
check "inspector: approve is refused" py 'd["isError"] is True'
check "the refusal says how a person approves" \
    pyt 't["error"]["code"] == "approval_disabled" and "mcpvet security approve poisoned" in t["error"]["message"]'
"$MCPVET" security list --store "$STORE" --format json >"$TMP/last"
check "a refused approve approves nothing" py 'all(x["state"] != "approved" for x in d["tools"])'
inspector --method tools/call --tool-name quarantine_security --tool-arg operation=quarantine \
    --tool-arg server=poisoned --tool-arg 'tools=["add"]' --tool-arg reason=agent-flagged
check "inspector: quarantine" pyt 't["quarantined"] == 1'
inspector --method tools/call --tool-name quarantine_security --tool-arg operation=inspect \
    --tool-arg server=nope --tool-arg tool=x
check "an unknown server is a tool error" py 'd["isError"] is True'
inspector --method tools/call --tool-name quarantine_security --tool-arg operation=explode
check "an unknown operation is a tool error" \
    pyt 't["error"]["code"] == "invalid_arguments"'
"$MCPVET" security history --store "$STORE" --format json >"$TMP/last"
check "decisions through the tool are logged as mcp" \
    py 'any(e["actor"] == "mcp" and e["new_state"] == "quarantined" and e["tool"] == "add" for e in d)'

# ------------------------------------------------ mcpvet's own MCP client
cat >"$TMP/self.json" <<EOF
{"mcpServers": {"mcpvet": {"command": "$MCPVET", "args": ["mcp", "--store", "$TMP/self.db"]}}}
EOF
"$MCPVET" scan --no-store --config "$TMP/self.json" --fail-on review --format json >"$TMP/last" 2>"$TMP/err"
RC=$?
check "mcpvet's own client scans mcpvet mcp (exit 0 at --fail-on review)" test $RC -eq 0
check "it reached the server and found the tool" \
    py 'd["servers"][0]["status"] == "ok" and [t["name"] for t in d["tools"]] == ["quarantine_security"]'
check "its own description and schema scan clean, without any signal" \
    py 'd["tools"][0]["verdict"] == "clean" and d["tools"][0]["signals"] == []'
check "the client agreed on the stateless 2026-07-28 protocol" \
    py 'd["servers"][0]["protocol_version"] == "2026-07-28"'

# ------------------------------------------------------ protocol by hand
# rpc LINES...: feed lines to `mcpvet mcp`, replies in $TMP/last (one per line).
rpc() {
    printf '%s\n' "$@" | "$MCPVET" mcp --store "$TMP/proto.db" "${RPC_ARGS[@]}" >"$TMP/last" 2>"$TMP/err"
}
RPC_ARGS=()
lines() { # EXPR over the replies as list `r`
    python3 -c "import json,sys; r=[json.loads(l) for l in open('$TMP/last')]; sys.exit(0 if ($1) else 1)"
}
for v in 2024-11-05 2025-03-26 2025-06-18 2025-11-25; do
    rpc "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"$v\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}"
    check "initialize $v is accepted as is" lines "r[0]['result']['protocolVersion'] == '$v'"
done
rpc '{"jsonrpc":"2.0","id":"a","method":"initialize","params":{"protocolVersion":"1999-01-01","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}'
check "an unknown version gets the newest" lines "r[0]['id'] == 'a' and r[0]['result']['protocolVersion'] == '2025-11-25'"
rpc '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2024-11-05","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}' \
    '{"jsonrpc":"2.0","method":"notifications/initialized"}' \
    '{"jsonrpc":"2.0","id":2,"method":"ping"}' \
    '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"quarantine_security","arguments":{"operation":"list"}}}' \
    '{"jsonrpc":"2.0","id":4,"method":"resources/list"}' \
    '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"other_tool","arguments":{}}}' \
    'this is not json' \
    '[{"jsonrpc":"2.0","id":6,"method":"ping"}]' \
    '{"jsonrpc":"1.0","id":7,"method":"ping"}'
check "notifications get no reply; every request one, in order" \
    lines "[x.get('id') for x in r] == [1, 2, 3, 4, 5, None, None, 7]"
check "ping answers {}" lines "r[1]['result'] == {}"
check "2024-11-05 results have no structuredContent" lines "'structuredContent' not in r[2]['result'] and r[2]['result']['isError'] is False"
check "an unknown method: -32601" lines "r[3]['error']['code'] == -32601"
check "an unknown tool: -32602" lines "r[4]['error']['code'] == -32602"
check "garbage: -32700" lines "r[5]['error']['code'] == -32700"
check "a batch: -32600" lines "r[6]['error']['code'] == -32600"
check "a wrong jsonrpc: -32600" lines "r[7]['error']['code'] == -32600"
rpc '{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}' \
    '{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}' \
    '{"jsonrpc":"2.0","id":3,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2030-01-01","io.modelcontextprotocol/clientCapabilities":{}}}}'
check "server/discover lists 2026-07-28 and the legacy versions" \
    lines "r[0]['result']['supportedVersions'][0] == '2026-07-28' and '2024-11-05' in r[0]['result']['supportedVersions'] and r[0]['result']['resultType'] == 'complete'"
check "stateless tools/list carries resultType" lines "r[1]['result']['resultType'] == 'complete' and len(r[1]['result']['tools']) == 1"
check "an unsupported modern version: -32022 with the supported list" \
    lines "r[2]['error']['code'] == -32022 and '2026-07-28' in r[2]['error']['data']['supported']"
head -c 20000000 /dev/zero | tr '\0' 'a' >"$TMP/huge"
{ cat "$TMP/huge"; printf '\n{"jsonrpc":"2.0","id":9,"method":"ping"}\n'; } |
    "$MCPVET" mcp --store "$TMP/proto.db" >"$TMP/last" 2>"$TMP/err"
check "a line over 16 MiB is refused and the next one served" \
    lines "r[0]['error']['code'] == -32700 and r[1]['id'] == 9"

# ------------------------------------------- approval when a person allows it
cp "$STORE" "$TMP/allow.db"
printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}' \
    '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"quarantine_security","arguments":{"operation":"approve","server":"poisoned","tools":["fetch_url"]}}}' \
    '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"quarantine_security","arguments":{"operation":"approve","server":"poisoned","tools":["fetch_url"],"force":true}}}' |
    "$MCPVET" mcp --store "$TMP/allow.db" --allow-agent-approval >"$TMP/last" 2>"$TMP/err"
check "with --allow-agent-approval a quarantined tool still needs force" \
    lines "r[1]['result']['isError'] is True and r[1]['result']['structuredContent']['error']['code'] == 'quarantined'"
check "and with force it is approved" \
    lines "r[2]['result']['isError'] is False and r[2]['result']['structuredContent']['forced'] == ['fetch_url']"
"$MCPVET" security list --store "$TMP/allow.db" --format json >"$TMP/last"
check "the store has the approval" py '{x["name"]: x["state"] for x in d["tools"]}["fetch_url"] == "approved"'

echo "mcpserver: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
