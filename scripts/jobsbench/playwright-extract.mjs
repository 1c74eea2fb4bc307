// Does N "extract" tasks one by one through @playwright/mcp's tools, the way a
// client without a job queue would: browser_navigate to the URL, then
// browser_evaluate to read the selectors' text. Prints one JSON line with the
// wall time and jobs per minute.
//
// usage: node playwright-extract.mjs BENCH_DIR URL N
//   BENCH_DIR: a directory whose node_modules has @playwright/mcp and
//   @modelcontextprotocol/sdk (the team's bench harness).
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import os from 'node:os';

const [benchDir, url, nArg] = process.argv.slice(2);
const n = Number(nArg || 200);
const require = createRequire(join(benchDir, 'package.json'));
const { Client } = await import(pathToFileURL(require.resolve('@modelcontextprotocol/sdk/client/index.js')));
const { StdioClientTransport } = await import(pathToFileURL(require.resolve('@modelcontextprotocol/sdk/client/stdio.js')));

const work = mkdtempSync(join(os.tmpdir(), 'pw-extract-'));
const flags = ['--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic'];
const config = join(work, 'config.json');
writeFileSync(config, JSON.stringify({ browser: { browserName: 'chromium', launchOptions: { args: flags } } }));
const cli = join(dirname(require.resolve('@playwright/mcp/package.json')), 'cli.js');
const transport = new StdioClientTransport({
  command: process.execPath,
  args: [cli, '--config', config, '--headless', '--executable-path', '/usr/bin/chromium', '--no-sandbox',
    '--user-data-dir', join(work, 'profile'), '--output-dir', join(work, 'out')],
  cwd: work,
  stderr: 'ignore',
});
const client = new Client({ name: 'jobsbench', version: '1' });
await client.connect(transport);

const call = async (name, args) => {
  const r = await client.callTool({ name, arguments: args });
  if (r.isError) throw new Error(`${name}: ${JSON.stringify(r.content)}`);
  return r;
};
// Warm up: the browser starts on the first call (not counted, as for cdpmcp).
await call('browser_navigate', { url });
const start = performance.now();
let ok = 0;
for (let i = 0; i < n; i++) {
  await call('browser_navigate', { url: `${url}?i=${i}` });
  const r = await call('browser_evaluate', { function: "() => [...document.querySelectorAll('h1')].map(e => e.innerText)" });
  if (JSON.stringify(r.content).includes('quiet river')) ok++;
}
const ms = performance.now() - start;
console.log(JSON.stringify({ server: 'playwright-mcp', jobs: n, ok, ms: Math.round(ms), jobsPerMinute: Math.round(n / (ms / 60000)) }));
await client.close();
rmSync(work, { recursive: true, force: true });
