#!/usr/bin/env bash
# Integration test (issue 13): `mcpvet proxy` and `mcpvet scan`/`security`
# give one config entry the same server identity, so approvals made on one
# side apply on the other:
#   - `security approve` after a scan lets the tool through a --policy
#     strict proxy, and an unapproved one stays out (proxy started with the
#     entry's command, and with --config FILE --name NAME);
#   - the proxy's trust-on-first-use pin shows as approved to `security
#     list` and a later `mcpvet scan` of the same entry (no "changed");
#   - after `mcpvet proxy --install` the wrapped entry is scanned as the
#     server it wraps (same identity, nothing changed), and the command the
#     wrapped entry runs sees the approvals;
#   - hard negative: an entry of the same name pointing at another command
#     is a changed identity (blocked), so the identity is not just the name.
set -u

MCPVET=${MCPVET:?set MCPVET to the mcpvet binary}
SRC=${MCPVET_SOURCE_DIR:?set MCPVET_SOURCE_DIR}
FIX="$SRC/tests/fixtures"
CLIENT="$FIX/proxy_client.py"
SRV="$FIX/servers/proxy_fixture.py"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
command -v python3 >/dev/null || { echo "SKIP proxy_identity: python3 missing"; exit 77; }

passed=0
failed=0
OUT="$TMP/stdout"
ERR="$TMP/stderr"
LOG="$TMP/proxy.log"
RC=0
ok() { passed=$((passed + 1)); }
bad() {
    failed=$((failed + 1))
    echo "FAIL: $1" >&2
    echo "  exit code: $RC" >&2
    echo "  stdout: $(head -c 1500 "$OUT")" >&2
    echo "  stderr: $(head -c 800 "$ERR")" >&2
    echo "  log: $(tail -c 1200 "$LOG" 2>/dev/null)" >&2
}
expect_rc() { if [ "$RC" -eq "$2" ]; then ok; else bad "$1: exit code $RC, expected $2"; fi; }
expect_out() { if grep -qF -- "$2" "$OUT"; then ok; else bad "$1: stdout lacks '$2'"; fi; }
expect_no_out() { if grep -qF -- "$2" "$OUT"; then bad "$1: stdout has '$2'"; else ok; fi; }
run() { "$@" >"$OUT" 2>"$ERR"; RC=$?; }
client() { # SCENARIO ARGS... -- PROXY-ARGS...
    local sc=$1
    shift
    local args=()
    while [ "$1" != "--" ]; do args+=("$1"); shift; done
    shift
    timeout 120 python3 "$CLIENT" "$sc" "${args[@]}" -- "$MCPVET" proxy --log "$LOG" "$@" \
        >"$OUT" 2>"$ERR"
    RC=$?
}

S="$TMP/store.db"
CFG="$TMP/mcp.json"
cat >"$CFG" <<EOF
{
  "mcpServers": {
    "fx": {"command": "python3", "args": ["$SRV"]}
  }
}
EOF

# 1. scan, then a person approves echo only.
run "$MCPVET" scan --config "$CFG" --store "$S"
run "$MCPVET" security list --store "$S"
expect_out "the scan pinned fx/echo as pending" "pending      clean      fx/echo"
run "$MCPVET" security approve --store "$S" fx echo
expect_rc "approve fx echo" 0

# 2. a strict proxy with the entry's command sees the approval.
client list -- --store "$S" --policy strict --name fx -- python3 "$SRV"
expect_rc "strict proxy lists" 0
expect_out "an approved tool passes a strict proxy" "echo"
expect_no_out "an unapproved tool stays out" "add"
# the same through --config FILE --name NAME (the entry's own command)
client list -- --store "$S" --policy strict --config "$CFG" --name fx
expect_rc "strict proxy from the config" 0
expect_out "approved tool passes (--config)" "echo"
expect_no_out "unapproved tool stays out (--config)" "add"
if grep -qF "changed since it was approved" "$LOG"; then
    bad "the proxy saw a changed identity"; else ok; fi

# 3. vice versa: the proxy pins add (tofu); scan and security agree.
client list -- --store "$S" --name fx -- python3 "$SRV"
expect_out "tofu passes add" "add"
run "$MCPVET" security list --store "$S"
expect_out "the proxy's pin is an approval for security" "approved     clean      fx/add"
run "$MCPVET" scan --config "$CFG" --store "$S"
run "$MCPVET" security list --store "$S"
expect_out "still approved after a scan" "approved     clean      fx/add"
expect_no_out "nothing changed after a scan" "changed"

# 4. install wraps the entry; the wrapped entry keeps the identity.
cp "$CFG" "$TMP/orig.json"
run "$MCPVET" proxy --install --config "$CFG" --store "$S" --policy strict
expect_rc "install" 0
run "$MCPVET" scan --list --config "$CFG"
expect_out "the wrapped entry lists as the server it wraps" "[through mcpvet proxy]"
run "$MCPVET" scan --config "$CFG" --store "$S"
run "$MCPVET" security list --store "$S"
expect_no_out "scanning the wrapped entry changes nothing" "changed"
expect_out "echo still approved" "approved     clean      fx/echo"
# the command the wrapped entry runs, exactly as written in the file
mapfile -t WRAPPED < <(python3 - "$CFG" <<'PY'
import json, re, sys
text = open(sys.argv[1]).read()
text = re.sub(r"^\s*//.*$", "", text, flags=re.M)
e = json.loads(text)["mcpServers"]["fx"]
print(e["command"])
for a in e["args"]:
    print(a)
PY
)
if [ "${WRAPPED[1]:-}" = proxy ]; then ok; else bad "the entry is not wrapped: ${WRAPPED[*]}"; fi
timeout 120 python3 "$CLIENT" list -- "${WRAPPED[@]:0:2}" --log "$LOG" "${WRAPPED[@]:2}" \
    >"$OUT" 2>"$ERR"
RC=$?
expect_rc "the wrapped entry runs" 0
expect_out "approved tools pass the wrapped strict proxy" "echo"
expect_out "... add too (pinned by the proxy earlier)" "add"
run "$MCPVET" proxy --uninstall --config "$CFG"
if cmp -s "$CFG" "$TMP/orig.json"; then ok; else bad "uninstall did not restore the file"; fi

# 5. hard negative: the same name for another command is a changed server.
client list -- --store "$S" --policy strict --name fx -- python3 "$SRV" --paged 2
expect_no_out "another command under the same name is not trusted" "echo"
if grep -qF "the server's command or arguments differ" "$LOG"; then ok; else
    bad "the log does not say the identity changed"; fi

echo "proxy_identity: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
