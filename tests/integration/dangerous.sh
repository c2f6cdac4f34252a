#!/usr/bin/env bash
# The dangerous level (issue 10): soft evidence that corroborates itself
# quarantines a tool, names its class and exits 1 under the default
# --fail-on; honest tools that mention SSH keys, a system prompt or a .env
# file are never quarantined. Uses $MCPVET and $MCPVET_SOURCE_DIR.
set -u
MCPVET=${MCPVET:?set MCPVET to the mcpvet binary}
SRC=${MCPVET_SOURCE_DIR:?set MCPVET_SOURCE_DIR to the source tree}
DATA="$SRC/tests/integration/data"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
failed=0
bad() {
    failed=$((failed + 1))
    echo "FAIL: $1" >&2
}

# The best-known attack: an <IMPORTANT> block in "add" that reads client
# configs and SSH keys into a sidenote parameter and hides it.
"$MCPVET" scan --tools "$DATA/dangerous-add.json" >"$TMP/text"
rc=$?
[ "$rc" -eq 1 ] || bad "dangerous-add: exit $rc, want 1 (quarantine under the default --fail-on)"
grep -q '^\[QUARANTINE\] ' "$TMP/text" || bad "dangerous-add: not quarantined"
grep -q 'Verdict:    quarantine (dangerous)' "$TMP/text" || bad "dangerous-add: level not dangerous"
grep -q 'Dangerous:  tpa_hidden_instructions (instruction to the model' "$TMP/text" ||
    bad "dangerous-add: class or basis missing from the text report"
grep -q 'Severity:   critical' "$TMP/text" || bad "dangerous-add: severity not critical"

"$MCPVET" scan --tools "$DATA/dangerous-add.json" --format json >"$TMP/json"
python3 - "$TMP/json" <<'PY' || bad "dangerous-add: JSON danger object"
import json, sys
d = json.load(open(sys.argv[1]))
t = d["tools"][0]
assert t["verdict"] == "quarantine", t["verdict"]
assert t["danger"]["class"] == "tpa_hidden_instructions", t["danger"]
assert "instruction" in t["danger"]["basis"] and "sensitive_resource" in t["danger"]["basis"]
PY

"$MCPVET" scan --tools "$DATA/dangerous-add.json" --format sarif >"$TMP/sarif"
python3 - "$TMP/sarif" <<'PY' || bad "dangerous-add: SARIF level or danger_class"
import json, sys
d = json.load(open(sys.argv[1]))
res = d["runs"][0]["results"]
assert any(r["level"] == "error" and r["properties"].get("danger_class") ==
           "tpa_hidden_instructions" for r in res), res
PY

# Honest tools that name SSH keys, a system prompt and a .env file.
"$MCPVET" scan --tools "$DATA/dangerous-honest.json" --format json >"$TMP/honest"
rc=$?
[ "$rc" -eq 0 ] || bad "dangerous-honest: exit $rc, want 0"
python3 - "$TMP/honest" <<'PY' || bad "dangerous-honest: an honest tool is dangerous"
import json, sys
d = json.load(open(sys.argv[1]))
for t in d["tools"]:
    assert t["verdict"] != "quarantine" and t["danger"] is None, (t["name"], t["verdict"])
PY

[ "$failed" -eq 0 ] && echo "dangerous: all checks passed"
[ "$failed" -eq 0 ]
