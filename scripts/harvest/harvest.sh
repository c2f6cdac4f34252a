#!/usr/bin/env bash
# Re-creates corpus/real/npm_servers*.json: installs the MCP servers pinned
# in scripts/harvest/servers.tsv from the npm registry into build-harvest/
# (git-ignored), starts each one over stdio, asks it for tools/list (and
# prompts, resources and resource templates when it announces them) with
# harvest.mjs, then converts the answers with convert.mjs. A server that
# fails is listed with its reason in corpus/real/npm_servers.failures.tsv.
#
# Install scripts are never run (--ignore-scripts): nothing is downloaded
# from outside the npm registry, and a server that needs a native build or a
# downloaded browser fails and is reported. Each server runs with an empty
# environment except PATH, a scratch HOME and the dummy values of its
# servers.tsv line (never real credentials), in its own scratch folder
# under /tmp/mcpvet-harvest, bounded by harvest.mjs's timeouts, and its
# whole process group is killed afterwards.
#
# Usage: scripts/harvest/harvest.sh [--relock]
#   --relock   resolve the dependency tree again and rewrite
#              scripts/harvest/package-lock.json (after editing servers.tsv)
# Env: HARVEST_DIR (default build-harvest), HARVEST_JOBS (default 2),
#      HARVEST_MONTH (default the current UTC month, for provenance).
set -eu
here="$(cd "$(dirname "$0")/../.." && pwd)"
hv="$here/scripts/harvest"
tsv="$hv/servers.tsv"
out="${HARVEST_DIR:-$here/build-harvest}"
sandbox_root=/tmp/mcpvet-harvest

# A server that daemonizes (a new session, as omnifocus-mcp's helper does)
# escapes harvest.mjs's process-group kill, but its environment still names
# the scratch HOME we gave it: kill every process that carries it.
sweep_sandbox() { # scratch HOME
    local environ pid
    for environ in /proc/[0-9]*/environ; do
        pid=${environ#/proc/}
        pid=${pid%/environ}
        if { tr '\0' '\n' <"$environ"; } 2>/dev/null | grep -qxF "HOME=$1"; then
            kill -KILL "$pid" 2>/dev/null || true
            echo "harvest: killed left-over process $pid of $1" >&2
        fi
    done
}

# One server: "--one LINE", LINE as printed by `servers.mjs lines`.
if [ "${1:-}" = "--one" ]; then
    IFS=$'\t' read -r pkg version raw entry args envs <<<"$2"
    [ "$args" = "-" ] && args=""
    [ "$envs" = "-" ] && envs=""
    dest="$out/raw/$raw.json"
    if [ "${entry#!}" != "$entry" ]; then
        node -e 'process.stdout.write(JSON.stringify({ok: false, stage: "install", reason: process.argv[1]}) + "\n")' \
            "${entry#!}" >"$dest"
        echo "harvest: $pkg@$version: FAILED (install: ${entry#!})"
        exit 0
    fi
    sb="$sandbox_root/$raw"
    rm -rf "$sb"
    mkdir -p "$sb/home" "$sb/files"
    cmd=()
    case "$entry" in
    *.js | *.mjs | *.cjs) cmd=(node "$entry") ;;
    *)
        if head -c 100 "$entry" | head -n 1 | grep -q node; then
            cmd=(node "$entry")
        else
            cmd=("$entry")
        fi
        ;;
    esac
    for a in $args; do
        cmd+=("${a//\{sandbox\}/$sb/files}")
    done
    envv=(PATH=/usr/local/bin:/usr/bin:/bin HOME="$sb/home" LANG=C.UTF-8 NO_COLOR=1)
    if [ -n "$envs" ]; then
        IFS=',' read -r -a kv <<<"$envs"
        envv+=("${kv[@]}")
    fi
    if env -i "${envv[@]}" node "$hv/harvest.mjs" "$dest" "$sb/files" -- "${cmd[@]}" </dev/null \
        >/dev/null 2>&1; then
        echo "harvest: $pkg@$version: ok"
    else
        echo "harvest: $pkg@$version: FAILED ($(node -e 'const d=require(process.argv[1]); process.stdout.write(d.stage + ": " + String(d.reason).slice(0, 120))' "$dest" 2>/dev/null || echo 'no answer file'))"
    fi
    sweep_sandbox "$sb/home"
    exit 0
fi

relock=0
[ "${1:-}" = "--relock" ] && relock=1

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    "$here/scripts/install-deps.sh" nodejs npm
fi

mkdir -p "$out"
{
    printf '{\n  "name": "mcpvet-harvest",\n  "private": true,\n'
    printf '  "description": "MCP servers harvested for corpus/real; generated from scripts/harvest/servers.tsv by harvest.sh.",\n'
    printf '  "dependencies": '
    node "$hv/servers.mjs" deps "$tsv" | sed '2,$s/^/  /'
    printf '}\n'
} >"$out/package.json"

npm_flags=(--ignore-scripts --legacy-peer-deps --no-audit --no-fund --loglevel=error)
if [ "$relock" -eq 0 ] && [ -f "$hv/package-lock.json" ]; then
    cp "$hv/package-lock.json" "$out/package-lock.json"
    echo "harvest: installing the pinned servers into $out (npm ci)"
    (cd "$out" && npm ci "${npm_flags[@]}")
else
    echo "harvest: resolving and installing the servers into $out (npm install)"
    rm -f "$out/package-lock.json"
    (cd "$out" && npm install "${npm_flags[@]}")
    cp "$out/package-lock.json" "$hv/package-lock.json"
    echo "harvest: wrote scripts/harvest/package-lock.json"
fi

rm -rf "$out/raw" "$sandbox_root"
mkdir -p "$out/raw"
node "$hv/servers.mjs" lines "$tsv" "$out/node_modules" >"$out/servers.lines"
n=$(wc -l <"$out/servers.lines")
echo "harvest: asking $n servers (${HARVEST_JOBS:-2} at a time)"
HARVEST_DIR="$out" xargs -d '\n' -P "${HARVEST_JOBS:-2}" -n 1 "$hv/harvest.sh" --one <"$out/servers.lines"
rm -rf "$sandbox_root"

mkdir -p "$here/corpus/real"
month="${HARVEST_MONTH:-$(date -u +%Y-%m)}"
node "$hv/convert.mjs" "$tsv" "$out/raw" "$here/corpus/real" "$month"
for f in npm_servers.json npm_servers.snapshot.json; do
    python3 -c 'import json, sys; json.load(open(sys.argv[1], encoding="utf-8"))' "$here/corpus/real/$f"
done
echo "harvest: wrote corpus/real/npm_servers.json, npm_servers.snapshot.json, npm_servers.failures.tsv"
