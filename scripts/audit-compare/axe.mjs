// Compares cdpmcp's auditAccessibility with axe-core on the 40 corpus pages and
// the accessibility fixtures, on the rules both cover: for each rule, the
// elements axe-core reports and how many of them cdpmcp reports too (matched
// by element: both tools' selectors are resolved in the same page).
//
//   node axe.mjs /path/to/cdpmcp [corpus-dir] [fixtures-dir]
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import CDP from 'chrome-remote-interface';
import { serve, fileRoute, Cdpmcp, launchChromium } from './lib.mjs';

const require = createRequire(import.meta.url);
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const [bin, corpusDir = '/work/shared/corpus/readability', fixturesDir = new URL('../../fixtures/pages', import.meta.url).pathname] = process.argv.slice(2);
if (!bin) { console.error('usage: node axe.mjs CDPMCP [CORPUS] [FIXTURES]'); process.exit(2); }

// The rules cdpmcp implements (its rule ids are axe-core's).
const RULES = ['area-alt', 'aria-command-name', 'aria-dialog-name', 'aria-hidden-focus', 'aria-input-field-name', 'aria-meter-name',
  'aria-progressbar-name', 'aria-toggle-field-name', 'aria-tooltip-name', 'aria-treeitem-name', 'button-name', 'color-contrast',
  'duplicate-id-aria', 'frame-title', 'heading-order', 'html-has-lang', 'html-lang-valid', 'image-alt', 'input-button-name',
  'input-image-alt', 'label', 'link-name', 'role-img-alt', 'select-name', 'svg-img-alt'];

const corpus = existsSync(corpusDir) ? readdirSync(corpusDir).filter((n) => existsSync(`${corpusDir}/${n}/source.html`)).sort() : [];
const site = await serve((path) => {
  if (path.startsWith('/corpus/')) {
    const name = path.slice(8).replace(/\.html$/, '');
    const f = `${corpusDir}/${name}/source.html`;
    return existsSync(f) ? { body: readFileSync(f) } : null;
  }
  return fileRoute('/', fixturesDir)(path);
});
const pages = [...corpus.map((n) => `/corpus/${n}.html`), '/audit/a11y-bad.html', '/audit/a11y-good.html', '/audit/a11y-links.html'];

const mcp = new Cdpmcp(bin, ['--read-only', '--tools', 'navigate,auditAccessibility']);
await mcp.start();
const chrome = await launchChromium();
const client = await CDP({ port: chrome.port });
const { Page, Runtime } = client;
await Page.enable();

const perRule = {};
const row = (r) => (perRule[r] ||= { axe: 0, both: 0, cdpmcpOnly: 0, unresolved: 0 });
const perPage = [];
for (const path of pages) {
  const url = site.base + path;
  let ours = [];
  try {
    await mcp.call('navigate', { url });
    ours = Cdpmcp.fullData(await mcp.call('auditAccessibility', {})).findings || [];
  } catch (e) {
    console.error(path, e.message);
    continue;
  }
  const loaded = Page.loadEventFired();
  await Page.navigate({ url });
  await Promise.race([loaded, new Promise((r) => setTimeout(r, 15000))]);
  await Runtime.evaluate({ expression: AXE });
  const run = await Runtime.evaluate({
    awaitPromise: true, returnByValue: true,
    expression: `(async () => {
      const res = await axe.run(document, { runOnly: { type: 'rule', values: ${JSON.stringify(RULES)} }, resultTypes: ['violations', 'incomplete'] });
      // axe-core reports duplicate-id-aria failures for review ("incomplete"), never as violations.
      const failed = [...res.violations, ...res.incomplete.filter((v) => v.id === 'duplicate-id-aria')];
      const axeEls = [], out = { axe: [], ours: [] };
      const idOf = (el) => { if (!el) return -1; let i = axeEls.indexOf(el); if (i < 0) { axeEls.push(el); i = axeEls.length - 1; } return i; };
      const find = (sel) => { try { return document.querySelector(sel); } catch (e) { return null; } };
      for (const v of failed) for (const n of v.nodes) {
        const t = n.target[0];
        out.axe.push([v.id, typeof t === 'string' ? idOf(find(t)) : -2]);
      }
      const ours = ${JSON.stringify(ours.map((f) => [f.rule, f.selector]))};
      for (const [rule, sel] of ours) out.ours.push([rule, idOf(find(sel))]);
      const show = (el) => el ? el.outerHTML.slice(0, 160).replace(/\\s+/g, ' ') : '(not found)';
      out.els = axeEls.map(show);
      out.targets = failed.flatMap((v) => v.nodes.map((n) => [v.id, JSON.stringify(n.target), (n.any[0] || n.none[0] || {}).message || '']));
      return out;
    })()`,
  });
  if (run.exceptionDetails) { console.error(path, run.exceptionDetails.text); continue; }
  const { axe: theirs, ours: mine, els, targets } = run.result.value;
  if (process.env.DEBUG_PAGE && path.includes(process.env.DEBUG_PAGE)) {
    const mk = new Set(mine.map(([r, i]) => r + '#' + i));
    const tk = new Set(theirs.map(([r, i]) => r + '#' + i));
    theirs.forEach(([r, i], k) => { if (!mk.has(r + '#' + i)) console.log('AXE ONLY', r, targets[k][1], els[i], targets[k][2]); });
    mine.forEach(([r, i], k) => { if (!tk.has(r + '#' + i)) console.log('OURS ONLY', r, ours[k].selector, els[i], ours[k].msg); });
  }
  const mineKeys = new Set(mine.filter(([, i]) => i >= 0).map(([r, i]) => r + '#' + i));
  const theirKeys = new Set(theirs.filter(([, i]) => i >= 0).map(([r, i]) => r + '#' + i));
  let pa = 0, pb = 0;
  for (const [rule, i] of theirs) {
    const r = row(rule);
    if (i < 0) { r.unresolved++; continue; } // in a frame or shadow root: not compared
    r.axe++; pa++;
    if (mineKeys.has(rule + '#' + i)) { r.both++; pb++; }
  }
  for (const [rule, i] of mine) if (i >= 0 && !theirKeys.has(rule + '#' + i)) row(rule).cdpmcpOnly++;
  perPage.push([path, pa, pb, mine.length]);
}
await client.close();
await chrome.close();
mcp.close();
site.close();

let ta = 0, tb = 0, to = 0;
console.log('| rule | axe-core finds | cdpmcp finds too | recall | cdpmcp only |');
console.log('|---|---:|---:|---:|---:|');
for (const rule of Object.keys(perRule).sort()) {
  const r = perRule[rule];
  ta += r.axe; tb += r.both; to += r.cdpmcpOnly;
  console.log(`| ${rule} | ${r.axe} | ${r.both} | ${r.axe ? ((100 * r.both) / r.axe).toFixed(1) + '%' : '–'} | ${r.cdpmcpOnly} |`);
}
console.log(`| **all** | ${ta} | ${tb} | ${ta ? ((100 * tb) / ta).toFixed(1) : '–'}% | ${to} |`);
console.log(`\n${perPage.length} pages compared.`);
if (process.env.VERBOSE) for (const p of perPage) console.log(p.join('\t'));
