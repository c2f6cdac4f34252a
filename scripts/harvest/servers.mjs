// Reads scripts/harvest/servers.tsv, the checked-in list of MCP servers the
// harvest installs and asks, and answers the small questions harvest.sh has
// about it. Shared by convert.mjs.
//
// servers.tsv: '#' starts a comment line; every other line has five
// tab-separated columns:
//   package  exact npm version  bin name  args  env
// "bin name" is a key of the package's "bin" map; args are split on
// spaces, "{sandbox}" standing for the server's own empty scratch folder;
// env is a comma-separated list of NAME=VALUE with dummy values only
// (never a real secret); "-" means none.
//
// CLI (used by harvest.sh):
//   node servers.mjs deps SERVERS.tsv            -> package.json "dependencies" JSON
//   node servers.mjs lines SERVERS.tsv NM_DIR    -> one line per server:
//        package \t version \t raw-name \t entry-file \t args \t env

import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export function readServers(path) {
    const out = [];
    const seen = new Set();
    const lines = readFileSync(path, 'utf8').split('\n');
    lines.forEach((line, i) => {
        if (line.trim() === '' || line.startsWith('#'))
            return;
        const cols = line.split('\t');
        if (cols.length !== 5)
            throw new Error(`${path}:${i + 1}: expected 5 tab-separated columns, found ${cols.length}`);
        const [pkg, version, bin, args, env] = cols.map((c) => c.trim());
        if (!/^\d+\.\d+\.\d+([-+][0-9A-Za-z.-]+)?$/.test(version))
            throw new Error(`${path}:${i + 1}: version of ${pkg} must be exact, found "${version}"`);
        if (seen.has(pkg))
            throw new Error(`${path}:${i + 1}: ${pkg} is listed twice`);
        seen.add(pkg);
        for (const kv of env === '-' ? [] : env.split(',')) {
            if (!/^[A-Z_][A-Z0-9_]*=/.test(kv))
                throw new Error(`${path}:${i + 1}: env item "${kv}" is not NAME=VALUE`);
        }
        out.push({
            package: pkg,
            version,
            bin,
            args: args === '-' ? [] : args.split(' ').filter((a) => a !== ''),
            env: env === '-' ? [] : env.split(','),
        });
    });
    return out;
}

// File name (without .json) of a server's raw answer.
export function rawName(pkg) {
    return pkg.replace(/^@/, '').replace(/\//g, '__');
}

// The entry file of a server's bin, resolved in the installed package.
function entryFile(nmDir, s) {
    const dir = resolve(nmDir, s.package);
    const pj = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    let bins = pj.bin;
    if (typeof bins === 'string')
        bins = { [pj.name.split('/').pop()]: bins };
    if (bins === null || typeof bins !== 'object' || typeof bins[s.bin] !== 'string')
        throw new Error(`${s.package}@${pj.version} has no bin named "${s.bin}"`);
    if (pj.version !== s.version)
        throw new Error(`${s.package}: installed ${pj.version}, servers.tsv pins ${s.version}`);
    return join(dir, bins[s.bin]);
}

function main() {
    const [cmd, tsv, nmDir] = process.argv.slice(2);
    const servers = readServers(tsv);
    if (cmd === 'deps') {
        const deps = {};
        for (const s of [...servers].sort((a, b) => (a.package < b.package ? -1 : 1)))
            deps[s.package] = s.version;
        process.stdout.write(JSON.stringify(deps, null, 2) + '\n');
    } else if (cmd === 'lines') {
        for (const s of servers) {
            let entry;
            try {
                entry = entryFile(nmDir, s);
            } catch (err) {
                entry = `!${err.message}`;
            }
            // "-" for an empty column: bash's read collapses adjacent tabs.
            const cols = [s.package, s.version, rawName(s.package), entry, s.args.join(' ') || '-', s.env.join(',') || '-'];
            if (cols.some((c) => c.includes('\t') || c.includes('\n')))
                throw new Error(`${s.package}: a tab or newline inside a column`);
            process.stdout.write(cols.join('\t') + '\n');
        }
    } else {
        process.stderr.write('usage: node servers.mjs deps|lines SERVERS.tsv [NM_DIR]\n');
        process.exit(2);
    }
}

if (import.meta.url === `file://${process.argv[1]}`)
    main();
