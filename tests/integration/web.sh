#!/usr/bin/env bash
# The review page (issue 16) in a real headless Chromium, driven by
# tests/web/review.test.mjs (playwright-core, pinned in tests/node), against
# a real `mcpvet serve` on a random loopback port and a real store built by
# `mcpvet security scan` from tests/fixtures/servers/mcp_fixture.py:
#   - a changed tool is in the queue, the diff marks the changed line,
#     approve moves it to approved and quarantine back (checked with the
#     CLI), a quarantined tool needs a second confirmation, audit actor web;
#   - a hostile tool (<script>, onerror=, javascript:, bidi, ANSI) is text:
#     no script from it runs, no element is made from it;
#   - keyboard only: queue, tool, approve with Tab and Enter;
#   - screenshots of the queue and a diff land in the build folder.
# Chromium missing is a failure, never a skip (`make test` installs it).
set -u

MCPVET=${MCPVET:?set MCPVET to the mcpvet binary}
SRC=${MCPVET_SOURCE_DIR:?set MCPVET_SOURCE_DIR to the source tree}
FIX="$SRC/tests/fixtures"
CHROMIUM=${MCPVET_CHROMIUM:-/usr/bin/chromium}
SHOTS="$(cd "$(dirname "$MCPVET")" && pwd)/web-screenshots"
TMP=$(mktemp -d)
SERVER_PID=""
cleanup() {
    if [ -n "$SERVER_PID" ]; then kill "$SERVER_PID" 2>/dev/null; wait "$SERVER_PID" 2>/dev/null; fi
    rm -rf "$TMP"
}
trap cleanup EXIT

if [ ! -x "$CHROMIUM" ]; then
    echo "FAIL: $CHROMIUM is missing: run 'make test' (it installs Debian's chromium) or scripts/install-deps.sh chromium" >&2
    exit 1
fi
if [ ! -f "$SRC/tests/node/node_modules/playwright-core/package.json" ]; then
    echo "FAIL: playwright-core is missing: run scripts/install-node-deps.sh" >&2
    exit 1
fi

export HOME="$TMP/home" XDG_STATE_HOME="$TMP/state"
unset MCPVET_API_KEY XDG_CONFIG_HOME
mkdir -p "$HOME" "$SHOTS"
STORE="$TMP/store.db"

# fixture: add stays approved, echo changes (a benign edit), read_file is
# renamed to read_text_file with markup and a bidi override slipped into
# its long description (a near-identical rename, 90%+ alike).
python3 - "$TMP/tools.json" "$TMP/tools2.json" <<'PY'
import json, sys
long = ("Reads the complete contents of a file from the file system as text. Handles various "
        "text encodings and provides detailed error messages if the file cannot be read. Use "
        "this tool when you need to examine the contents of a single file. Only works within "
        "allowed directories. Large files are returned in full; there is no paging.")
base = [
    {"name": "add", "description": "Adds two integers and returns the sum.",
     "inputSchema": {"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}}}},
    {"name": "echo", "description": "Echoes the text back.",
     "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}}},
    {"name": "read_file", "description": long,
     "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}}},
]
json.dump({"tools": base}, open(sys.argv[1], "w"))
renamed = json.loads(json.dumps(base))
renamed[1]["description"] = "Echoes the given text back unchanged."
renamed[2]["name"] = "read_text_file"
renamed[2]["description"] = long.replace("as text.", "as text<img src=x onerror=window.__pwned=6>\u202e.")
json.dump({"tools": renamed}, open(sys.argv[2], "w"))
PY
# special: names a URL or a page mishandles -- hidden characters, URL
# delimiters, quotes, dot segments, a very long name.
python3 - "$TMP/special.json" "$TMP/special-names.json" <<'PY'
import json, sys
names = ["re\u200bad", "a/b#c?d%2e%25%", "say \"hi\" 'there'", "..", ".", "x" * 1500 + "/end",
         "\u2067rtl\u2069 <b>bold</b>"]
json.dump({"tools": [{"name": n, "description": "Tool number %d." % i, "inputSchema": {"type": "object"}}
                     for i, n in enumerate(names)]}, open(sys.argv[1], "w"))
json.dump(names, open(sys.argv[2], "w"))
PY
# The hostile server: markup, script URLs, a bidi override and ANSI
# escapes in names and descriptions. Each would set window.__pwned.
python3 - "$TMP/hostile.json" <<'PY'
import json, sys
desc = ('<script>window.__pwned=1</script> <img src=x onerror="window.__pwned=2"> '
        '<a href="javascript:window.__pwned=3">click me</a> \u202egnp.exe '
        '\u001b[31mred alert\u001b[0m \u200bhidden')
tools = [
    {"name": "evil<img src=x onerror=window.__pwned=4>", "description": desc,
     "inputSchema": {"type": "object"}},
    {"name": "bidi\u202eevil<script>window.__pwned=5</script>", "description": "Lists files.",
     "inputSchema": {"type": "object"}},
]
json.dump({"tools": tools}, open(sys.argv[1], "w"))
PY
cat >"$TMP/mcp.json" <<JSON
{"mcpServers": {
  "fixture": {"command": "python3", "args": ["$FIX/servers/mcp_fixture.py", "--tools", "$TMP/tools.json"]},
  "hostile": {"command": "python3", "args": ["$FIX/servers/mcp_fixture.py", "--tools", "$TMP/hostile.json"]},
  "special": {"command": "python3", "args": ["$FIX/servers/mcp_fixture.py", "--tools", "$TMP/special.json"]}
}}
JSON

fail() { echo "FAIL: $*" >&2; exit 1; }
"$MCPVET" security scan --config "$TMP/mcp.json" --store "$STORE" >"$TMP/scan1.txt" 2>&1
[ $? -le 1 ] || fail "the first scan: $(cat "$TMP/scan1.txt")"
"$MCPVET" security approve fixture --all --store "$STORE" >/dev/null || fail "approve fixture"
# A benign edit (echo becomes changed) and a rename (read_file removed,
# read_text_file new).
cp "$TMP/tools2.json" "$TMP/tools.json"
"$MCPVET" security scan fixture --config "$TMP/mcp.json" --store "$STORE" >"$TMP/scan2.txt" 2>&1
[ $? -le 1 ] || fail "the second scan: $(cat "$TMP/scan2.txt")"
"$MCPVET" security list --store "$STORE" --format json >"$TMP/list.json"
python3 - "$TMP/list.json" <<'PY' || fail "the store was not set up as the test needs: $(cat "$TMP/list.json")"
import json, sys
s = {(t["server"], t["name"]): t["state"] for t in json.load(open(sys.argv[1]))["tools"]}
assert s[("fixture", "echo")] == "changed", s
assert s[("fixture", "add")] == "approved", s
assert sum(1 for k in s if k[0] == "hostile") == 2, s
assert s[("fixture", "read_file")] == "removed", s
assert s[("fixture", "read_text_file")] in ("pending", "quarantined"), s
assert sum(1 for k in s if k[0] == "special") == 7, s
PY

printf 'web-test-key-%s-0123456789\n' "$RANDOM" >"$TMP/api-key"
chmod 600 "$TMP/api-key"
"$MCPVET" serve --store "$STORE" --config "$TMP/mcp.json" --api-key-file "$TMP/api-key" \
    >"$TMP/out" 2>"$TMP/err" &
SERVER_PID=$!
BASE=""
for _ in $(seq 1 200); do
    BASE=$(grep -o 'http://127\.0\.0\.1:[0-9]*' "$TMP/out" 2>/dev/null | head -1)
    [ -n "$BASE" ] && break
    kill -0 "$SERVER_PID" 2>/dev/null || break
    sleep 0.05
done
[ -n "$BASE" ] || fail "the server did not start: $(cat "$TMP/err")"

BASE="$BASE" API_KEY="$(cat "$TMP/api-key")" STORE="$STORE" MCPVET="$MCPVET" SHOTS="$SHOTS" \
    CHROMIUM="$CHROMIUM" MCPVET_SOURCE_DIR="$SRC" SPECIAL_NAMES="$TMP/special-names.json" \
    node "$SRC/tests/web/review.test.mjs"
rc=$?
if [ $rc -ne 0 ]; then
    echo "--- server log (tail)" >&2
    tail -20 "$TMP/err" >&2
fi
exit $rc
