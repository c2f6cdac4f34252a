#!/usr/bin/env bash
# Installs the real MCP servers the integration tests start (pinned in
# tests/node/package-lock.json) into tests/node/node_modules, which git
# ignores. Node.js and npm come from the machine, or from Debian when
# missing. Quiet and quick when the installed tree already matches the lock.
set -eu
here="$(cd "$(dirname "$0")/.." && pwd)"
dir="$here/tests/node"
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    "$here/scripts/install-deps.sh" nodejs npm
fi
stamp="$dir/node_modules/.mcpvet-lock"
if [ -f "$stamp" ] && cmp -s "$stamp" "$dir/package-lock.json"; then
    exit 0
fi
echo "install-node-deps: installing the pinned MCP servers into tests/node/node_modules"
(cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
cp "$dir/package-lock.json" "$stamp"
