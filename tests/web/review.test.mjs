// The review page in a real headless Chromium (playwright-core, pinned in
// tests/node/package.json), started by tests/integration/web.sh against a
// real `mcpvet serve`. Env: BASE, API_KEY, STORE, MCPVET, SHOTS, CHROMIUM,
// MCPVET_SOURCE_DIR. Prints one line per check and "N passed, N failed";
// exits 1 on any failure.
import { createRequire } from 'node:module';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { readFileSync } from 'node:fs';

const env = (k) => { const v = process.env[k]; if (!v) throw new Error(`set ${k}`); return v; };
const BASE = env('BASE'), KEY = env('API_KEY'), STORE = env('STORE'), MCPVET = env('MCPVET');
const SHOTS = env('SHOTS'), CHROMIUM = env('CHROMIUM'), SRC = env('MCPVET_SOURCE_DIR');
const SPECIAL = JSON.parse(readFileSync(env('SPECIAL_NAMES'), 'utf8'));
const require = createRequire(path.join(SRC, 'tests/node/package.json'));
const { chromium } = require('playwright-core');

let passed = 0, failed = 0;
function check(name, ok, detail) {
  if (ok) { passed++; console.log(`ok   ${name}`); }
  else { failed++; console.log(`FAIL ${name}${detail !== undefined ? ': ' + JSON.stringify(detail).slice(0, 400) : ''}`); }
}

function cliStates() {
  const out = execFileSync(MCPVET, ['security', 'list', '--store', STORE, '--format', 'json'], { encoding: 'utf8' });
  const m = {};
  for (const t of JSON.parse(out).tools) m[`${t.server}/${t.name}`] = t.state;
  return m;
}
function cliHistory(server, tool) {
  const out = execFileSync(MCPVET, ['security', 'history', server, tool, '--store', STORE, '--format', 'json'], { encoding: 'utf8' });
  const d = JSON.parse(out);
  return Array.isArray(d) ? d : d.events;
}

/* Everything the hostile tool could have produced if it were parsed as
 * markup: no such element may exist in the page. */
async function injected(page) {
  return page.evaluate(() => {
    const bad = [];
    const scripts = [...document.scripts].map(s => s.getAttribute('src'));
    if (scripts.length !== 1 || scripts[0] !== '/ui/app.js') bad.push('scripts: ' + scripts.join(','));
    for (const e of document.querySelectorAll('img, iframe, object, embed, video, audio, svg script, style, link:not([rel=stylesheet]), base, meta[http-equiv]'))
      bad.push('element: ' + e.tagName);
    for (const e of document.querySelectorAll('*')) {
      for (const a of e.attributes) {
        if (/^on/i.test(a.name)) bad.push(`handler ${a.name} on ${e.tagName}`);
        if (/^\s*javascript:/i.test(a.value)) bad.push(`javascript: in ${a.name} of ${e.tagName}`);
      }
    }
    return { bad, pwned: window.__pwned === undefined ? null : window.__pwned, csp: window.__csp || [] };
  });
}

async function tabTo(page, predicate, limit = 80) {
  await page.evaluate(() => { if (document.activeElement) document.activeElement.blur(); window.scrollTo(0, 0); });
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate(predicate)) return true;
  }
  return false;
}

const browser = await chromium.launch({
  executablePath: CHROMIUM,
  headless: true,
  args: process.getuid && process.getuid() === 0 ? ['--no-sandbox'] : [],
});
try {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  const page = await context.newPage();
  const pageErrors = [];
  const requests = [];
  page.on('pageerror', e => pageErrors.push(String(e)));
  page.on('request', r => requests.push(r.url()));
  await page.addInitScript(() => {
    window.__csp = [];
    document.addEventListener('securitypolicyviolation', e => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));
  });

  // ------------------------------------------------------------- login
  const resp = await page.goto(BASE + '/');
  const csp = resp.headers()['content-security-policy'] || '';
  check('the page is served with a strict CSP', csp.includes("default-src 'self'") && csp.includes("script-src 'self'") && !csp.includes('unsafe'), csp);
  await page.waitForSelector('#login:not([hidden])');
  check('without a key the page asks for it', await page.isVisible('#key'));
  await page.focus('#key');
  await page.keyboard.type(KEY);
  await page.keyboard.press('Enter');
  await page.waitForSelector('#queue');
  check('the key is kept in sessionStorage', await page.evaluate((k) => sessionStorage.getItem('mcpvet.apiKey') === k, KEY));
  check('the key is in no URL', !requests.some(u => u.includes(KEY)) && !page.url().includes(KEY), requests);
  check('the key field was cleared', (await page.inputValue('#key')) === '');

  // ------------------------------------------------------------- queue
  const rows = await page.$$eval('#queue tbody tr', trs => trs.map(tr => ({ id: tr.dataset.id, server: tr.dataset.server, tool: tr.dataset.tool, state: tr.cells[2].textContent })));
  check('the queue shows the changed tool', rows.some(r => r.server === 'fixture' && r.tool === 'echo' && r.state === 'changed'), rows);
  check('the queue shows the hostile server\'s tools', rows.filter(r => r.server === 'hostile').length === 2, rows);
  check('approved tools are not in the queue', !rows.some(r => r.tool === 'add'), rows);
  const badge = Number(await page.textContent('#badge'));
  check('the badge counts the queue', badge === 11, badge);
  check('every queued tool has a numeric id', rows.length === 11 && rows.every(r => /^[1-9][0-9]*$/.test(r.id)), rows);
  const idOf = (server, tool) => (rows.find(r => r.server === server && r.tool === tool) || {}).id;
  const hostileQueue = await page.textContent('#queue');
  check('hostile names are shown as text', hostileQueue.includes('evil<img src=x onerror=window.__pwned=4>') && hostileQueue.includes('<script>window.__pwned=5</script>'), hostileQueue);
  check('a bidi override in a name is a visible escape', await page.$$eval('#queue .esc', es => es.some(e => e.textContent === '\\u202E')));
  await page.screenshot({ path: path.join(SHOTS, 'queue.png'), fullPage: true });

  await page.selectOption('#filter-state', 'changed');
  await page.waitForFunction(() => document.querySelectorAll('#queue tbody tr').length === 1);
  check('the state filter keeps only the changed tool', (await page.$$eval('#queue tbody tr', trs => trs.map(t => t.dataset.tool))).join() === 'echo');
  await page.selectOption('#filter-state', '');
  await page.waitForFunction(() => document.querySelectorAll('#queue tbody tr').length === 11);
  await page.click('#servers tr[data-server="hostile"] .only-server');
  await page.waitForFunction(() => [...document.querySelectorAll('#queue tbody tr')].every(t => t.dataset.server === 'hostile'));
  check('the server filter keeps only that server', (await page.$$eval('#queue tbody tr', trs => trs.length)) === 2);
  await page.click('#clear-server');
  await page.waitForFunction(() => document.querySelectorAll('#queue tbody tr').length === 11);
  await page.selectOption('#filter-verdict', 'quarantine');
  await page.waitForFunction(() => [...document.querySelectorAll('#queue tbody tr')].every(t => t.cells[3].textContent === 'quarantine'));
  const qv = await page.$$eval('#queue tbody tr', trs => trs.length);
  check('the verdict filter runs on the server', qv >= 1 && qv < 11, qv);
  await page.selectOption('#filter-verdict', '');
  await page.fill('#filter-q', 'ECHO');
  await page.waitForFunction(() => document.querySelectorAll('#queue tbody tr').length === 1);
  check('the name search runs on the server, case-insensitive', (await page.$$eval('#queue tbody tr', trs => trs.map(t => t.dataset.tool))).join() === 'echo');
  await page.fill('#filter-q', 'no-such-tool-anywhere');
  await page.waitForSelector('#empty');
  check('a search without hits says so', (await page.textContent('#empty')).includes('Nothing matches'));
  await page.fill('#filter-q', '');
  await page.waitForFunction(() => document.querySelectorAll('#queue tbody tr').length === 11);
  const queueRequests = requests.filter(u => u.includes('/api/v1/queue?'));
  check('filters are query parameters of /api/v1/queue', queueRequests.some(u => u.includes('verdict=quarantine')) && queueRequests.some(u => u.includes('q=ECHO')), queueRequests);

  // ------------------------------------------ keyboard: queue -> tool
  const reached = await tabTo(page, () => document.activeElement && document.activeElement.classList.contains('tool-link') && document.activeElement.closest('tr').dataset.tool === 'echo');
  check('Tab reaches the changed tool in the queue', reached);
  await page.keyboard.press('Enter');
  await page.waitForSelector('#diff');
  check('Enter opens the tool', (await page.textContent('#tool-name')) === 'echo');

  // -------------------------------------------------------------- diff
  const del = await page.$$eval('#diff-approved .line.del', ls => ls.map(l => l.textContent));
  const add = await page.$$eval('#diff-current .line.add', ls => ls.map(l => l.textContent));
  check('the diff marks the approved line as removed', del.some(l => l.includes('Echoes the text back.')), del);
  check('the diff marks the current line as added', add.some(l => l.includes('Echoes the given text back unchanged.')), add);
  const ins = await page.$$eval('#strings .string-diff ins', es => es.map(e => e.textContent));
  const paths = await page.$$eval('#strings .path code', es => es.map(e => e.textContent));
  check('the character diff names the string', paths.join() === '/description', paths);
  check('the character diff marks exactly the inserted words', ins.map(t => t.trim()).join('|') === 'given|unchanged', ins);
  check('kept characters are not marked', (await page.$$eval('#strings ins, #strings del', es => es.map(e => e.textContent).join(''))).indexOf('Echoes') < 0);
  check('unchanged lines are not marked', !del.some(l => l.includes('inputSchema')) && !add.some(l => l.includes('inputSchema')));
  check('no stray text (such as "null") between the tool view\'s parts', await page.evaluate(() => [...document.getElementById('view').childNodes].every(n => n.nodeType === 1)));
  await page.screenshot({ path: path.join(SHOTS, 'diff.png'), fullPage: true });

  // ---------------------------------------------- keyboard: approve
  const onApprove = await tabTo(page, () => document.activeElement && document.activeElement.id === 'approve');
  check('Tab reaches Approve', onApprove);
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('.state-approved') !== null);
  check('approve moves the tool to approved (CLI)', cliStates()['fixture/echo'] === 'approved', cliStates());
  check('the page updated without a reload', page.url().includes('#/tool/') && (await page.textContent('#status')).includes('Approved'));
  await page.waitForFunction(() => document.getElementById('badge').textContent === '10');
  check('the badge follows', (await page.textContent('#badge')) === '10');

  // ----------------------------------------------------- quarantine
  await page.click('#quarantine');
  await page.waitForFunction(() => document.querySelector('.state-quarantined') !== null);
  check('quarantine moves it back (CLI)', cliStates()['fixture/echo'] === 'quarantined', cliStates());

  // -------------------- approve a quarantined tool: second confirmation
  await page.click('#approve');
  await page.waitForSelector('#force-approve');
  check('a quarantined tool asks for a second confirmation', await page.isVisible('.confirm'));
  check('nothing was approved yet (CLI)', cliStates()['fixture/echo'] === 'quarantined');
  await page.click('#force-approve');
  await page.waitForFunction(() => document.querySelector('.state-approved') !== null);
  check('the confirmed approval went through (CLI)', cliStates()['fixture/echo'] === 'approved');
  const hist = cliHistory('fixture', 'echo');
  const webEvents = hist.filter(e => e.actor === 'web');
  check('the decisions are audited with actor web', webEvents.length === 3, hist);

  // --------------------------------------------------- hostile tool
  const hostileName = 'evil<img src=x onerror=window.__pwned=4>';
  const hostileId = idOf('hostile', hostileName);
  check('the hostile tool has an id', !!hostileId, rows);
  await page.goto(`${BASE}/#/tool/${hostileId}`);
  await page.waitForSelector(`#tool-name[data-id="${hostileId}"]`);
  check('the hostile name is the heading text', (await page.textContent('#tool-name')) === hostileName);

  // -------------------------------- a near-identical rename, hostile text
  await page.goto(`${BASE}/#/tool/${idOf('fixture', 'read_text_file')}`);
  await page.waitForSelector(`#tool-name[data-id="${idOf('fixture', 'read_text_file')}"]`);
  await page.waitForSelector('#rename');
  const renameText = await page.textContent('#rename');
  check('a near-identical rename is shown as a rename', renameText.includes('Renamed from read_file') && /9\d\.\d% alike/.test(renameText), renameText);
  const rpaths = await page.$$eval('#strings .path code', es => es.map(e => e.textContent));
  check('the rename diffs the name and the description', rpaths.join() === '/description,/name', rpaths);
  const rins = await page.$$eval('#strings ins', es => es.map(e => e.textContent));
  check('markup inserted into a description is text in the character diff', rins.some(t => t.includes('<img src=x onerror=window.__pwned=6>')), rins);
  check('a bidi override inserted is a highlighted escape in the diff', await page.$$eval('#strings ins .esc', es => es.some(e => e.textContent === '\\u202E')));
  check('no element came from the inserted markup', (await page.$$eval('#strings img, #view img', es => es.length)) === 0);
  await page.screenshot({ path: path.join(SHOTS, 'rename.png'), fullPage: true });
  const inj3 = await injected(page); /* checked with the others at the end */

  // --------------------- names with hidden and special characters open
  const specialRows = rows.filter(r => r.server === 'special');
  check('every special name is in the queue', specialRows.length === SPECIAL.length, specialRows);
  const shown = specialRows.map(r => r.tool);
  for (const want of ['re\\u200Bad', 'a/b#c?d%2e%25%', 'say "hi" \'there\'', '..', '.', '\\u2067rtl\\u2069 <b>bold</b>'])
    check(`special name ${JSON.stringify(want)} is shown render-safe`, shown.includes(want), shown);
  check('a very long name is shown cut, not whole', shown.some(t => t.startsWith('xxxxxxxxxx') && t.length < 600 && t.endsWith('...')), shown);
  for (const row of specialRows) {
    await page.goto(`${BASE}/#/tool/${row.id}`);
    await page.waitForSelector(`#tool-name[data-id="${row.id}"]`);
    const heading = await page.textContent('#tool-name');
    check(`special name ${JSON.stringify(row.tool.slice(0, 30))} opens as its own tool`, heading === row.tool && (await page.textContent('#tool-server')) === 'special', [heading, row.tool]);
    await page.click('#approve');
    await page.waitForFunction(() => document.querySelector('.state-approved') !== null || document.getElementById('force-approve'));
    if (await page.$('#force-approve')) { /* a hidden character in the name: quarantined */
      await page.click('#force-approve');
      await page.waitForFunction(() => document.querySelector('.state-approved') !== null);
    }
  }
  const specialStates = Object.entries(cliStates()).filter(([k]) => k.startsWith('special/'));
  check('every special name was approved through the page (CLI)', specialStates.length === SPECIAL.length && specialStates.every(([, v]) => v === 'approved'), specialStates);
  check('no raw zero-width or bidi character reached the page', await page.evaluate(() => !/[\u200b\u2066-\u2069\u202a-\u202e]/.test(document.body.innerText)));
  // the REST API decodes percent-encoded names, "/", "?", "#" and "%" included
  const byName = await page.evaluate(async ([k, raw]) => {
    const r = await fetch('/api/v1/servers/special/tools/' + encodeURIComponent(raw), { headers: { 'X-API-Key': k } });
    return [r.status, (await r.json()).tool];
  }, [KEY, 'a/b#c?d%2e%25%']);
  check('a name with / # ? % is found by its percent-encoded name', byName[0] === 200 && byName[1] === 'a/b#c?d%2e%25%', byName);
  await page.goto(`${BASE}/#/tool/${hostileId}`);
  await page.waitForSelector(`#tool-name[data-id="${hostileId}"]`);
  const def = await page.textContent('#definition');
  check('<script> is shown as text', def.includes('<script>window.__pwned=1</script>'), def);
  check('onerror= is shown as text', def.includes('onerror=\\"window.__pwned=2\\"'), def);
  check('a javascript: link is shown as text', def.includes('javascript:window.__pwned=3'), def);
  const escs = await page.$$eval('#definition .esc', es => es.map(e => e.textContent.toUpperCase().replace('\\U', '\\u')));
  check('the bidi override is a highlighted escape', escs.includes('\\u202E'), escs);
  check('the ANSI escape is a highlighted escape', escs.includes('\\u001B'), escs);
  check('the zero-width space is a highlighted escape', escs.includes('\\u200B'), escs);
  check('no raw bidi, ESC or zero-width character is in the page', await page.evaluate(() => !/[\u202a-\u202e\u2066-\u2069\u001b\u200b]/.test(document.body.innerText)));
  await page.screenshot({ path: path.join(SHOTS, 'hostile.png'), fullPage: true });

  // ------------------------------------------------------------ report
  await page.goto(`${BASE}/#/report`);
  await page.waitForSelector('#chart-servers');
  const bars = await page.$$eval('#chart-servers rect', r => r.length);
  check('the report draws verdicts by server as SVG bars', bars >= 2, bars);
  check('the numbers are beside the bars', (await page.$$eval('#chart-servers text.num', t => t.map(x => x.textContent))).every(n => /^\d+$/.test(n)));
  check('the report shows the audit log', (await page.$$eval('#audit tbody tr', r => r.length)) > 0);
  check('the report names checks', await page.isVisible('#chart-checks'));

  // ------------------------------------------------------ empty queue
  execFileSync(MCPVET, ['security', 'approve', 'hostile', '--all', '--force', '--store', STORE]);
  execFileSync(MCPVET, ['security', 'approve', 'fixture', '--all', '--force', '--store', STORE]);
  await page.goto(`${BASE}/#/queue`);
  await page.waitForSelector('#empty');
  check('an empty queue says so', (await page.textContent('#empty')).includes('empty'));

  // --------------------------------- nothing ran, nothing was injected
  const inj = await injected(page);
  await page.goto(`${BASE}/#/tool/${hostileId}`);
  await page.waitForSelector(`#tool-name[data-id="${hostileId}"]`);
  const inj2 = await injected(page);

  check('no script from a tool ran', inj.pwned === null && inj2.pwned === null && inj3.pwned === null, [inj.pwned, inj2.pwned, inj3.pwned]);
  check('no element was created from a tool', inj.bad.length === 0 && inj2.bad.length === 0 && inj3.bad.length === 0, inj.bad.concat(inj2.bad, inj3.bad));
  check('no CSP violation', inj.csp.length === 0 && inj2.csp.length === 0 && inj3.csp.length === 0, inj.csp.concat(inj2.csp, inj3.csp));
  check('no page error', pageErrors.length === 0, pageErrors);
  check('every request stayed on this origin', requests.every(u => u.startsWith(BASE + '/')), requests.filter(u => !u.startsWith(BASE)));
} catch (e) {
  check('the browser run finished', false, String(e && e.stack || e));
} finally {
  await browser.close();
}
console.log(`web: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
