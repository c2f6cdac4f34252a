#!/usr/bin/env bash
# `mcpvet serve` (issue 12) driven with curl on a random loopback port:
#   - every endpoint: inline scans answer byte for byte what the CLI prints,
#     a configured (poisoned fixture) server is scanned into the store,
#     tools, inspect, diff, approve (409 without force), quarantine, events
#     (actor "rest"), servers, openapi.json;
#   - every error status: 400 (with line and column), 401, 403, 404, 405,
#     413 (declared and chunked), 421, 429 with Retry-After;
#   - key rules: generated 0600 and never printed, file and MCPVET_API_KEY,
#     loose permissions refused, remote binds refused without the flag and
#     a key of one's own, constant answers for wrong keys;
#   - every recorded response validates against the served OpenAPI document;
#   - SIGTERM lets a scan in flight finish, then the server exits 0;
#   - the whole-request deadline: a client sending its body one byte a
#     second (never idle) is cut at --request-timeout, while others are
#     served meanwhile;
#   - no secret (config env value, API key) in any response or log.
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
ok() { passed=$((passed + 1)); }
bad() {
    failed=$((failed + 1))
    echo "FAIL: $1" >&2
    [ -f "$TMP/last.json" ] && echo "  body: $(head -c 600 "$TMP/last.json")" >&2
}
check() { # NAME COMMAND...
    local name=$1
    shift
    if "$@"; then ok; else bad "$name"; fi
}

export HOME="$TMP/home" XDG_STATE_HOME="$TMP/state"
unset MCPVET_API_KEY XDG_CONFIG_HOME
mkdir -p "$HOME" "$TMP/resp"
SECRET="sekret-$RANDOM-value-do-not-print"
cat >"$TMP/mcp.json" <<EOF
{"mcpServers": {
  "poisoned": {"command": "python3",
               "args": ["$FIX/servers/mcp_fixture.py", "--tools", "$FIX/poisoned-tools.json"],
               "env": {"FIXTURE_TOKEN": "$SECRET"}},
  "slow": {"command": "python3", "args": ["$FIX/servers/mcp_fixture.py", "--misbehave", "hang"],
           "env": {"MCPVET_FIXTURE_PIDFILE": "$TMP/slow.pid"}}
}}
EOF

# start_server OUT ERR ARGS...: start in the background, wait for the
# listening line, set SERVER_PID and BASE.
start_server() {
    local out=$1 err=$2
    shift 2
    "$MCPVET" serve "$@" >"$out" 2>"$err" &
    SERVER_PID=$!
    for _ in $(seq 1 200); do
        BASE=$(grep -o 'http://127\.0\.0\.1:[0-9]*' "$out" 2>/dev/null | head -1)
        [ -n "$BASE" ] && return 0
        kill -0 "$SERVER_PID" 2>/dev/null || break
        sleep 0.05
    done
    echo "FAIL: the server did not start: $(cat "$err")" >&2
    exit 1
}

stop_server() { # expects exit status 0
    kill -TERM "$SERVER_PID"
    wait "$SERVER_PID"
    local rc=$?
    SERVER_PID=""
    return $rc
}

# req NAME METHOD TEMPLATE PATH [curl args...]: body to $TMP/resp/NAME.json
# (and $TMP/last.json), status in $STATUS, headers in $TMP/headers.
req() {
    local name=$1 method=$2 template=$3 path=$4
    shift 4
    local auth=(-H "X-API-Key: $KEY")
    [ -n "${NOKEY:-}" ] && auth=()
    STATUS=$(curl -s -o "$TMP/last.json" -D "$TMP/headers" -w '%{http_code}' -X "$method" \
        "${auth[@]}" "$@" "$BASE$path")
    cp "$TMP/last.json" "$TMP/resp/$name.json"
    echo "$method $template $STATUS" >"$TMP/resp/$name.meta"
}
jq_py() { # EXPR: evaluate a Python expression over the last body as `d`
    python3 -c "import json,sys; d=json.load(open('$TMP/last.json')); sys.exit(0 if ($1) else 1)"
}
status_is() { [ "$STATUS" = "$1" ]; }
not_secret_in() { ! grep -q -e "$SECRET" -e "$KEY" "$@"; }

# render_safe FILE: no decoded string of the JSON holds an invisible,
# format or control character (they must arrive as visible \uXXXX text).
render_safe() {
    python3 - "$1" <<'EOF'
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
bad = [s for s in strings(json.load(open(sys.argv[1], encoding="utf-8")))
       if any(unicodedata.category(c) in ("Cf", "Co", "Cn") or
              (unicodedata.category(c) == "Cc" and c != "\n") for c in s)]
sys.exit(1 if bad else 0)
EOF
}

# ---------------------------------------------------------------- key rules
OUT="$TMP/out" ERR="$TMP/err"
start_server "$OUT" "$ERR" --store "$TMP/store.db" --config "$TMP/mcp.json" \
    --max-body 65536 --max-scans 1 --timeout 4
KEYFILE="$XDG_STATE_HOME/mcpvet/api-key"
check "a key file is generated" test -s "$KEYFILE"
check "the key file is 0600" test "$(stat -c %a "$KEYFILE")" = 600
check "its path is printed" grep -q "generated an API key in $KEYFILE" "$OUT"
KEY=$(tr -d '\n' <"$KEYFILE")
check "the key is 64 hex digits" test "${#KEY}" -eq 64

NOKEY=1 req health GET /healthz /healthz
check "healthz needs no key" status_is 200
NOKEY=1 req nokey GET /api/v1/servers /api/v1/servers
check "no key: 401" status_is 401
check "401 names the scheme" grep -qi '^WWW-Authenticate: Bearer' "$TMP/headers"
check "401 is a JSON error" jq_py 'd["error"]["code"] == "unauthorized"'
STATUS=$(curl -s -o /dev/null -w '%{http_code}' -H "X-API-Key: ${KEY}x" "$BASE/api/v1/servers")
check "wrong key (one extra character): 401" status_is 401
STATUS=$(curl -s -o /dev/null -w '%{http_code}' -H "X-API-Key: ${KEY:0:63}" "$BASE/api/v1/servers")
check "wrong key (a prefix): 401" status_is 401
STATUS=$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $KEY" "$BASE/api/v1/servers")
check "Authorization: Bearer works" status_is 200
STATUS=$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Basic $KEY" "$BASE/api/v1/servers")
check "Authorization: Basic is not the key: 401" status_is 401
STATUS=$(curl -s -o /dev/null -w '%{http_code}' "$BASE/api/v1/openapi.json")
check "even the OpenAPI document needs the key" status_is 401

# ------------------------------------------------------------- Host, Origin
STATUS=$(curl -s -o /dev/null -w '%{http_code}' -H "Host: evil.example:${BASE##*:}" "$BASE/healthz")
check "a foreign Host: 421" status_is 421
STATUS=$(curl -s -o /dev/null -w '%{http_code}' -H "Host: 127.0.0.1:1" -H "X-API-Key: $KEY" \
    "$BASE/api/v1/servers")
check "the right host on another port: 421" status_is 421
STATUS=$(curl -s -o /dev/null -w '%{http_code}' -H "Host: localhost:${BASE##*:}" "$BASE/healthz")
check "Host localhost:PORT is this server" status_is 200
STATUS=$(curl -s -o /dev/null -w '%{http_code}' -H "Origin: http://evil.example" \
    -H "X-API-Key: $KEY" "$BASE/api/v1/servers")
check "a foreign Origin: 403, even with the key" status_is 403
STATUS=$(curl -s -o /dev/null -w '%{http_code}' -H "Origin: null" "$BASE/healthz")
check "Origin null: 403" status_is 403
STATUS=$(curl -s -o /dev/null -w '%{http_code}' -H "Origin: $BASE" -H "X-API-Key: $KEY" \
    "$BASE/api/v1/servers")
check "its own Origin is accepted" status_is 200

# ------------------------------------------------------------- inline scans
req scan POST /api/v1/scan /api/v1/scan --data-binary "@$FIX/poisoned-tools.json"
"$MCPVET" scan --no-store --tools - --format json <"$FIX/poisoned-tools.json" >"$TMP/cli.json"
check "POST /scan: 200" status_is 200
check "POST /scan is byte for byte the CLI report" cmp -s "$TMP/last.json" "$TMP/cli.json"
check "the poisoned tools are quarantined" \
    jq_py '[t["verdict"] for t in d["tools"]] == ["clean", "quarantine", "quarantine"]'
req scan_named POST /api/v1/scan '/api/v1/scan?server=my%20srv&fail_on=review' \
    --data-binary "@$FIX/poisoned-tools.json"
"$MCPVET" scan --no-store --tools - --server "my srv" --fail-on review --format json \
    <"$FIX/poisoned-tools.json" >"$TMP/cli2.json"
check "server and fail_on match the CLI's --server and --fail-on" cmp -s "$TMP/last.json" "$TMP/cli2.json"
# One engine serves every scan: concurrent scans of different bodies each
# still answer exactly what the CLI prints for their bytes (this server
# runs one scan at a time: a refused one is retried after its Retry-After).
PAR_PIDS=""
for i in 1 2 3 4; do
    if [ $((i % 2)) -eq 0 ]; then body="$FIX/poisoned-tools.json"; want="$TMP/cli.json"
    else body="$SRC/examples/demo-snapshot.json"; want="$TMP/cli_demo.json"; fi
    curl -s --retry 30 --retry-max-time 120 -o "$TMP/par$i.json" -H "X-API-Key: $KEY" \
        --data-binary "@$body" "$BASE/api/v1/scan" &
    PAR_PIDS="$PAR_PIDS $!"
    echo "$want" >"$TMP/par$i.want"
done
"$MCPVET" scan --no-store --tools - --format json <"$SRC/examples/demo-snapshot.json" \
    >"$TMP/cli_demo.json"
for p in $PAR_PIDS; do wait "$p"; done
check "concurrent scans with the shared engine: byte for byte the CLI's" sh -c "
    for i in 1 2 3 4; do cmp -s \"$TMP/par\$i.json\" \"\$(cat \"$TMP/par\$i.want\")\" || exit 1; done"
check "... and the two bodies differ" sh -c "! cmp -s '$TMP/cli.json' '$TMP/cli_demo.json'"
printf '{"tools": [\n  {"name": "a",\n   "description": "x",,}\n]}' >"$TMP/broken.json"
req bad_json POST /api/v1/scan /api/v1/scan --data-binary "@$TMP/broken.json"
check "malformed JSON: 400" status_is 400
check "with line and column" jq_py 'd["error"]["code"] == "invalid_json" and d["error"]["line"] == 3 and d["error"]["column"] == 23'
printf '{"tools": [{"name": "a", "name": "b"}]}' >"$TMP/dup.json"
req dup_key POST /api/v1/scan /api/v1/scan --data-binary "@$TMP/dup.json"
check "a duplicate key is malformed too: 400" status_is 400
req bad_shape POST /api/v1/scan /api/v1/scan --data-binary '{"tools": 5}'
check "a bad shape: 400 naming the field" jq_py 'd["error"]["code"] == "invalid_input" and "tools" in d["error"]["message"]'
req empty_body POST /api/v1/scan /api/v1/scan
check "no body: 400" status_is 400
req no_such_server POST /api/v1/scan '/api/v1/scan?server=nope' \
    --data-binary '{"servers": [{"name": "a", "tools": [{"name": "t", "inputSchema": {"type": "object"}}]}]}'
check "a snapshot without that server: 400" status_is 400
head -c 70000 /dev/zero | tr '\0' ' ' >"$TMP/big.json"
req too_large POST /api/v1/scan /api/v1/scan --data-binary "@$TMP/big.json"
check "a body over --max-body: 413" status_is 413
STATUS=$(curl -s -o "$TMP/last.json" -w '%{http_code}' -H "X-API-Key: $KEY" \
    -H "Transfer-Encoding: chunked" --data-binary "@$TMP/big.json" "$BASE/api/v1/scan")
check "a chunked body over --max-body: 413" status_is 413
req bad_fail_on POST /api/v1/scan '/api/v1/scan?fail_on=never' --data-binary "@$FIX/poisoned-tools.json"
check "a bad fail_on: 400" status_is 400

# ------------------------------------------------------------ wrong routes
req wrong_method DELETE /api/v1/servers /api/v1/servers
check "a wrong method: 405" status_is 405
check "405 says which method" grep -qi '^Allow: GET' "$TMP/headers"
req wrong_method_scan GET /api/v1/scan /api/v1/scan
check "GET /scan: 405 with Allow: POST" grep -qi '^Allow: POST' "$TMP/headers"
STATUS=$(curl -s -o "$TMP/last.json" -w '%{http_code}' -H "X-API-Key: $KEY" "$BASE/api/v1/nothing")
check "an unknown endpoint: 404" status_is 404
STATUS=$(curl -s -o "$TMP/last.json" -w '%{http_code}' -H "X-API-Key: $KEY" "$BASE/api/v1/servers/%zz/tools")
check "a bad percent escape: 400" status_is 400

# ------------------------------------------------- the store through REST
req servers_empty GET /api/v1/servers /api/v1/servers
check "servers: 200" status_is 200
check "the configured servers are listed, the store is empty" \
    jq_py 'd["servers"] == [] and sorted(c["name"] for c in d["configured"]) == ["poisoned", "slow"]'
check "config env values are not shown" not_secret_in "$TMP/last.json"
req unknown_tools GET '/api/v1/servers/{name}/tools' /api/v1/servers/nope/tools
check "tools of an unknown server: 404" status_is 404
req unknown_scan POST '/api/v1/servers/{name}/scan' /api/v1/servers/nope/scan
check "scan of an unconfigured server: 404" status_is 404

req server_scan POST '/api/v1/servers/{name}/scan' /api/v1/servers/poisoned/scan
check "POST /servers/poisoned/scan: 200" status_is 200
check "the report has the verdicts" \
    jq_py '[t["verdict"] for t in d["tools"]] == ["clean", "quarantine", "quarantine"]'
req tools GET '/api/v1/servers/{name}/tools' /api/v1/servers/poisoned/tools
check "tools: 200" status_is 200
check "states after the first scan" \
    jq_py '{t["name"]: t["state"] for t in d["tools"]} == {"add": "pending", "send_message": "quarantined", "fetch_url": "quarantined"}'
check "findings are recorded for the quarantined" \
    jq_py 'all(t["findings"] is not None for t in d["tools"] if t["state"] == "quarantined")'
check "hidden characters are escaped text, never raw" render_safe "$TMP/last.json"
req tools_state GET '/api/v1/servers/{name}/tools' '/api/v1/servers/poisoned/tools?state=pending'
check "tools?state=pending" jq_py '[t["name"] for t in d["tools"]] == ["add"]'
req tools_bad_state GET '/api/v1/servers/{name}/tools' '/api/v1/servers/poisoned/tools?state=odd'
check "an unknown state: 400" status_is 400
req inspect GET '/api/v1/servers/{name}/tools/{tool}' /api/v1/servers/poisoned/tools/send_message
check "inspect: 200" status_is 200
check "inspect is render-safe" render_safe "$TMP/last.json"
check "inspect shows the definition render-safe" \
    jq_py 'd["never_approved"] and "\\u200d" in d["definition"].lower() and d["state"] == "quarantined"'
req diff GET '/api/v1/servers/{name}/tools/{tool}/diff' /api/v1/servers/poisoned/tools/add/diff
check "diff: 200" status_is 200
check "diff of a never approved tool shows it whole" jq_py 'd["never_approved"] and d["diff"].startswith("--- approved")'
req diff_unknown GET '/api/v1/servers/{name}/tools/{tool}/diff' /api/v1/servers/poisoned/tools/nope/diff
check "diff of an unknown tool: 404" status_is 404

req approve_q POST '/api/v1/servers/{name}/approve' /api/v1/servers/poisoned/approve \
    --data-binary '{"tools": ["add", "send_message"]}'
check "approving a quarantined tool without force: 409" status_is 409
check "409 lists it with its findings" \
    jq_py '[t["name"] for t in d["error"]["tools"]] == ["send_message"] and d["error"]["tools"][0]["findings"] is not None'
req tools_after_refusal GET '/api/v1/servers/{name}/tools' '/api/v1/servers/poisoned/tools?state=pending'
check "a refused approval approves nothing" jq_py '[t["name"] for t in d["tools"]] == ["add"]'
req approve_bad_json POST '/api/v1/servers/{name}/approve' /api/v1/servers/poisoned/approve \
    --data-binary '{"tools": ["add"'
check "approve with malformed JSON: 400" status_is 400
req approve_neither POST '/api/v1/servers/{name}/approve' /api/v1/servers/poisoned/approve \
    --data-binary '{"force": true}'
check "approve of neither tools nor all: 400" status_is 400
req approve_unknown_tool POST '/api/v1/servers/{name}/approve' /api/v1/servers/poisoned/approve \
    --data-binary '{"tools": ["nope"]}'
check "approve of an unknown tool: 404" status_is 404
req approve_unknown POST '/api/v1/servers/{name}/approve' /api/v1/servers/nope/approve \
    --data-binary '{"all": true}'
check "approve on an unknown server: 404" status_is 404
req approve POST '/api/v1/servers/{name}/approve' /api/v1/servers/poisoned/approve \
    --data-binary '{"tools": ["add"]}'
check "approve: 200" jq_py 'd["approved"] == 1 and d["forced"] == []'
req approve_force POST '/api/v1/servers/{name}/approve' /api/v1/servers/poisoned/approve \
    --data-binary '{"tools": ["fetch_url"], "force": true, "reason": "reviewed by hand"}'
check "approve with force: 200, named as forced" jq_py 'd["forced"] == ["fetch_url"]'
req quarantine POST '/api/v1/servers/{name}/quarantine' /api/v1/servers/poisoned/quarantine \
    --data-binary '{"tools": ["add"], "reason": "suspicious"}'
check "quarantine: 200" jq_py 'd["quarantined"] == 1'
req quarantine_unknown POST '/api/v1/servers/{name}/quarantine' /api/v1/servers/nope/quarantine
check "quarantine on an unknown server: 404" status_is 404
req events GET /api/v1/events '/api/v1/events?server=poisoned'
check "events: 200" status_is 200
check "the decisions are in the audit log as rest" \
    jq_py 'any(e["actor"] == "rest" and e["tool"] == "add" and e["new_state"] == "quarantined" for e in d["events"]) and all(e["actor"] == "rest" for e in d["events"])'
req events_limit GET /api/v1/events '/api/v1/events?limit=1'
check "events?limit=1" jq_py 'len(d["events"]) == 1'
req events_bad GET /api/v1/events '/api/v1/events?limit=0'
check "a bad limit: 400" status_is 400
req servers GET /api/v1/servers /api/v1/servers
check "the scanned server is in the store" \
    jq_py 'd["servers"][0]["name"] == "poisoned" and d["servers"][0]["states"]["quarantined"] == 2'
req openapi GET /api/v1/openapi.json /api/v1/openapi.json
check "openapi.json is the embedded document" cmp -s "$TMP/last.json" "$SRC/src/server/openapi.json"
"$MCPVET" security list --store "$TMP/store.db" --format json >"$TMP/cli_list.json"
check "the CLI sees the same states" python3 - "$TMP/cli_list.json" "$TMP/resp/tools.json" <<'EOF'
import json, sys
cli = {t["name"]: t["state"] for t in json.load(open(sys.argv[1]))["tools"]}
sys.exit(0 if cli == {"add": "quarantined", "send_message": "quarantined", "fetch_url": "approved"} else 1)
EOF

# ------------------------------------------ review queue and CSRF (issue 16)
req queue GET /api/v1/queue /api/v1/queue
check "queue: 200" status_is 200
check "queue: the two quarantined tools, counted" \
    jq_py 'd["total"] == 2 and d["counts"] == {"pending": 0, "changed": 0, "quarantined": 2} and sorted(t["name"] for t in d["tools"]) == ["add", "send_message"] and d["servers"] == [{"name": "poisoned", "pending": 0, "changed": 0, "quarantined": 2}]'
req queue_paged GET /api/v1/queue '/api/v1/queue?state=quarantined&server=poisoned&per_page=1&page=2'
check "queue: paged on the server" jq_py 'd["total"] == 2 and d["pages"] == 2 and len(d["tools"]) == 1 and d["page"] == 2'
req queue_none GET /api/v1/queue '/api/v1/queue?state=pending'
check "queue: a filter without hits is empty" jq_py 'd["total"] == 0 and d["tools"] == [] and d["counts"]["quarantined"] == 2'
req queue_bad GET /api/v1/queue '/api/v1/queue?state=approved'
check "queue: a state outside the queue is 400" status_is 400
req queue_badpage GET /api/v1/queue '/api/v1/queue?per_page=0'
check "queue: per_page 0 is 400" status_is 400
NOKEY=1 req csrf_nokey GET /api/v1/csrf /api/v1/csrf
check "csrf without the key: 401" status_is 401
req csrf GET /api/v1/csrf /api/v1/csrf
check "csrf: 200 with a token" jq_py 'len(d["csrf_token"]) == 64'
CSRF=$(python3 -c "import json; print(json.load(open('$TMP/last.json'))['csrf_token'])")
req csrf_missing POST '/api/v1/servers/{name}/quarantine' /api/v1/servers/poisoned/quarantine \
    -H "Origin: $BASE" --data-binary '{"tools":["add"]}'
check "a browser POST without the CSRF token: 403" status_is 403
check "with code csrf" jq_py 'd["error"]["code"] == "csrf"'
req csrf_wrong POST '/api/v1/servers/{name}/quarantine' /api/v1/servers/poisoned/quarantine \
    -H "X-CSRF-Token: 0000" --data-binary '{"tools":["add"]}'
check "a wrong CSRF token: 403, even without Origin" status_is 403
req web_quarantine POST '/api/v1/servers/{name}/quarantine' /api/v1/servers/poisoned/quarantine \
    -H "Origin: $BASE" -H "X-CSRF-Token: $CSRF" --data-binary '{"tools":["send_message"]}'
check "a browser POST with the token: 200" status_is 200
req events_web GET /api/v1/events '/api/v1/events?server=poisoned&tool=send_message'
check "the page's decision is audited as web" \
    jq_py 'd["events"][-1]["actor"] == "web" and d["events"][-1]["reason"] == "quarantined on the review page"'
STATUS=$(curl -s -o "$TMP/index.html" -D "$TMP/headers" -w '%{http_code}' "$BASE/")
check "the review page: 200 without a key" status_is 200
check "with a strict CSP" grep -qi "^Content-Security-Policy: default-src 'self'; script-src 'self';" "$TMP/headers"
check "the page is the embedded index.html" cmp -s "$TMP/index.html" "$SRC/src/web/index.html"
STATUS=$(curl -s -o /dev/null -w '%{http_code}' -H "Host: evil.example" "$BASE/ui/app.js")
check "the page's files check Host too: 421" status_is 421

# ------------------------------------------- 429 and graceful shutdown
rm -f "$TMP/slow.pid"
curl -s -o "$TMP/slow.json" -w '%{http_code}' -X POST -H "X-API-Key: $KEY" \
    "$BASE/api/v1/servers/slow/scan" >"$TMP/slow.status" &
CURL_PID=$!
for _ in $(seq 1 200); do [ -s "$TMP/slow.pid" ] && break; sleep 0.05; done
check "the slow server was started" test -s "$TMP/slow.pid"
req busy POST /api/v1/scan /api/v1/scan --data-binary "@$FIX/poisoned-tools.json"
check "a scan over --max-scans: 429" status_is 429
check "429 says when to retry" grep -qi '^Retry-After: [0-9]' "$TMP/headers"
check "the server stops cleanly on SIGTERM (exit 0)" stop_server
wait "$CURL_PID"
check "the scan in flight got its answer" test "$(cat "$TMP/slow.status")" = 200
check "which says the server timed out" python3 -c "
import json,sys; d=json.load(open('$TMP/slow.json')); sys.exit(0 if d['servers'][0]['status'] == 'timeout' else 1)"
check "the log says it stopped" grep -q "mcpvet serve: stopped" "$ERR"

# ----------------------------------------------------------- OpenAPI check
check "every response matches the OpenAPI document" \
    python3 "$SRC/tests/integration/openapi_check.py" "$SRC/src/server/openapi.json" "$TMP/resp"

# ------------------------------------------------------------------ secrets
check "no secret in any response" not_secret_in "$TMP"/resp/*.json
check "no secret in the output or the log" not_secret_in "$OUT" "$ERR"

# --------------------------------------------------------- more key rules
printf 'short\n' >"$TMP/short.key"
chmod 600 "$TMP/short.key"
"$MCPVET" serve --api-key-file "$TMP/short.key" --store "$TMP/s2.db" >"$TMP/o2" 2>"$TMP/e2"
check "a too short key is refused (exit 2)" test $? -eq 2
check "without quoting it" sh -c "! grep -q short '$TMP/e2' || grep -q 'short.key' '$TMP/e2'"
printf 'a-long-enough-key-for-tests-0123\n' >"$TMP/loose.key"
chmod 644 "$TMP/loose.key"
"$MCPVET" serve --api-key-file "$TMP/loose.key" --store "$TMP/s2.db" >"$TMP/o2" 2>"$TMP/e2"
check "a key file readable by others is refused (exit 2)" test $? -eq 2
check "and says to chmod it" grep -q "chmod 600" "$TMP/e2"
"$MCPVET" serve --listen 0.0.0.0:0 --store "$TMP/s2.db" >"$TMP/o2" 2>"$TMP/e2"
check "a non-loopback bind without --allow-remote is refused" test $? -eq 2
check "naming the flag" grep -q -- "--allow-remote" "$TMP/e2"
env -u MCPVET_API_KEY "$MCPVET" serve --listen 0.0.0.0:0 --allow-remote --store "$TMP/s2.db" \
    >"$TMP/o2" 2>"$TMP/e2"
check "a remote bind with a generated key is refused" test $? -eq 2
"$MCPVET" serve --listen 127.0.0.1:99999 --store "$TMP/s2.db" >"$TMP/o2" 2>"$TMP/e2"
check "a bad port is refused" test $? -eq 2

ENVKEY="env-key-$RANDOM-abcdefghijklmnop"
MCPVET_API_KEY="$ENVKEY" start_server "$TMP/o3" "$TMP/e3" --store "$TMP/s3.db" --config "$TMP/mcp.json"
KEY=$ENVKEY
req env_key GET /api/v1/servers /api/v1/servers
check "MCPVET_API_KEY is the key" status_is 200
STATUS=$(curl -s -o /dev/null -w '%{http_code}' -H "X-API-Key: $(tr -d '\n' <"$KEYFILE")" "$BASE/api/v1/servers")
check "the generated file's key is then not accepted" status_is 401
check "the environment key is never printed" sh -c "! grep -q '$ENVKEY' '$TMP/o3' '$TMP/e3'"
check "SIGINT stops it cleanly too" sh -c "kill -INT $SERVER_PID; wait $SERVER_PID 2>/dev/null; true"
wait "$SERVER_PID" 2>/dev/null
SERVER_PID=""
rm -f "$TMP/resp/env_key.json" "$TMP/resp/env_key.meta"

printf 'file-key-0123456789abcdefghij\n' >"$TMP/mine.key"
chmod 600 "$TMP/mine.key"
start_server "$TMP/o4" "$TMP/e4" --store "$TMP/s4.db" --api-key-file "$TMP/mine.key"
check "an --api-key-file key is read" grep -q "API key from $TMP/mine.key" "$TMP/o4"
STATUS=$(curl -s -o /dev/null -w '%{http_code}' -H "X-API-Key: file-key-0123456789abcdefghij" "$BASE/api/v1/servers")
check "and accepted" status_is 200
stop_server
start_server "$TMP/o5" "$TMP/e5" --store "$TMP/s5.db" --api-key-file "$TMP/new.key"
check "a missing --api-key-file is created 0600" test "$(stat -c %a "$TMP/new.key")" = 600
STATUS=$(curl -s -o /dev/null -w '%{http_code}' -H "X-API-Key: $(tr -d '\n' <"$TMP/new.key")" "$BASE/api/v1/servers")
check "with a working key" status_is 200
stop_server

# A client trickling its body one byte a second never looks idle; the
# request deadline (2 s here) cuts it long before its 120 bytes are in
# (generous bound: 60 bytes), and the server keeps serving meanwhile.
start_server "$TMP/o6" "$TMP/e6" --store "$TMP/s6.db" --api-key-file "$TMP/mine.key" \
    --request-timeout 2 --idle-timeout 120
PORT=${BASE##*:}
python3 - "$PORT" >"$TMP/trickle.out" <<'PYEOF' &
import socket, sys, time
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
s.sendall(b"POST /api/v1/scan HTTP/1.1\r\nHost: 127.0.0.1:%s\r\n"
          b"X-API-Key: file-key-0123456789abcdefghij\r\n"
          b"Content-Type: application/json\r\nContent-Length: 120\r\n\r\n" % sys.argv[1].encode())
s.settimeout(1.0)
sent, cut = 0, False
while sent < 60 and not cut:
    try:
        s.sendall(b" ")
        sent += 1
        if s.recv(4096) == b"":
            cut = True
    except socket.timeout:
        pass
    except OSError:
        cut = True
print("cut" if cut else "not cut", sent)
PYEOF
TRICKLE=$!
sleep 0.5
STATUS=$(curl -s -o /dev/null -w '%{http_code}' -H "X-API-Key: file-key-0123456789abcdefghij" "$BASE/api/v1/servers")
check "others are served while a client trickles" status_is 200
wait "$TRICKLE"
check "the trickling client is cut before sending 60 bytes" grep -Eq '^cut [0-9]+$' "$TMP/trickle.out"
check "the cut is logged" grep -q 'ran past the 2s deadline' "$TMP/e6"
STATUS=$(curl -s -o /dev/null -w '%{http_code}' -H "X-API-Key: file-key-0123456789abcdefghij" "$BASE/api/v1/servers")
check "and the server still serves" status_is 200
stop_server
check "--request-timeout 0 is refused" \
    sh -c "'$MCPVET' serve --request-timeout 0 >/dev/null 2>&1; test \$? -eq 2"

echo "serve: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
