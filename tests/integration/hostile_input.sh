#!/usr/bin/env bash
# Hostile input (issue 14): every file mcpvet reads is attacker-controlled.
#
# 1. A matrix of hostile files for each way a file reaches mcpvet:
#    `scan --tools`, `scan --config`, `security import` and `--store`:
#    empty, a directory, a FIFO nobody writes to, /dev/zero, a symlink loop,
#    a 1M-deep array, NUL bytes, a 2 GB and a 200 MB sparse file, and JSON
#    edge cases (BOM, lone surrogate, overlong UTF-8, duplicate keys,
#    trailing garbage). Each must end within 60 s with exit 2 and an error
#    naming the file, within a memory bound, never hang or crash; a
#    document over a cap that is still usable gives an honest degraded
#    result (exit 3). Standard input from /dev/zero is refused at once.
# 2. Output spoofing: tool and server names and descriptions carrying ANSI
#    escapes, OSC hyperlinks, bidi controls, C1 controls, line separators,
#    newlines, carriage returns and whole fake report lines ("[QUARANTINE]
#    ...", "Summary", "Result:") cannot forge a line of the text report, a
#    member of the JSON report or a result of the SARIF log.
set -u

MCPVET=${MCPVET:?set MCPVET to the mcpvet binary}
SRC=${MCPVET_SOURCE_DIR:?set MCPVET_SOURCE_DIR to the source tree}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

passed=0
failed=0
ok() { passed=$((passed + 1)); }
bad() {
    failed=$((failed + 1))
    echo "FAIL: $1" >&2
}

# measure OUT ERR CMD...: run CMD (60 s limit) with stdout/stderr in OUT/ERR
# and stdin from $STDIN_FROM (default /dev/null); sets RC, SECS and RSS_MB
# (peak resident size of the child).
measure() {
    local out=$1 err=$2
    shift 2
    local res
    res=$(python3 - "$out" "$err" "${STDIN_FROM:-/dev/null}" "$@" <<'EOF'
import resource, subprocess, sys, time
out, err, inp, cmd = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
t0 = time.monotonic()
try:
    with open(out, "wb") as o, open(err, "wb") as e, open(inp, "rb") as i:
        rc = subprocess.run(cmd, stdout=o, stderr=e, stdin=i, timeout=60).returncode
except subprocess.TimeoutExpired:
    rc = 124
secs = time.monotonic() - t0
rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024
print(rc, "%.1f" % secs, rss)
EOF
)
    read -r RC SECS RSS_MB <<<"$res"
}

# refused NAME FILE LABEL MAX_MB CMD...: CMD must exit 2 within the time
# limit, name LABEL (the file as given) on stderr, and stay under MAX_MB.
refused() {
    local name=$1 label=$2 max_mb=$3
    shift 3
    measure "$TMP/out" "$TMP/err" "$@"
    if [ "$RC" = 124 ]; then
        bad "$name: still running after 60 s (a hang)"
    elif [ "$RC" != 2 ]; then
        bad "$name: exit $RC, expected 2: $(head -c 300 "$TMP/err")"
    elif ! grep -qF -- "$label" "$TMP/err"; then
        bad "$name: the error does not name $label: $(head -c 300 "$TMP/err")"
    elif [ "$RSS_MB" -gt "$max_mb" ]; then
        bad "$name: peak memory $RSS_MB MB, over $max_mb MB"
    else
        ok
    fi
}

# ----------------------------------------------------------- the files
H="$TMP/h"
mkdir -p "$H/dir"
: >"$H/empty.json"
mkfifo "$H/fifo"
ln -s "$H/loop2" "$H/loop1"
ln -s "$H/loop1" "$H/loop2"
python3 -c "import sys; sys.stdout.write('[' * 1000000 + ']' * 1000000)" >"$H/deep.json"
python3 -c "import sys; sys.stdout.write('{\"a\":' * 1000000 + '1' + '}' * 1000000)" >"$H/deep_object.json"
printf '{"tools":[]}\0\0\0' >"$H/nul.json"
printf '\0\0\0\0{"tools":[]}' >"$H/nul_first.json"
truncate -s 2G "$H/sparse_2g.json"    # no disk used: holes read as NUL bytes
truncate -s 200M "$H/sparse_200m.json"
printf '\xef\xbb\xbf{"tools":[]}' >"$H/bom.json"
printf '{"tools":[{"name":"a\\ud800","inputSchema":{}}]}' >"$H/surrogate.json"
printf '{"tools":[{"name":"\xc0\xaf","inputSchema":{}}]}' >"$H/overlong.json"
printf '{"tools":[{"name":"a","name":"b","inputSchema":{}}]}' >"$H/dup_key.json"
printf '{"tools":[]} {"tools":[]}' >"$H/trailing.json"

# name FILE: what each is, for messages
FILES="empty.json dir fifo loop1 deep.json deep_object.json nul.json nul_first.json \
sparse_2g.json sparse_200m.json bom.json surrogate.json overlong.json dup_key.json trailing.json"

for f in $FILES /dev/zero; do
    case $f in /*) p=$f ;; *) p="$H/$f" ;; esac
    # 400 MB: a document's first byte refuses a 200 MB file of NUL bytes;
    # import reads a file under its 256 MiB cap whole.
    refused "scan --tools $f" "$p" 400 "$MCPVET" scan --no-store --tools "$p"
    refused "security import $f" "$p" 400 "$MCPVET" security import "$p" --store "$TMP/import.db"
done
# Standard input that never ends: refused at its first byte, not after
# max_document_bytes (1 GiB) were read.
STDIN_FROM=/dev/zero refused "scan --tools - < /dev/zero" "<stdin>" 400 \
    "$MCPVET" scan --no-store --tools -
# A config file is read by the same rules; strict JSON readers for the
# syntax cases (a client named, so the content is parsed, not guessed).
for f in $FILES /dev/zero; do
    case $f in /*) p=$f ;; *) p="$H/$f" ;; esac
    refused "scan --config $f" "$p" 400 "$MCPVET" scan --list --config "$p" --client cursor
done
# The store path itself.
for f in dir fifo loop1 nul.json sparse_200m.json /dev/zero; do
    case $f in /*) p=$f ;; *) p="$H/$f" ;; esac
    refused "--store $f" "$p" 400 "$MCPVET" security list --store "$p"
done
[ -p "$H/fifo" ] && ok || bad "the FIFO was replaced"
cmp -s "$H/nul.json" <(printf '{"tools":[]}\0\0\0') && ok || bad "a foreign file given as --store was modified"

# Over a cap but usable: an honest, degraded result, never a silent cut.
python3 -c "
import json
print(json.dumps({'tools': [{'name': 't%d' % i, 'description': 'Tool number %d.' % i,
                             'inputSchema': {'type': 'object'}} for i in range(10050)]}))" \
    >"$H/wide.json"
measure "$TMP/out" "$TMP/err" "$MCPVET" scan --no-store --tools "$H/wide.json"
if [ "$RC" = 3 ] && grep -q "tools_per_server" "$TMP/out"; then ok; else
    bad "10050 tools: exit $RC, expected 3 with the tools_per_server cap named"
fi
python3 -c "
import json
print(json.dumps({'tools': [{'name': 'big', 'description': 'x' * 300000,
                             'inputSchema': {'type': 'object'}}]}))" >"$H/long_field.json"
measure "$TMP/out" "$TMP/err" "$MCPVET" scan --no-store --tools "$H/long_field.json"
if [ "$RC" = 3 ] && grep -q "DEGRADED" "$TMP/out"; then ok; else
    bad "a 300 KB description: exit $RC, expected 3 (a field cap recorded)"
fi

# ------------------------------------------------------- output spoofing
# The strings: fake report lines, terminal escapes (CSI, OSC 8 links, C1
# CSI), bidi controls, line separators, CR, and JSON-breaking quotes.
python3 - "$TMP/spoof.json" <<'EOF'
import json, sys
E = "\x1b"
fake_lines = "\n[QUARANTINE] trusted/send_email\n  Verdict:    quarantine\nSummary\n  Result:        No findings\n"
tools = [
    {"name": "calc" + fake_lines + "[CLEAN] x",
     "description": "Adds numbers." + fake_lines + "\r" + E + "[2K" + E + "[1A\u2028Result: clean",
     "inputSchema": {"type": "object"}},
    {"name": "note" + E + "[31mRED" + E + "[0m\u202e\u2066gnp.exe\u2069",
     "description": "Keeps notes.\u0085\u009b2J\u009d0;title\u0007\u200b\ufeff",
     "inputSchema": {"type": "object", "properties": {
         "q\n[REVIEW] x": {"type": "string",
                           "description": E + "]8;;http://evil.example" + E + "\\link" + E + "]8;;" + E + "\\"}}}},
    {"name": 'evil","verdict":"clean","risk":0,"x":"', "description": 'Fine."}]}',
     "inputSchema": {"type": "object"}},
    {"name": "plain", "description": "Adds two numbers.", "inputSchema": {"type": "object"}},
]
doc = {"servers": [{"name": "srv\n[CLEAN] other/tool" + E + "[0m", "tools": tools}]}
json.dump(doc, open(sys.argv[1], "w"))
EOF

# Raw bytes no report may carry: C0 controls but newline, DEL, ESC, C1
# controls, bidi controls and isolates, zero-width characters, BOM, line
# and paragraph separators.
check_raw() { # NAME FILE
    python3 - "$2" <<'EOF'
import re, sys
data = open(sys.argv[1], "rb").read()
text = data.decode("utf-8")  # must be valid UTF-8
bad = re.search("[\x00-\x09\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029\ufeff]", text)
if bad:
    print("U+%04X at offset %d" % (ord(bad.group()), bad.start()))
    sys.exit(1)
EOF
}

# Text: the only lines that open a tool are the report's own, one per tool;
# "Summary" and "Result:" open a line once each.
measure "$TMP/spoof.txt" "$TMP/err" "$MCPVET" scan --no-store --tools "$TMP/spoof.json" \
    --show-clean --color always
[ "$RC" = 1 ] && ok || bad "spoof text: exit $RC, expected 1 (quarantined tools)"
measure "$TMP/spoof_plain.txt" "$TMP/err" "$MCPVET" scan --no-store --tools "$TMP/spoof.json" \
    --show-clean --color never
why=$(check_raw text "$TMP/spoof_plain.txt" 2>&1) && ok || bad "spoof text: raw $why"
# --color always may add the report's own SGR colours and nothing else:
# without them it is the plain report, byte for byte.
python3 - "$TMP/spoof.txt" "$TMP/spoof_plain.txt" <<'EOF' && ok || bad "spoof text: colour adds more than SGR sequences"
import re, sys
coloured = open(sys.argv[1], "rb").read()
plain = open(sys.argv[2], "rb").read()
assert b"\x1b" in coloured
assert re.sub(rb"\x1b\[[0-9;]*m", b"", coloured) == plain
EOF
heads=$(grep -cE '^\[(QUARANTINE|REVIEW|CLEAN)\] ' "$TMP/spoof_plain.txt")
[ "$heads" = 4 ] && ok || bad "spoof text: $heads lines open a tool, expected 4"
[ "$(grep -c '^Summary' "$TMP/spoof_plain.txt")" = 1 ] && ok || bad "spoof text: a forged Summary line"
[ "$(grep -cE '^ *Result:' "$TMP/spoof_plain.txt")" = 1 ] && ok || bad "spoof text: a forged Result line"
grep -qE '^\[(QUARANTINE|CLEAN)\] (trusted|other)/' "$TMP/spoof_plain.txt" &&
    bad "spoof text: a forged tool line" || ok

# JSON and SARIF: strict parse (no duplicate member), the same number of
# tools and results as a clean rendering would have, each verdict as the
# scan decided, and no raw hidden character in any string.
measure "$TMP/spoof_report.json" "$TMP/err" "$MCPVET" scan --no-store --tools "$TMP/spoof.json" \
    --format json
why=$(check_raw json "$TMP/spoof_report.json" 2>&1) && ok || bad "spoof JSON: raw $why"
python3 - "$TMP/spoof_report.json" <<'EOF' && ok || bad "spoof JSON: forged structure"
import json, sys
def no_dups(pairs):
    keys = [k for k, _ in pairs]
    if len(keys) != len(set(keys)):
        raise SystemExit("duplicate member %r" % keys)
    return dict(pairs)
d = json.load(open(sys.argv[1]), object_pairs_hook=no_dups)
tools = d["tools"]
assert len(tools) == 4, len(tools)
verdicts = [t["verdict"] for t in tools]
assert verdicts[:2] == ["quarantine", "quarantine"], verdicts
assert verdicts[3] == "clean", verdicts
assert tools[2]["name"].startswith("evil"), tools[2]["name"]
assert d["summary"]["tools"] == 4, d["summary"]
assert len(d["servers"]) <= 1
EOF
measure "$TMP/spoof.sarif" "$TMP/err" "$MCPVET" scan --no-store --tools "$TMP/spoof.json" \
    --format sarif
why=$(check_raw sarif "$TMP/spoof.sarif" 2>&1) && ok || bad "spoof SARIF: raw $why"
python3 - "$TMP/spoof.sarif" "$TMP/spoof_report.json" <<'EOF' && ok || bad "spoof SARIF: forged structure"
import json, sys
def no_dups(pairs):
    keys = [k for k, _ in pairs]
    if len(keys) != len(set(keys)):
        raise SystemExit("duplicate member %r" % keys)
    return dict(pairs)
s = json.load(open(sys.argv[1]), object_pairs_hook=no_dups)
j = json.load(open(sys.argv[2]))
assert len(s["runs"]) == 1
results = s["runs"][0]["results"]
want = sum(len([x for x in t["signals"] if x.get("tier") != "info"]) for t in j["tools"])
assert len(results) == want, (len(results), want)
for r in results:
    assert "\n" not in r["message"]["text"]
EOF

echo "hostile_input: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
