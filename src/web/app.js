/*
 * The review page of `mcpvet serve` (issue 16): queue, tool, diff, decide,
 * report. Plain JavaScript over the documented REST API, no framework.
 *
 * Safety rules this file keeps:
 *  - every string that comes from the API (tool names, descriptions,
 *    findings, reasons) is put into the page with textContent, never as
 *    HTML; no innerHTML, insertAdjacentHTML or document.write anywhere;
 *  - hidden and control characters are shown as highlighted escapes: the
 *    server already sends them as \uXXXX text, and any that still arrive
 *    raw are escaped here before display;
 *  - the API key lives in sessionStorage only and goes in a header, never
 *    in a URL; POSTs also carry the CSRF token from /api/v1/csrf;
 *  - a tool is addressed by its numeric id (#/tool/42, /api/v1/tools/42),
 *    never by its name: names arrive render-safe (escaped), may hold "/",
 *    "?", "#", "%", quotes or be "..", and would not survive a URL;
 *  - the queue is filtered and paged by the server (GET /api/v1/queue): the
 *    page holds one page of tools and one page of servers, whatever the
 *    size of the store;
 *  - a decision names the pin the person saw; the server refuses it (409
 *    stale) when the tool changed in between.
 */
'use strict';

const KEY_NAME = 'mcpvet.apiKey';
const PER_PAGE = 50;
let csrf = null;
const SERVERS_PER_PAGE = 25;
let queueFilter = { state: '', verdict: '', q: '', serverId: 0, serverName: '', page: 1, serversQ: '', serversPage: 1 };
let queueSeq = 0;

/* ------------------------------------------------------------ helpers */

function $(id) { return document.getElementById(id); }

/* An element with attributes (never an event handler attribute) and
 * children: strings become text nodes. */
function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === 'class') e.className = v;
    else if (k === 'text') e.textContent = v;
    else if (k.startsWith('on')) throw new Error('no handler attributes');
    else e.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined) continue;
    e.appendChild(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
  }
  return e;
}

/* A character a reader cannot see or that changes how text around it
 * reads: C0/C1 controls, zero-width and bidi controls, tags, BOM. */
const HIDDEN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufffb]|\udb40[\udc00-\udc7f]/g;
/* Escapes as the server writes them, plus raw hidden characters. */
const ESCAPED = /\\u\{[0-9A-Fa-f]{1,6}\}|\\u[0-9A-Fa-f]{4}|\\x[0-9A-Fa-f]{2}|\\e\[|[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufffb]|\udb40[\udc00-\udc7f]/g;

function escapeChar(ch) {
  const cp = ch.codePointAt(0);
  return cp > 0xffff ? '\\u{' + cp.toString(16).toUpperCase() + '}'
                     : '\\u' + cp.toString(16).toUpperCase().padStart(4, '0');
}

/* Plain text with every hidden character as an escape (for titles). */
function plain(s) { return String(s === null || s === undefined ? '' : s).replace(HIDDEN, escapeChar); }

/* Text as a fragment: escapes highlighted in <span class="esc">, the rest
 * as text nodes. */
function safeText(s) {
  const frag = document.createDocumentFragment();
  const str = String(s === null || s === undefined ? '' : s);
  let last = 0;
  for (const m of str.matchAll(ESCAPED)) {
    if (m.index > last) frag.appendChild(document.createTextNode(str.slice(last, m.index)));
    const raw = m[0];
    const shown = raw.startsWith('\\') ? raw : escapeChar(raw);
    frag.appendChild(el('span', { class: 'esc', title: 'hidden or control character' }, shown));
    last = m.index + raw.length;
  }
  if (last < str.length) frag.appendChild(document.createTextNode(str.slice(last)));
  return frag;
}

function stateCell(state) { return el('span', { class: 'state-' + state }, state || ''); }

function toolHref(id) { return '#/tool/' + String(Number(id)); }

function setStatus(msg) { $('status').textContent = msg || ''; }

function show(...nodes) {
  const v = $('view');
  /* replaceChildren would turn a null into the text "null" */
  v.replaceChildren(...nodes.flat().filter(n => n !== null && n !== undefined && n !== false));
}

/* ---------------------------------------------------------------- API */

class ApiError extends Error {
  constructor(status, body) {
    super((body && body.error && body.error.message) || ('HTTP ' + status));
    this.status = status;
    this.body = body;
  }
}

async function api(method, path, body) {
  const key = sessionStorage.getItem(KEY_NAME);
  if (!key) { showLogin(); throw new ApiError(401, null); }
  const headers = { 'X-API-Key': key, 'Accept': 'application/json' };
  const init = { method, headers, credentials: 'omit', cache: 'no-store', redirect: 'error' };
  if (method !== 'GET') {
    if (!csrf) await loadCsrf();
    headers['X-CSRF-Token'] = csrf;
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body || {});
  }
  const resp = await fetch(path, init);
  let data = null;
  try { data = await resp.json(); } catch (e) { data = null; }
  if (resp.status === 401) { sessionStorage.removeItem(KEY_NAME); showLogin('The key was not accepted.'); }
  if (!resp.ok) throw new ApiError(resp.status, data);
  return data;
}

async function loadCsrf() {
  const r = await api('GET', '/api/v1/csrf');
  csrf = r.csrf_token;
}

function seg(s) { return encodeURIComponent(s); }

/* -------------------------------------------------------------- login */

function showLogin(msg) {
  $('login').hidden = false;
  $('logout').hidden = true;
  show();
  setStatus(msg || 'Enter the API key `mcpvet serve` uses (see the path it printed).');
  $('key').focus();
}

function onLogin(ev) {
  ev.preventDefault();
  const k = $('key').value.trim();
  $('key').value = '';
  if (!k) return;
  sessionStorage.setItem(KEY_NAME, k);
  $('login').hidden = true;
  $('logout').hidden = false;
  csrf = null;
  route();
}

/* -------------------------------------------------------------- queue */

async function refreshBadge() {
  try {
    const q = await api('GET', '/api/v1/queue?per_page=1&servers_per_page=1');
    const c = q.counts;
    $('badge').textContent = String(c.pending + c.changed + c.quarantined);
  } catch (e) { /* the view shows the error */ }
}

function queueParams(perPage) {
  const p = new URLSearchParams();
  if (queueFilter.state) p.set('state', queueFilter.state);
  if (queueFilter.verdict) p.set('verdict', queueFilter.verdict);
  if (queueFilter.q) p.set('q', queueFilter.q);
  if (queueFilter.serverId) p.set('server_id', String(queueFilter.serverId));
  p.set('page', String(queueFilter.page));
  p.set('per_page', String(perPage));
  if (queueFilter.serversQ) p.set('servers_q', queueFilter.serversQ);
  p.set('servers_page', String(queueFilter.serversPage));
  p.set('servers_per_page', String(SERVERS_PER_PAGE));
  return p;
}

function pagerOf(id, page, pages, label, go) {
  const pager = el('p', { class: 'pager', id }, `${label} page ${page} of ${pages}`);
  if (page > 1) {
    const b = el('button', { type: 'button', class: 'prev' }, 'Previous');
    b.addEventListener('click', () => go(page - 1));
    pager.appendChild(b);
  }
  if (page < pages) {
    const b = el('button', { type: 'button', class: 'next' }, 'Next');
    b.addEventListener('click', () => go(page + 1));
    pager.appendChild(b);
  }
  return pager;
}

/* A text box that filters on the server after a pause in typing. */
function searchBox(id, label, value, onValue) {
  const input = el('input', { id, type: 'search', value, autocomplete: 'off', maxlength: 64 });
  let timer = null;
  input.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(() => onValue(input.value), 250);
  });
  input.addEventListener('keydown', ev => {
    if (ev.key === 'Enter') { ev.preventDefault(); clearTimeout(timer); onValue(input.value); }
  });
  return el('label', {}, label + ' ', input);
}

function requeue(focusId) {
  viewQueue(focusId).catch(fail);
}

async function viewQueue(focusId) {
  const seq = ++queueSeq;
  const q = await api('GET', '/api/v1/queue?' + queueParams(PER_PAGE).toString());
  if (seq !== queueSeq) return; /* a newer filter's answer wins */
  const c = q.counts;
  $('badge').textContent = String(c.pending + c.changed + c.quarantined);

  const stateSel = el('select', { id: 'filter-state' },
    ['', 'pending', 'changed', 'quarantined'].map(s =>
      el('option', { value: s, selected: s === queueFilter.state }, s || 'any state')));
  const verdictSel = el('select', { id: 'filter-verdict' },
    ['', 'clean', 'review', 'quarantine', 'none'].map(s =>
      el('option', { value: s, selected: s === queueFilter.verdict }, s || 'any verdict')));
  stateSel.addEventListener('change', () => { queueFilter.state = stateSel.value; queueFilter.page = 1; requeue('filter-state'); });
  verdictSel.addEventListener('change', () => { queueFilter.verdict = verdictSel.value; queueFilter.page = 1; requeue('filter-verdict'); });
  const search = searchBox('filter-q', 'Name contains', queueFilter.q, v => {
    queueFilter.q = v; queueFilter.page = 1; requeue('filter-q');
  });
  const serverNote = queueFilter.serverId
    ? el('span', { id: 'filter-server' }, 'Server ', el('strong', {}, safeText(queueFilter.serverName)), ' ',
      (() => {
        const b = el('button', { type: 'button', id: 'clear-server' }, 'Every server');
        b.addEventListener('click', () => { queueFilter.serverId = 0; queueFilter.serverName = ''; queueFilter.page = 1; requeue('filter-state'); });
        return b;
      })())
    : null;

  const servers = el('table', { id: 'servers' },
    el('thead', {}, el('tr', {}, el('th', {}, 'Server'), el('th', {}, 'Pending'), el('th', {}, 'Changed'),
      el('th', {}, 'Quarantined'), el('th', {}, ''))),
    el('tbody', {}, q.servers.map(s => {
      const only = el('button', { type: 'button', class: 'only-server' }, 'Show only');
      only.addEventListener('click', () => {
        queueFilter.serverId = s.id; queueFilter.serverName = s.name; queueFilter.page = 1; requeue('clear-server');
      });
      const b = el('button', { type: 'button', class: 'approve-clean' }, 'Approve clean pending');
      b.addEventListener('click', () => approveCleanPending(s).catch(fail));
      return el('tr', { 'data-server-id': s.id, 'data-server': s.name }, el('td', {}, safeText(s.name)), el('td', {}, s.pending),
        el('td', {}, s.changed), el('td', {}, s.quarantined), el('td', {}, only, s.pending > 0 ? b : ''));
    })));

  let list;
  if (q.total === 0) {
    list = el('p', { id: 'empty' }, c.pending + c.changed + c.quarantined === 0
      ? 'The queue is empty: every tool is approved.' : 'Nothing matches this filter.');
  } else {
    list = el('table', { id: 'queue' },
      el('thead', {}, el('tr', {}, el('th', {}, 'Tool'), el('th', {}, 'Server'), el('th', {}, 'State'),
        el('th', {}, 'Verdict'), el('th', {}, 'Since'))),
      el('tbody', {}, q.tools.map(t => el('tr', { 'data-id': t.id, 'data-server': t.server, 'data-tool': t.name },
        el('td', {}, el('a', { href: toolHref(t.id), class: 'tool-link' }, safeText(t.name)),
          t.renamed_from ? el('span', { class: 'renamed' }, ' renamed from ', safeText(t.renamed_from)) : null),
        el('td', {}, safeText(t.server)), el('td', {}, stateCell(t.state)),
        el('td', {}, t.verdict || ''), el('td', {}, new Date(t.state_since * 1000).toISOString().slice(0, 16).replace('T', ' '))))));
  }
  const serverPages = Math.max(1, Math.ceil(q.servers_total / SERVERS_PER_PAGE));
  show(el('h2', {}, 'Review queue'),
    el('p', { id: 'counts' }, `${c.pending} pending, ${c.changed} changed, ${c.quarantined} quarantined`),
    el('div', { class: 'filters' }, el('label', {}, 'State ', stateSel), el('label', {}, 'Verdict ', verdictSel),
      search, serverNote),
    el('p', { id: 'total' }, `${q.total} tools match`),
    list, pagerOf('pager', q.page, q.pages, 'Tools', p => { queueFilter.page = p; requeue('pager'); }),
    el('h3', {}, 'Servers'),
    el('div', { class: 'filters' }, searchBox('filter-servers', 'Server name contains', queueFilter.serversQ, v => {
      queueFilter.serversQ = v; queueFilter.serversPage = 1; requeue('filter-servers');
    })),
    el('p', { id: 'servers-total' }, `${q.servers_total} servers with tools to review`),
    servers, pagerOf('servers-pager', queueFilter.serversPage, serverPages, 'Servers',
      p => { queueFilter.serversPage = p; requeue('servers-pager'); }));
  setStatus('');
  if (focusId) {
    const f = $(focusId);
    const target = f && (f.matches('input, select, button') ? f : f.querySelector('input, select, button'));
    if (target) target.focus();
  }
}

/* Approve every clean pending tool of one server: the ids (and the pins
 * shown) come page by page from the queue, the decision in chunks. */
async function approveCleanPending(s) {
  const chosen = [];
  for (let page = 1; page <= 100; page++) {
    const p = new URLSearchParams({ server_id: String(s.id), state: 'pending', verdict: 'clean',
      page: String(page), per_page: '1000', servers_per_page: '1' });
    const r = await api('GET', '/api/v1/queue?' + p.toString());
    for (const t of r.tools) chosen.push({ id: t.id, pin: t.current_pin });
    if (page >= r.pages) break;
  }
  if (chosen.length === 0) { setStatus('No clean pending tool on ' + plain(s.name) + '.'); return; }
  let approved = 0;
  for (let i = 0; i < chosen.length; i += 1000) {
    const r = await api('POST', '/api/v1/approve',
      { tools: chosen.slice(i, i + 1000), reason: 'approved on the review page (clean pending)' });
    approved += r.approved;
  }
  await viewQueue();
  setStatus(`Approved ${approved} clean pending tools of ${plain(s.name)}.`);
}

/* --------------------------------------------------------------- tool */

/* A unified diff as two columns: removed lines left, added lines right,
 * context on both; rows are aligned so a changed line sits beside its
 * replacement. */
function diffColumns(text) {
  const left = [], right = [];
  const lines = text.split('\n');
  let dels = [], adds = [];
  const flush = () => {
    const n = Math.max(dels.length, adds.length);
    for (let i = 0; i < n; i++) {
      left.push(i < dels.length ? ['del', dels[i]] : ['blank', '']);
      right.push(i < adds.length ? ['add', adds[i]] : ['blank', '']);
    }
    dels = []; adds = [];
  };
  for (const l of lines) {
    if (l.startsWith('---') || l.startsWith('+++')) continue;
    if (l.startsWith('@@')) { flush(); left.push(['hunk', l]); right.push(['hunk', l]); continue; }
    if (l.startsWith('-')) { dels.push(l.slice(1)); continue; }
    if (l.startsWith('+')) { adds.push(l.slice(1)); continue; }
    flush();
    if (l === '') continue;
    left.push(['ctx', l.slice(1)]); right.push(['ctx', l.slice(1)]);
  }
  flush();
  const col = (rows, id, title) => el('div', {}, el('h4', {}, title),
    el('pre', { id }, rows.map(([k, s]) => el('span', { class: 'line ' + k, 'data-kind': k }, safeText(s)))));
  return el('div', { class: 'diff', id: 'diff' }, col(left, 'diff-approved', 'Approved'), col(right, 'diff-current', 'Current'));
}

/* The findings summary the store keeps: {verdict, severity, danger,
 * checks, signals:[{check, tier, field, evidence, detail}]}. */
function signalsOf(f) {
  if (!f || typeof f !== 'object') return [];
  if (Array.isArray(f)) return f;
  return Array.isArray(f.signals) ? f.signals : Array.isArray(f.findings) ? f.findings : [];
}

function findingsList(findings) {
  if (!findings) return [el('p', { class: 'muted' }, 'No findings recorded.')];
  const out = [];
  if (typeof findings === 'object' && !Array.isArray(findings) && (findings.verdict || findings.danger))
    out.push(el('p', { class: 'summary' }, plain([findings.verdict, findings.severity, findings.danger]
      .filter(Boolean).join(' \u00b7 '))));
  const items = signalsOf(findings);
  if (items.length === 0 && out.length === 0) return [el('p', { class: 'muted' }, 'No findings.')];
  for (const f of items) {
    if (typeof f !== 'object' || f === null) { out.push(el('div', { class: 'finding' }, safeText(String(f)))); continue; }
    const head = [f.check || f.id || 'finding', f.tier || f.severity || '', f.field || '']
      .filter(Boolean).map(plain).join(' \u00b7 ');
    const ev = f.evidence;
    out.push(el('div', { class: 'finding' }, el('strong', {}, head),
      f.detail || f.message ? el('div', {}, safeText(f.detail || f.message)) : null,
      ev !== undefined && ev !== null ? el('pre', { class: 'evidence' }, el('mark', {}, safeText(typeof ev === 'string' ? ev : JSON.stringify(ev)))) : null));
  }
  return out;
}

/* The character diff of each string that differs: the approved text with
 * deletions marked (<del>), the current one with insertions (<ins>). Every
 * piece is text; the server already escaped hidden characters. */
function stringDiffs(t) {
  if (!Array.isArray(t.strings) || t.strings.length === 0) return null;
  const items = t.strings.map(d => {
    const side = (keep, tag, cls) => el('div', { class: 'side ' + cls },
      el('span', { class: 'side-label' }, cls === 'old' ? 'approved ' : 'current '),
      d.ops.filter(o => o.op === '=' || o.op === keep).map(o =>
        o.op === '=' ? el('span', { class: 'same' }, safeText(o.text)) : el(tag, {}, safeText(o.text))));
    const note = d.mode !== 'char'
      ? el('span', { class: 'mode-note' }, ` (too different for a character diff: by ${d.mode})`) : null;
    return el('div', { class: 'string-diff', 'data-change': d.change },
      el('div', { class: 'path' }, el('code', {}, safeText(d.path)), ` ${d.change}`, note),
      d.change !== 'added' ? side('-', 'del', 'old') : null,
      d.change !== 'removed' ? side('+', 'ins', 'new') : null);
  });
  return el('div', { id: 'strings' }, items,
    t.strings_truncated ? el('p', { class: 'muted' }, 'More strings differ than are shown.') : null);
}

async function viewTool(id) {
  const [t, ev] = await Promise.all([api('GET', `/api/v1/tools/${Number(id)}`),
    api('GET', `/api/v1/events?tool_id=${Number(id)}&limit=100`)]);
  const approve = el('button', { type: 'button', id: 'approve' }, 'Approve');
  const quarantine = el('button', { type: 'button', id: 'quarantine', class: 'danger' }, 'Quarantine');
  const confirmBox = el('div', { id: 'confirm-box' });
  approve.addEventListener('click', () => decideApprove(t, false, confirmBox).catch(fail));
  quarantine.addEventListener('click', () => decideQuarantine(t).catch(fail));
  const history = el('table', { id: 'history' },
    el('thead', {}, el('tr', {}, ['Time', 'Actor', 'Change', 'Reason'].map(h => el('th', {}, h)))),
    el('tbody', {}, ev.events.slice().reverse().map(e => el('tr', {},
      el('td', {}, e.time), el('td', {}, e.actor), el('td', {}, `${e.old_state || '-'} \u2192 ${e.new_state || '-'}`),
      el('td', {}, safeText(e.reason || ''))))));
  const ren = t.rename;
  const renameNote = ren ? el('p', { id: 'rename', class: 'rename' }, 'Renamed from ',
    el('a', { href: toolHref(ren.from_id) }, safeText(ren.from)),
    ren.exact ? ' (the same definition under a new name)'
      : ` (${(ren.similarity_permille / 10).toFixed(1)}% alike without the name)`,
    ren.from_state === 'approved' ? '; the diff is against its approval.' : '; it was never approved either.') : null;
  const diffTitle = ren ? 'Diff: ' + (ren.from_state === 'approved' ? 'approved' : 'removed') + ' tool it replaces vs current'
    : t.never_approved ? 'Diff (never approved)' : 'Diff: approved vs current';
  show(el('p', {}, el('a', { href: '#/queue', id: 'back' }, '\u2190 Queue')),
    el('h2', { id: 'tool-name', 'data-id': t.id }, safeText(t.tool)),
    el('p', {}, 'Server ', el('strong', { id: 'tool-server' }, safeText(t.server)), ' \u00b7 state ', stateCell(t.state),
      ' \u00b7 verdict ', t.verdict || 'none'),
    renameNote,
    el('p', { class: 'muted' }, `approved pin ${t.approved_pin || 'none'} \u00b7 current pin ${t.current_pin || 'none'}`,
      t.changed_fields.length ? ' \u00b7 changed: ' + t.changed_fields.join(', ') : ''),
    el('div', {}, approve, quarantine), confirmBox,
    el('h3', {}, 'Findings'), el('div', { id: 'findings' }, findingsList(t.findings)),
    t.strings && t.strings.length ? el('h3', {}, 'Changed text, character by character') : null,
    stringDiffs(t),
    t.diff ? el('h3', {}, diffTitle) : null,
    t.diff ? diffColumns(t.diff) : null,
    el('h3', {}, 'Definition'), el('pre', { id: 'definition' }, safeText(t.definition)),
    el('h3', {}, 'History'), history);
  setStatus('');
  approve.focus();
}

/* Approve one tool, naming the pin on screen. A quarantined tool (or a
 * 409 from the server) needs a second, explicit confirmation that shows
 * its findings; a stale pin reloads the tool. */
async function decideApprove(t, force, box) {
  if (t.state === 'quarantined' && !force) { askForce(t, t.findings, box); return; }
  try {
    await api('POST', '/api/v1/approve', { tools: [{ id: t.id, pin: t.current_pin }], force: force,
      reason: force ? 'approved past quarantine on the review page' : 'approved on the review page' });
  } catch (e) {
    if (e.status === 409 && e.body && e.body.error && e.body.error.code === 'stale') {
      await viewTool(t.id);
      setStatus('The tool changed while it was shown: look again before deciding.');
      return;
    }
    if (e.status === 409 && e.body && e.body.error && Array.isArray(e.body.error.tools)) {
      const q = e.body.error.tools[0];
      askForce(t, q ? q.findings : null, box);
      return;
    }
    throw e;
  }
  await viewTool(t.id);
  refreshBadge();
  setStatus(`Approved ${plain(t.tool)}.`);
}

function askForce(t, findings, box) {
  const yes = el('button', { type: 'button', id: 'force-approve', class: 'danger' }, 'Approve anyway');
  const no = el('button', { type: 'button', id: 'cancel-approve' }, 'Cancel');
  yes.addEventListener('click', () => decideApprove(t, true, box).catch(fail));
  no.addEventListener('click', () => box.replaceChildren());
  box.replaceChildren(el('div', { class: 'confirm', role: 'alertdialog', 'aria-label': 'Confirm approval' },
    el('p', {}, el('strong', {}, 'This tool is quarantined.'), ' Approving lets agents use it despite these findings:'),
    findingsList(findings), yes, no));
  no.focus();
}

async function decideQuarantine(t) {
  await api('POST', '/api/v1/quarantine', { tools: [{ id: t.id }], reason: 'quarantined on the review page' });
  await viewTool(t.id);
  refreshBadge();
  setStatus(`Quarantined ${plain(t.tool)}.`);
}

/* ------------------------------------------------------------- report */

/* A horizontal bar chart in SVG, numbers beside the bars; labels are
 * text nodes. */
function barChart(id, title, rows) {
  const NS = 'http://www.w3.org/2000/svg';
  const mk = (tag, attrs) => { const e = document.createElementNS(NS, tag); for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v)); return e; };
  const rowH = 22, labelW = 220, barW = 360, h = rows.length * rowH + 30;
  const max = Math.max(1, ...rows.map(r => r.value));
  const svg = mk('svg', { id, class: 'chart', viewBox: `0 0 ${labelW + barW + 60} ${h}`, width: labelW + barW + 60, height: h, role: 'img' });
  const t = mk('title', {}); t.textContent = title; svg.appendChild(t);
  rows.forEach((r, i) => {
    const y = 20 + i * rowH;
    const label = mk('text', { x: labelW - 6, y: y + 14, 'text-anchor': 'end', 'font-size': 12 });
    label.textContent = plain(r.label).slice(0, 40);
    const bar = mk('rect', { x: labelW, y: y + 3, width: Math.max(1, Math.round(barW * r.value / max)), height: rowH - 6, fill: r.color || '#4a78b8' });
    const num = mk('text', { x: labelW + Math.round(barW * r.value / max) + 6, y: y + 14, 'font-size': 12, class: 'num' });
    num.textContent = String(r.value);
    svg.append(label, bar, num);
  });
  return el('figure', {}, el('figcaption', {}, title), svg);
}

const VERDICT_COLORS = { clean: '#2f8f46', review: '#d08a00', quarantine: '#b00020', none: '#999' };

async function viewReport() {
  const s = await api('GET', '/api/v1/servers');
  const byServer = [], byCheck = new Map(), totals = new Map();
  for (const srv of s.servers.slice(0, 200)) {
    let l;
    try { l = await api('GET', `/api/v1/servers/${seg(srv.name)}/tools`); } catch (e) {
      if (e instanceof ApiError && e.status === 404) continue; /* a name shown escaped */
      throw e;
    }
    const counts = new Map();
    for (const t of l.tools) {
      if (t.state === 'removed') continue;
      const v = t.verdict || 'none';
      counts.set(v, (counts.get(v) || 0) + 1);
      totals.set(v, (totals.get(v) || 0) + 1);
      const f = t.findings;
      const checks = f && Array.isArray(f.checks) ? f.checks : signalsOf(f).map(x => x && x.check);
      for (const c of new Set(checks)) {
        if (typeof c === 'string' && c) byCheck.set(c, (byCheck.get(c) || 0) + 1);
      }
    }
    for (const [v, n] of counts) byServer.push({ label: `${srv.name} \u00b7 ${v}`, value: n, color: VERDICT_COLORS[v] });
  }
  const ev = await api('GET', '/api/v1/events?limit=200');
  const checks = [...byCheck.entries()].sort((a, b) => b[1] - a[1]).slice(0, 40).map(([k, v]) => ({ label: k, value: v }));
  const log = el('table', { id: 'audit' },
    el('thead', {}, el('tr', {}, ['Time', 'Actor', 'Server', 'Tool', 'Change', 'Reason'].map(h => el('th', {}, h)))),
    el('tbody', {}, ev.events.slice().reverse().map(e => el('tr', {}, el('td', {}, e.time), el('td', {}, e.actor),
      el('td', {}, safeText(e.server || '')), el('td', {}, safeText(e.tool || '')),
      el('td', {}, `${e.old_state || '-'} \u2192 ${e.new_state || '-'}`), el('td', {}, safeText(e.reason || ''))))));
  show(el('h2', {}, 'Report'),
    el('p', { id: 'totals' }, [...totals.entries()].map(([k, v]) => `${v} ${k}`).join(', ') || 'No tools scanned yet.'),
    barChart('chart-servers', 'Verdicts by server', byServer),
    checks.length ? barChart('chart-checks', 'Tools with findings, by check', checks) : el('p', {}, 'No findings.'),
    el('h3', {}, 'Audit log'), log);
  setStatus('');
}

/* ------------------------------------------------------------- router */

function fail(e) {
  if (e instanceof ApiError && e.status === 401) return;
  setStatus('Error: ' + plain(e.message));
}

function route() {
  if (!sessionStorage.getItem(KEY_NAME)) { showLogin(); return; }
  $('login').hidden = true;
  $('logout').hidden = false;
  const h = location.hash || '#/queue';
  const parts = h.slice(2).split('/');
  let p;
  if (parts[0] === 'tool' && parts.length === 2 && /^[1-9][0-9]{0,17}$/.test(parts[1]))
    p = viewTool(parts[1]);
  else if (parts[0] === 'report') p = viewReport().then(refreshBadge);
  else p = viewQueue();
  setStatus('Loading...');
  p.catch(fail);
}

document.addEventListener('DOMContentLoaded', () => {
  $('login').addEventListener('submit', onLogin);
  $('logout').addEventListener('click', () => { sessionStorage.removeItem(KEY_NAME); csrf = null; showLogin(); });
  window.addEventListener('hashchange', route);
  route();
});
