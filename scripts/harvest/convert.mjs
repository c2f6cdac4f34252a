// Turns the raw answers of harvest.mjs (one JSON file per server) into the
// project's labeled corpus format, a multi-server snapshot and a failure
// report. Run by harvest.sh after every server was asked.
//
// Usage: node convert.mjs SERVERS.tsv RAW_DIR OUT_DIR MONTH
//   writes OUT_DIR/npm_servers.json           {"description","entries":[...]}
//          OUT_DIR/npm_servers.snapshot.json  {"description","servers":[...]}
//          OUT_DIR/npm_servers.failures.tsv   package, version, stage, reason
// Entries are sorted by package, then tool name; ids are
// "npm-<package>-<tool>" with characters outside [A-Za-z0-9._-] replaced,
// and a numeric suffix only when two tools of one server share a name.
// Tools are copied exactly as served (every key, in the server's order).

import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join, dirname, resolve } from 'node:path';
import { readServers, rawName } from './servers.mjs';

const [tsvPath, rawDir, outDir, month] = process.argv.slice(2);
if (!month) {
    process.stderr.write('usage: node convert.mjs SERVERS.tsv RAW_DIR OUT_DIR YYYY-MM\n');
    process.exit(2);
}

const servers = readServers(tsvPath).sort((a, b) => cmp(a.package, b.package));

function cmp(a, b) {
    return a < b ? -1 : a > b ? 1 : 0;
}

function idPart(s) {
    return s.replace(/^@/, '').replace(/[^A-Za-z0-9._-]+/g, '-');
}

// Short server names: the unscoped package name, or scope-name when two
// packages of the set share the unscoped part.
const shortCount = new Map();
for (const s of servers) {
    const short = s.package.split('/').pop();
    shortCount.set(short, (shortCount.get(short) || 0) + 1);
}
function shortName(pkg) {
    const short = pkg.split('/').pop();
    return shortCount.get(short) > 1 ? idPart(pkg) : short;
}

// The install folder's absolute path is replaced in the report, which
// stays the same wherever the harvest ran.
const installDir = dirname(resolve(rawDir));

function oneLine(s, max) {
    const t = String(s || '').split(installDir).join('<harvest-dir>').replace(/\s+/g, ' ').trim();
    return t.length > max ? t.slice(0, max - 3) + '...' : t;
}

// Tools sorted by name; ties (a server listing one name twice) keep the
// served order.
function byName(list) {
    return list
        .map((t, i) => ({ t, i }))
        .sort((x, y) => cmp(String(x.t && x.t.name), String(y.t && y.t.name)) || x.i - y.i)
        .map((x) => x.t);
}

const entries = [];
const snapServers = [];
const failures = [];
const ids = new Set();
let nPrompts = 0, nResources = 0, nTemplates = 0, nOk = 0;

for (const s of servers) {
    const rawPath = join(rawDir, rawName(s.package) + '.json');
    let raw = null;
    if (existsSync(rawPath)) {
        try {
            raw = JSON.parse(readFileSync(rawPath, 'utf8'));
        } catch (err) {
            raw = { ok: false, stage: 'harvest', reason: `unreadable raw answer: ${err.message}` };
        }
    } else {
        raw = { ok: false, stage: 'harvest', reason: 'no raw answer (not run or killed)' };
    }
    const tools = raw.ok && Array.isArray(raw.tools) ? raw.tools : [];
    if (!raw.ok || tools.length === 0) {
        const why = raw.ok ? 'tools/list answered with no tools' : raw.reason;
        const lastErr = oneLine(String(raw.stderr || '').trim().split('\n').filter((l) => l.trim() !== '').slice(-2).join(' | '), 400);
        failures.push([s.package, s.version, raw.ok ? 'tools/list' : raw.stage, oneLine(why, 200), lastErr]);
        continue;
    }
    nOk++;
    const server = shortName(s.package);
    const provenance = `npm:${s.package}@${s.version} tools/list, harvested ${month} by scripts/harvest/harvest.sh`;
    const seen = new Map();
    const sorted = byName(tools);
    for (const tool of sorted) {
        const base = `npm-${idPart(s.package)}-${idPart(String(tool.name))}`;
        const n = (seen.get(base) || 0) + 1;
        seen.set(base, n);
        let id = n === 1 ? base : `${base}-${n}`;
        while (ids.has(id))
            id += '-x';
        ids.add(id);
        entries.push({ id, label: 'benign', category: 'benign', provenance, server, tool });
    }
    const snap = { name: server, transport: 'stdio', tools: sorted };
    if (typeof raw.protocolVersion === 'string')
        snap.protocolVersion = raw.protocolVersion;
    for (const key of ['prompts', 'resources', 'resourceTemplates']) {
        if (Array.isArray(raw[key]) && raw[key].length > 0)
            snap[key] = byName(raw[key]);
    }
    // mcpvet scans a server's instructions as an item of their own.
    if (typeof raw.instructions === 'string' && raw.instructions.length > 0)
        snap.instructions = raw.instructions;
    nPrompts += (snap.prompts || []).length;
    nResources += (snap.resources || []).length;
    nTemplates += (snap.resourceTemplates || []).length;
    snapServers.push(snap);
}

const how =
    'Re-create with scripts/harvest/harvest.sh (installs the pinned packages of scripts/harvest/servers.tsv ' +
    'into build-harvest/ and asks each stdio server for tools/list, prompts/list and resources/list with dummy ' +
    'environment values).';
const what =
    `Real tool definitions of ${nOk} MCP servers published on the npm registry, at pinned versions, ` +
    `harvested ${month} from each server's own tools/list answer. Every entry is labeled benign: ` +
    'published servers, assumed honest; data for measuring false positives, never for writing rules. ' +
    "The tool texts belong to their packages' authors and are kept unchanged as test data.";

writeFileSync(
    join(outDir, 'npm_servers.json'),
    JSON.stringify({ description: `${what} ${how}`, entries }, null, 1) + '\n',
);
writeFileSync(
    join(outDir, 'npm_servers.snapshot.json'),
    JSON.stringify(
        {
            description: `The same servers and tools as npm_servers.json as one multi-server snapshot, ` +
                `with the prompts, resources and resource templates the servers listed. ${how}`,
            servers: snapServers,
        },
        null,
        1,
    ) + '\n',
);
const head = '# package\tversion\tstage\treason\tlast stderr lines\n';
writeFileSync(
    join(outDir, 'npm_servers.failures.tsv'),
    head + failures.map((f) => f.join('\t')).join('\n') + (failures.length ? '\n' : ''),
);
process.stdout.write(
    `convert: ${servers.length} servers, ${nOk} answered, ${failures.length} failed; ` +
        `${entries.length} tools, ${nPrompts} prompts, ${nResources} resources, ${nTemplates} resource templates\n`,
);
