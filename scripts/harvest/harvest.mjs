// Asks one installed MCP server (stdio) for what it advertises and writes
// the answer as JSON. Used by harvest.sh once per line of servers.tsv.
//
// It speaks the MCP lifecycle itself, newline-delimited JSON-RPC over the
// child's stdin/stdout: initialize, notifications/initialized, tools/list
// (following nextCursor), then prompts/list, resources/list and
// resources/templates/list when the server announced those capabilities.
// Everything is bounded: a timeout per request, a timeout for the whole
// server, a cap on pages and on bytes read; the child runs in its own
// process group and the group is killed at the end whatever happened.
//
// Usage: node harvest.mjs OUT.json CWD -- COMMAND [ARGS...]
// The environment of this process is passed to the server as it is; the
// caller (harvest.sh) builds a minimal one with dummy values only.
// Exit code 0 when tools/list answered, 1 otherwise; OUT.json is written in
// both cases and says why ({"ok": false, "stage", "reason", "stderr"}).

import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';

const REQUEST_TIMEOUT_MS = Number(process.env.HARVEST_REQUEST_TIMEOUT_MS || 30000);
const SERVER_TIMEOUT_MS = Number(process.env.HARVEST_SERVER_TIMEOUT_MS || 90000);
const MAX_PAGES = 50;
const MAX_STDOUT_BYTES = 64 * 1024 * 1024;
const STDERR_KEEP = 4000;
const PROTOCOL_VERSION = '2025-06-18';

const argv = process.argv.slice(2);
const sep = argv.indexOf('--');
if (sep !== 2 || argv.length < 4) {
    process.stderr.write('usage: node harvest.mjs OUT.json CWD -- COMMAND [ARGS...]\n');
    process.exit(2);
}
const [outPath, cwd] = argv;
const [command, ...args] = argv.slice(3);

const result = { ok: false, stage: 'spawn', reason: '', command: [command, ...args].join(' ') };
let stderrTail = '';
let stdoutBytes = 0;
let nonJsonLines = 0;
let nextId = 1;
const pending = new Map();
let exited = null;
let finished = false;

const child = spawn(command, args, {
    cwd,
    env: process.env,
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true, // own process group, so grandchildren die with it
});

function killGroup(signal) {
    try {
        process.kill(-child.pid, signal);
    } catch {
        /* already gone */
    }
}

function failAll(reason) {
    for (const [, p] of pending) {
        clearTimeout(p.timer);
        p.reject(new Error(reason));
    }
    pending.clear();
}

child.on('error', (err) => {
    exited = `spawn error: ${err.code || err.message}`;
    failAll(exited);
});
child.on('exit', (code, signal) => {
    exited = signal ? `exited on signal ${signal}` : `exited with code ${code}`;
    failAll(`server ${exited}`);
});
child.stdin.on('error', () => {
    /* EPIPE when the server is gone: the exit handler reports it */
});

child.stderr.setEncoding('utf8');
child.stderr.on('data', (chunk) => {
    stderrTail = (stderrTail + chunk).slice(-STDERR_KEEP);
});

let lineBuf = Buffer.alloc(0);
child.stdout.on('data', (chunk) => {
    stdoutBytes += chunk.length;
    if (stdoutBytes > MAX_STDOUT_BYTES) {
        failAll(`stdout larger than ${MAX_STDOUT_BYTES} bytes`);
        killGroup('SIGKILL');
        return;
    }
    lineBuf = Buffer.concat([lineBuf, chunk]);
    let nl;
    while ((nl = lineBuf.indexOf(0x0a)) >= 0) {
        const line = lineBuf.subarray(0, nl).toString('utf8').trim();
        lineBuf = lineBuf.subarray(nl + 1);
        if (line !== '')
            onLine(line);
    }
});

function send(obj) {
    child.stdin.write(JSON.stringify(obj) + '\n');
}

function onLine(line) {
    let msg;
    try {
        msg = JSON.parse(line);
    } catch {
        nonJsonLines++; // a server logging to stdout; the protocol lines still count
        return;
    }
    if (msg === null || typeof msg !== 'object')
        return;
    if (msg.method !== undefined && msg.id !== undefined) {
        // A request from the server. We announced no client capabilities,
        // so only ping gets a real answer.
        if (msg.method === 'ping')
            send({ jsonrpc: '2.0', id: msg.id, result: {} });
        else
            send({ jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: 'Method not found' } });
        return;
    }
    if (msg.id === undefined || !pending.has(msg.id))
        return; // notifications (logging, list_changed) are not needed here
    const p = pending.get(msg.id);
    pending.delete(msg.id);
    clearTimeout(p.timer);
    if (msg.error !== undefined)
        p.reject(new Error(`JSON-RPC error ${msg.error.code}: ${String(msg.error.message).slice(0, 300)}`));
    else
        p.resolve(msg.result);
}

function request(method, params) {
    if (exited !== null)
        return Promise.reject(new Error(`server ${exited}`));
    const id = nextId++;
    return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
            pending.delete(id);
            reject(new Error(`no answer to ${method} within ${REQUEST_TIMEOUT_MS} ms`));
        }, REQUEST_TIMEOUT_MS);
        pending.set(id, { resolve, reject, timer });
        send({ jsonrpc: '2.0', id, method, params });
    });
}

async function listAll(method, key) {
    const items = [];
    let cursor;
    for (let page = 0; page < MAX_PAGES; page++) {
        const res = await request(method, cursor === undefined ? {} : { cursor });
        if (res === null || typeof res !== 'object' || !Array.isArray(res[key]))
            throw new Error(`${method} result has no "${key}" array`);
        items.push(...res[key]);
        if (typeof res.nextCursor !== 'string' || res.nextCursor === '')
            return items;
        cursor = res.nextCursor;
    }
    throw new Error(`${method}: more than ${MAX_PAGES} pages`);
}

async function run() {
    result.stage = 'initialize';
    const init = await request('initialize', {
        protocolVersion: PROTOCOL_VERSION,
        capabilities: {},
        clientInfo: { name: 'mcpvet-harvest', version: '1.0.0' },
    });
    const caps = (init && init.capabilities) || {};
    result.protocolVersion = init && init.protocolVersion;
    result.serverInfo = init && init.serverInfo;
    result.capabilities = caps;
    if (init && typeof init.instructions === 'string')
        result.instructions = init.instructions;
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });

    result.stage = 'tools/list';
    result.tools = await listAll('tools/list', 'tools');
    result.ok = true;
    // The optional lists: a failure here is recorded, not fatal.
    const optional = [
        ['prompts', 'prompts/list', 'prompts'],
        ['resources', 'resources/list', 'resources'],
        ['resources', 'resources/templates/list', 'resourceTemplates'],
    ];
    result.optionalErrors = {};
    for (const [cap, method, key] of optional) {
        if (caps[cap] === undefined || caps[cap] === null)
            continue;
        try {
            result[key] = await listAll(method, key);
        } catch (err) {
            result.optionalErrors[key] = err.message;
        }
    }
    result.stage = 'done';
}

function finish() {
    if (finished)
        return;
    finished = true;
    clearTimeout(overall);
    if (!result.ok && result.reason === '')
        result.reason = exited !== null ? `server ${exited}` : 'unknown';
    result.nonJsonStdoutLines = nonJsonLines;
    if (!result.ok)
        result.stderr = stderrTail;
    writeFileSync(outPath, JSON.stringify(result, null, 1) + '\n');
    // Close stdin first (the MCP way to ask a stdio server to stop), then
    // make sure the whole group is gone.
    try {
        child.stdin.end();
    } catch {
        /* ignore */
    }
    killGroup('SIGTERM');
    setTimeout(() => {
        killGroup('SIGKILL');
        process.exit(result.ok ? 0 : 1);
    }, 1500).unref();
    setTimeout(() => process.exit(result.ok ? 0 : 1), 2000);
}

const overall = setTimeout(() => {
    if (!result.ok)
        result.reason = `whole-server timeout (${SERVER_TIMEOUT_MS} ms) at ${result.stage}`;
    failAll('whole-server timeout');
    finish();
}, SERVER_TIMEOUT_MS);

run()
    .catch((err) => {
        if (!result.ok)
            result.reason = err.message;
    })
    .finally(finish);
