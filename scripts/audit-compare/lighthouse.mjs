// Compares cdpmcp's auditPerformance with Lighthouse's observed metrics (FCP,
// LCP, CLS) on the same pages, unthrottled and with Lighthouse's mobile
// throttling applied the DevTools way (the preset cdpmcp's throttle "mobile"
// copies). Both use the same Chromium; Lighthouse emulates a desktop screen
// of exactly cdpmcp's viewport. Each cell is the median of RUNS loads.
//
//   RUNS=3 node lighthouse.mjs /path/to/cdpmcp [fixtures-dir] [corpus-dir]
import { readFileSync, existsSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import lighthouse from 'lighthouse';
import { serve, fileRoute, Cdpmcp, launchChromium } from './lib.mjs';

const [bin, fixturesDir = new URL('../../fixtures/pages', import.meta.url).pathname, corpusDir = '/work/shared/corpus/readability'] = process.argv.slice(2);
if (!bin) { console.error('usage: node lighthouse.mjs CDPMCP [FIXTURES] [CORPUS]'); process.exit(2); }
const RUNS = +(process.env.RUNS || 3);
const CORPUS = (process.env.CORPUS || 'wikipedia,cnn,medium-1').split(',').filter(Boolean);

// resource answers /audit/res as the Go fixtures server does (fixtures/audit.go).
function resource(req) {
  const q = new URL(req.url, 'http://x').searchParams;
  const kb = +(q.get('kb') || 0);
  const fill = (unit) => unit.repeat(Math.floor((kb * 1024) / unit.length));
  let body, type;
  switch (q.get('kind')) {
    case 'css': type = 'text/css'; body = fill('/* padding */\n') + '.late { color: #222; }\n'; break;
    case 'js': type = 'text/javascript'; body = fill('// padding\n') + 'window.loadedScripts = (window.loadedScripts || 0) + 1;\n'; break;
    case 'img': type = 'image/svg+xml'; body = '<svg xmlns="http://www.w3.org/2000/svg" width="600" height="300"><rect width="600" height="300" fill="#36c"/><!--' + fill('x') + '--></svg>'; break;
    default: type = 'text/plain'; body = fill('text\n');
  }
  const headers = { 'Cache-Control': q.get('cache') === '1' ? 'public, max-age=31536000' : 'no-store' };
  if (q.get('gzip') === '1') { body = gzipSync(body); headers['Content-Encoding'] = 'gzip'; }
  return { body, type, headers, delay: +(q.get('ms') || 0) };
}

const site = await serve((path, req) => {
  if (path === '/audit/res') return resource(req);
  if (path.startsWith('/corpus/')) {
    const f = `${corpusDir}/${path.slice(8).replace(/\.html$/, '')}/source.html`;
    return existsSync(f) ? { body: readFileSync(f), headers: { 'Cache-Control': 'no-store' } } : null;
  }
  return fileRoute('/', fixturesDir)(path);
});
const pages = ['/audit/perf-bad.html', '/audit/perf-good.html', ...CORPUS.map((n) => `/corpus/${n}.html`)];

const median = (xs) => { const s = xs.filter((x) => x != null).sort((a, b) => a - b); return s.length ? s[Math.floor(s.length / 2)] : null; };

// viewport is cdpmcp's tab size: Lighthouse emulates exactly that screen, so
// layout shifts (a share of the viewport) compare.
let viewport = null;

async function lighthouseRun(url, throttle) {
  const chrome = await launchChromium();
  try {
    const flags = { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'], formFactor: 'desktop',
      screenEmulation: { mobile: false, width: viewport[0], height: viewport[1], deviceScaleFactor: 1, disabled: false }, emulatedUserAgent: false, throttlingMethod: throttle === 'mobile' ? 'devtools' : 'provided',
      throttling: { rttMs: 150, throughputKbps: 1.6 * 1024, requestLatencyMs: 150 * 3.75, downloadThroughputKbps: 1.6 * 1024 * 0.9, uploadThroughputKbps: 750 * 0.9, cpuSlowdownMultiplier: 4 } };
    const r = await lighthouse(url, flags);
    const a = r.lhr.audits;
    return { fcp: a['first-contentful-paint'].numericValue, lcp: a['largest-contentful-paint'].numericValue, cls: a['cumulative-layout-shift'].numericValue };
  } finally {
    await chrome.close();
  }
}

const mcp = new Cdpmcp(bin, ['--read-only', '--tools', 'auditPerformance,navigate,evaluate']);
await mcp.start();
await mcp.call('navigate', { url: site.base + pages[0] });
viewport = JSON.parse(await mcp.call('evaluate', { expression: '[innerWidth, innerHeight]' }));
async function cdpmcpRun(url, throttle) {
  const rep = Cdpmcp.fullData(await mcp.call('auditPerformance', { url, throttle, timeoutMs: 120000 }));
  return { fcp: rep.metrics.fcp, lcp: rep.metrics.lcp, cls: rep.metrics.cls };
}

const rows = [];
for (const path of pages) {
  for (const throttle of ['none', 'mobile']) {
    const url = site.base + path;
    const lh = [], us = [];
    for (let i = 0; i < RUNS; i++) {
      try { lh.push(await lighthouseRun(url, throttle)); } catch (e) { console.error('lighthouse', path, e.message); }
      try { us.push(await cdpmcpRun(url, throttle)); } catch (e) { console.error('cdpmcp', path, e.message); }
    }
    const m = (xs, k) => median(xs.map((x) => x[k]));
    rows.push({ path, throttle, lh: { fcp: m(lh, 'fcp'), lcp: m(lh, 'lcp'), cls: m(lh, 'cls') }, us: { fcp: m(us, 'fcp'), lcp: m(us, 'lcp'), cls: m(us, 'cls') } });
  }
}
mcp.close();
site.close();

const diff = (a, b, abs) => {
  if (a == null || b == null) return '–';
  if (Math.abs(a - b) <= abs) return 'same';
  return (((b - a) / a) * 100).toFixed(1) + '%';
};
const f = (v, d = 0) => (v == null ? '–' : v.toFixed(d));
console.log('| page | throttling | FCP LH | FCP cdpmcp | Δ | LCP LH | LCP cdpmcp | Δ | CLS LH | CLS cdpmcp | Δ |');
console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const r of rows) {
  console.log(`| ${r.path} | ${r.throttle} | ${f(r.lh.fcp)} | ${f(r.us.fcp)} | ${diff(r.lh.fcp, r.us.fcp, 0.5)} | ${f(r.lh.lcp)} | ${f(r.us.lcp)} | ${diff(r.lh.lcp, r.us.lcp, 0.5)} | ${f(r.lh.cls, 3)} | ${f(r.us.cls, 3)} | ${diff(r.lh.cls, r.us.cls, 0.0005)} |`);
}
console.log(`\nmedians of ${RUNS} runs; times in ms; Δ is cdpmcp relative to Lighthouse.`);
