#!/usr/bin/env bash
# mcpvet reaching real MCP servers the way an agent client would (issue 9):
#   - discovery: a fake home holding the config of every supported client,
#     each naming a real npm server, is found and scanned whole, clean;
#     --list shows everything and starts nothing; secrets never printed;
#   - transports: real servers over stdio, streamable HTTP and legacy SSE;
#     the poisoned fixture is quarantined through each of them;
#   - hostile servers beside real ones: the scan ends within the timeout
#     plus a margin, names each failure, exits 3 (never 0) and leaves no
#     process behind;
#   - --save-snapshot reads back with identical verdicts.
# Real servers come from tests/node (make test installs them); a missing
# one is a failure, not a skip.
set -u

MCPVET=${MCPVET:?set MCPVET to the mcpvet binary}
SRC=${MCPVET_SOURCE_DIR:?set MCPVET_SOURCE_DIR to the source tree}
NODE_BIN="$SRC/tests/node/node_modules/.bin"
FIX="$SRC/tests/fixtures"
TMP=$(mktemp -d)
MARK="mcpvet-itest-$$-$RANDOM"
BG_PIDS=()
cleanup() {
    for p in "${BG_PIDS[@]}"; do kill "$p" 2>/dev/null; done
    wait 2>/dev/null
    rm -rf "$TMP"
}
trap cleanup EXIT

passed=0
failed=0
OUT="$TMP/stdout"
ERR="$TMP/stderr"
RC=0
ok() { passed=$((passed + 1)); }
bad() {
    failed=$((failed + 1))
    echo "FAIL: $1" >&2
    echo "  exit code: $RC" >&2
    echo "  stderr: $(head -c 800 "$ERR")" >&2
}
check() { # NAME COMMAND...: the command must succeed
    local name=$1
    shift
    if "$@"; then ok; else bad "$name"; fi
}

for bin in mcp-server-everything mcp-server-memory mcp-server-filesystem; do
    if [ ! -x "$NODE_BIN/$bin" ]; then
        echo "FAIL: $NODE_BIN/$bin is missing (run scripts/install-node-deps.sh)" >&2
        exit 1
    fi
done

# run_in HOME_DIR ARGS...: mcpvet with only the fake home's configs in view
# (and its project folder as the working directory). Every process it
# starts inherits $MARK, so a leftover one can be found afterwards.
run_in() {
    local home=$1
    shift
    (cd "$home/project" &&
        exec env -u XDG_CONFIG_HOME -u APPDATA -u CODEX_HOME HOME="$home" \
            MCPVET_ITEST_MARK="$MARK" "$MCPVET" "$@" >"$OUT" 2>"$ERR")
    RC=$?
}

# No process started by mcpvet may outlive it.
no_leftovers() {
    local left=""
    for f in /proc/[0-9]*/environ; do
        if { tr '\0' '\n' <"$f"; } 2>/dev/null | grep -qx "MCPVET_ITEST_MARK=$MARK"; then
            left="$left ${f#/proc/}"
        fi
    done
    if [ -n "$left" ]; then
        echo "  leftover processes:$left" >&2
        return 1
    fi
    return 0
}

# json EXPR: evaluate a Python expression over the JSON report in $OUT
# (bound to r); prints the value.
json() {
    python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' \
        "$OUT" "$1"
}
json_is() { # NAME EXPR WANT
    local got
    got=$(json "$2" 2>&1)
    if [ "$got" = "$3" ]; then ok; else bad "$1: $2 = '$got', expected '$3'"; fi
}

# start_http MODE-COMMAND...: start a server printing or taking a port,
# sets PORT. For npm servers the port is chosen here and passed as PORT.
free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}
wait_port() { # PORT
    for _ in $(seq 1 100); do
        if python3 -c 'import socket,sys; socket.create_connection(("127.0.0.1",int(sys.argv[1])),0.2)' \
            "$1" 2>/dev/null; then
            return 0
        fi
        sleep 0.1
    done
    return 1
}
start_everything() { # MODE (streamableHttp|sse): sets PORT
    PORT=$(free_port)
    PORT=$PORT "$NODE_BIN/mcp-server-everything" "$1" >"$TMP/everything-$1.log" 2>&1 &
    BG_PIDS+=($!)
    wait_port "$PORT" || echo "server-everything $1 did not listen on $PORT" >&2
}
start_hostile() { # MODE: sets PORT
    local log="$TMP/hostile-$1.log"
    python3 "$FIX/http/hostile.py" "$1" >"$log" 2>&1 &
    BG_PIDS+=($!)
    for _ in $(seq 1 100); do
        PORT=$(sed -n 's/^PORT //p' "$log" | head -1)
        [ -n "$PORT" ] && return 0
        sleep 0.05
    done
    echo "hostile $1 printed no port" >&2
}

FIXTURE="$FIX/servers/mcp_fixture.py"
POISONED="$FIX/poisoned-tools.json"
EVERYTHING="$NODE_BIN/mcp-server-everything"
MEMORY="$NODE_BIN/mcp-server-memory"
FILESYSTEM="$NODE_BIN/mcp-server-filesystem"

# ---------------------------------------------------------------- discovery
H="$TMP/home"
mkdir -p "$H/project" "$H/files" "$H/.config/Claude" "$H/.cursor" "$H/.config/Code/User" \
    "$H/.codeium/windsurf" "$H/.gemini" "$H/.codex" "$H/.config/zed" \
    "$H/.config/Code/User/globalStorage/saoudrizwan.claude-dev/settings" "$H/.continue" \
    "$H/.kiro/settings"
echo "hello" >"$H/files/readme.txt"
STARTED="$TMP/started-by-list"
# A command that would leave a trace if anything started it.
TRAP_CMD="sh"
TRAP_ARGS="\"-c\", \"touch $STARTED\""

cat >"$H/.config/Claude/claude_desktop_config.json" <<EOF
{"mcpServers": {"desktop-everything": {"command": "$EVERYTHING", "args": ["stdio"],
  "env": {"API_TOKEN": "canary-env-secret-4711"}}}}
EOF
cat >"$H/.claude.json" <<EOF
{"mcpServers": {"code-memory": {"type": "stdio", "command": "$MEMORY", "args": [],
  "env": {"MEMORY_FILE_PATH": "\${HOME}/memory.json"}}}}
EOF
cat >"$H/.cursor/mcp.json" <<EOF
{"mcpServers": {"cursor-files": {"command": "$FILESYSTEM", "args": ["\${userHome}/files"]}}}
EOF
cat >"$H/.config/Code/User/mcp.json" <<EOF
{
  // VS Code accepts comments and trailing commas here
  "inputs": [{"id": "token", "type": "promptString", "password": true}],
  "servers": {
    "vscode-memory": {"type": "stdio", "command": "$MEMORY",},
    "vscode-needs-input": {"type": "stdio", "command": "$TRAP_CMD", "args": [$TRAP_ARGS],
                           "env": {"TOKEN": "\${input:token}"}},
  },
}
EOF
cat >"$H/.codeium/windsurf/mcp_config.json" <<EOF
{"mcpServers": {"windsurf-everything": {"command": "$EVERYTHING", "args": ["stdio"]},
  "windsurf-trap": {"command": "$TRAP_CMD", "args": [$TRAP_ARGS], "disabled": true}}}
EOF
cat >"$H/.gemini/settings.json" <<EOF
{
  /* Gemini CLI settings allow comments */
  "mcpServers": {"gemini-memory": {"command": "$MEMORY", "cwd": "$H/files"}}
}
EOF
cat >"$H/.codex/config.toml" <<EOF
# Codex CLI
[mcp_servers.codex-files]
command = "$FILESYSTEM"
args = ["$H/files"]

[mcp_servers.codex-off]
command = "$TRAP_CMD"
args = ["-c", "touch $STARTED"]
enabled = false
EOF
cat >"$H/.config/zed/settings.json" <<EOF
{
  // Zed
  "context_servers": {"zed-memory": {"command": "$MEMORY", "args": []}},
}
EOF
cat >"$H/.config/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json" <<EOF
{"mcpServers": {"cline-everything": {"command": "$EVERYTHING", "args": ["stdio"],
  "disabled": false}}}
EOF
cat >"$H/.continue/config.yaml" <<EOF
name: assistant
mcpServers:
  - name: continue-memory
    command: $MEMORY
EOF
cat >"$H/.kiro/settings/mcp.json" <<EOF
{"mcpServers": {"kiro-files": {"command": "$FILESYSTEM", "args": ["$H/files"],
  "headers": {}, "disabledTools": ["write_file"]}}}
EOF

run_in "$H" scan --list
if [ "$RC" -eq 0 ]; then ok; else bad "--list exit code"; fi
for name in desktop-everything code-memory cursor-files vscode-memory windsurf-everything \
    gemini-memory codex-files zed-memory cline-everything continue-memory kiro-files; do
    if grep -q "^  $name  \[" "$OUT"; then ok; else bad "--list lacks $name"; fi
done
for client in claude-desktop claude-code cursor vscode windsurf gemini codex zed cline continue \
    kiro; do
    if grep -qE "^  $client +" "$OUT"; then ok; else bad "--list lacks a $client config file"; fi
done
check "--list shows why a server is not started" grep -q "needs_input: needs input: \${input:token}" "$OUT"
check "--list names env variables" grep -q "\[env: API_TOKEN\]" "$OUT"
check "--list never prints an env value" sh -c "! grep -q canary-env-secret-4711 '$OUT' '$ERR'"
check "--list starts nothing" test ! -e "$STARTED"
check "--list leaves no process" no_leftovers

run_in "$H" scan --format json --concurrency 6 --timeout 60
if [ "$RC" -eq 3 ]; then ok; else bad "discovery scan exit code (3: one server needs input)"; fi
json_is "discovery: every server listed" "len(r['servers'])" 14
json_is "discovery: scanned ok" "sum(s['status']=='ok' for s in r['servers'])" 11
json_is "discovery: the disabled ones" \
    "sorted(s['name'] for s in r['servers'] if s['status']=='disabled')" \
    "['codex-off', 'windsurf-trap']"
json_is "discovery: needs input" \
    "[s['name'] for s in r['servers'] if s['status']=='needs_input']" "['vscode-needs-input']"
json_is "discovery: every client present" "len(set(s['client'] for s in r['servers']))" 11
json_is "discovery: no quarantine on real servers" "r['summary']['quarantine']" 0
json_is "discovery: tools came from every real server" \
    "all(s['tools']>0 for s in r['servers'] if s['status']=='ok')" True
json_is "discovery: prompts are scanned as prompts" \
    "any(t['kind']=='prompt' for t in r['tools'])" True
json_is "discovery: the everything server's instructions are scanned, and clean" \
    "sorted(set((t['kind'],t['name'],t['verdict']) for t in r['tools'] if t['kind']=='instructions'))" \
    "[('instructions', 'server_instructions', 'clean')]"
json_is "discovery: a tool's source is its config file" \
    "[t['source'] for t in r['tools'] if t['server']=='zed-memory'][0]" "$H/.config/zed/settings.json"
check "discovery starts no disabled or needs-input server" test ! -e "$STARTED"
check "discovery never prints an env value" sh -c "! grep -q canary-env-secret-4711 '$OUT' '$ERR'"
check "discovery leaves no process" no_leftovers

# Exact duplicates across clients are reached once.
H2="$TMP/home2"
mkdir -p "$H2/project" "$H2/.cursor" "$H2/.kiro/settings"
echo "{\"mcpServers\":{\"memory\":{\"command\":\"$MEMORY\"}}}" >"$H2/.cursor/mcp.json"
echo "{\"mcpServers\":{\"memory\":{\"command\":\"$MEMORY\"}}}" >"$H2/.kiro/settings/mcp.json"
run_in "$H2" scan --format json
json_is "duplicate server scanned once" "len(r['servers'])" 1
json_is "duplicate server names the other config" "'kiro' in r['servers'][0]['also_in']" True
if [ "$RC" -eq 0 ]; then ok; else bad "clean duplicate scan exit code"; fi

# --------------------------------------------------------------- transports
start_everything streamableHttp
HTTP_PORT=$PORT
start_everything sse
SSE_PORT=$PORT
start_hostile poisoned
POISON_HTTP_PORT=$PORT
start_hostile sse_poisoned
POISON_SSE_PORT=$PORT

T="$TMP/home-transports"
mkdir -p "$T/project"
cat >"$T/transports.json" <<EOF
{"mcpServers": {
  "real-stdio": {"type": "stdio", "command": "$EVERYTHING", "args": ["stdio"]},
  "real-http": {"type": "http", "url": "http://127.0.0.1:$HTTP_PORT/mcp",
                "headers": {"Authorization": "Bearer canary-header-secret-0815"}},
  "real-sse": {"type": "sse", "url": "http://127.0.0.1:$SSE_PORT/sse"},
  "real-sse-fallback": {"type": "http", "url": "http://127.0.0.1:$SSE_PORT/sse"}
}}
EOF
run_in "$T" scan --config "$T/transports.json" --client claude-code --format json --timeout 30
if [ "$RC" -eq 0 ]; then ok; else bad "real servers over three transports: exit code"; fi
json_is "stdio ok" "[s['status'] for s in r['servers'] if s['name']=='real-stdio']" "['ok']"
json_is "streamable HTTP ok" \
    "[(s['status'],s['transport']) for s in r['servers'] if s['name']=='real-http']" \
    "[('ok', 'http')]"
json_is "legacy SSE ok" \
    "[(s['status'],s['transport']) for s in r['servers'] if s['name']=='real-sse']" \
    "[('ok', 'sse')]"
json_is "HTTP falls back to SSE on a 4xx" \
    "[(s['status'],s['transport']) for s in r['servers'] if s['name']=='real-sse-fallback']" \
    "[('ok', 'sse')]"
json_is "real servers: no quarantine" "r['summary']['quarantine']" 0
check "a header value is never printed" sh -c "! grep -q canary-header-secret-0815 '$OUT' '$ERR'"
check "transports leave no process" no_leftovers

cat >"$T/poisoned.json" <<EOF
{"mcpServers": {
  "poison-stdio": {"command": "python3", "args": ["$FIXTURE", "--tools", "$POISONED"]},
  "poison-http": {"url": "http://127.0.0.1:$POISON_HTTP_PORT/mcp"},
  "poison-sse": {"type": "sse", "url": "http://127.0.0.1:$POISON_SSE_PORT/sse"}
}}
EOF
SNAP="$TMP/snapshot.json"
run_in "$T" scan --config "$T/poisoned.json" --client claude-code --format json --timeout 30 \
    --save-snapshot "$SNAP"
if [ "$RC" -eq 1 ]; then ok; else bad "poisoned servers: exit code 1"; fi
for s in poison-stdio poison-http poison-sse; do
    json_is "$s: reached" "[x['status'] for x in r['servers'] if x['name']=='$s']" "['ok']"
    json_is "$s: quarantined" \
        "any(t['verdict']=='quarantine' for t in r['tools'] if t['server']=='$s')" True
done
json_is "poisoned over SSE used SSE" \
    "[x['transport'] for x in r['servers'] if x['name']=='poison-sse']" "['sse']"
cp "$OUT" "$TMP/live.json"
verdicts() {
    python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))
print(json.dumps([(t["server"],t["name"],t["kind"],t["verdict"],t["checks"]) for t in r["tools"]]))' "$1"
}
run_in "$T" scan --tools "$SNAP" --format json
if [ "$RC" -eq 1 ]; then ok; else bad "saved snapshot: exit code 1"; fi
if [ "$(verdicts "$TMP/live.json")" = "$(verdicts "$OUT")" ]; then
    ok
else
    bad "the saved snapshot reads back with different verdicts"
fi
json_is "saved snapshot keeps the servers' origin" \
    "sorted((s['name'],s['transport'],s['status']) for s in r['servers'])" \
    "[('poison-http', 'http', 'ok'), ('poison-sse', 'sse', 'ok'), ('poison-stdio', 'stdio', 'ok')]"

# ------------------------------------------------- hostile beside real ones
start_hostile auth
AUTH_PORT=$PORT
start_hostile redirect_loop
LOOP_PORT=$PORT
cat >"$T/hostile.json" <<EOF
{"mcpServers": {
  "hang": {"command": "python3", "args": ["$FIXTURE", "--misbehave", "hang"]},
  "garbage": {"command": "python3", "args": ["$FIXTURE", "--misbehave", "garbage"]},
  "flood": {"command": "python3", "args": ["$FIXTURE", "--misbehave", "flood"]},
  "huge-line": {"command": "python3", "args": ["$FIXTURE", "--misbehave", "huge-line"]},
  "early-exit": {"command": "python3", "args": ["$FIXTURE", "--misbehave", "stderr-exit"]},
  "slow-drip": {"command": "python3", "args": ["$FIXTURE", "--misbehave", "slow-drip"]},
  "forks-away": {"command": "python3", "args": ["$FIXTURE", "--misbehave", "fork-child"]},
  "no-such-command": {"command": "$TMP/does-not-exist"},
  "oauth": {"url": "http://127.0.0.1:$AUTH_PORT/mcp"},
  "redirect-loop": {"url": "http://127.0.0.1:$LOOP_PORT/a"},
  "real-everything": {"command": "$EVERYTHING", "args": ["stdio"]},
  "real-memory": {"command": "$MEMORY"},
  "real-files": {"command": "$FILESYSTEM", "args": ["$H/files"]}
}}
EOF
# Generous: the three real node servers must start within it even on a
# loaded 2-core machine (4 s timed them out at load 15).
TIMEOUT=15
start=$(date +%s%N)
run_in "$T" scan --config "$T/hostile.json" --client cursor --format json --timeout $TIMEOUT \
    --concurrency 16
elapsed_ms=$((($(date +%s%N) - start) / 1000000))
if [ "$RC" -eq 3 ]; then ok; else bad "hostile servers: exit code 3"; fi
# Within the timeout plus a margin for start-up and shutdown (SIGTERM grace).
if [ "$elapsed_ms" -lt $((TIMEOUT * 1000 + 6000)) ]; then
    ok
else
    bad "hostile scan took $elapsed_ms ms with --timeout $TIMEOUT"
fi
echo "hostile scan: $elapsed_ms ms with --timeout $TIMEOUT"
json_is "hostile: the real ones are fine" \
    "sorted(s['status'] for s in r['servers'] if s['name'].startswith('real-'))" \
    "['ok', 'ok', 'ok']"
status_of() { # NAME WANT-REGEX
    local got
    got=$(json "[s['status'] for s in r['servers'] if s['name']=='$1'][0]")
    if [[ "$got" =~ ^($2)$ ]]; then ok; else bad "hostile $1: status $got, expected $2"; fi
    got=$(json "[s['reason'] for s in r['servers'] if s['name']=='$1'][0]")
    if [ -n "$got" ] && [ "$got" != "None" ]; then ok; else bad "hostile $1: no reason"; fi
}
status_of hang timeout
status_of garbage protocol_error
# A flood ends at the first cap it meets: the message or total cap, or
# the deadline on a slow (sanitizer) build.
status_of flood "protocol_error|cap_hit|timeout"
status_of huge-line cap_hit
status_of early-exit closed
status_of slow-drip "timeout|cap_hit"
status_of no-such-command spawn_failed
status_of oauth auth_required
status_of redirect-loop protocol_error
json_is "hostile: the fork-away server is handled" \
    "[s['status'] for s in r['servers'] if s['name']=='forks-away']" "['ok']"
check "hostile: no process left behind" no_leftovers

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
