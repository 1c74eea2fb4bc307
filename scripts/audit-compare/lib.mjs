// Shared helpers of the comparison scripts: a static server for the pages, a
// cdpmcp MCP client over stdio, and a bare Chromium under chrome-remote-interface.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtempSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, extname } from 'node:path';
import CDP from 'chrome-remote-interface';

export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
// The flags this machine needs (see the team brief), and no internet.
export const CHROME_FLAGS = ['--headless', '--no-sandbox', '--disable-background-networking', '--disable-component-update',
  '--disable-sync', '--disable-quic', '--no-first-run', '--hide-scrollbars', '--mute-audio', '--window-size=1280,800',
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost'];

// serve answers GET path with routes(path) → {body, type, headers} or null (404).
export function serve(routes) {
  return new Promise((resolve) => {
    const srv = createServer((req, res) => {
      const r = routes(decodeURIComponent(new URL(req.url, 'http://x').pathname), req);
      if (!r) { res.writeHead(404); res.end('not found'); return; }
      const send = () => {
        res.writeHead(200, { 'Content-Type': r.type || 'text/html; charset=utf-8', ...(r.headers || {}) });
        res.end(r.body);
      };
      if (r.delay) setTimeout(send, r.delay); else send();
    });
    srv.listen(0, '127.0.0.1', () => resolve({ base: `http://127.0.0.1:${srv.address().port}`, close: () => srv.close() }));
  });
}

// fileRoute serves a file from dir under prefix.
export function fileRoute(prefix, dir) {
  return (path) => {
    if (!path.startsWith(prefix)) return null;
    const f = join(dir, path.slice(prefix.length));
    if (!existsSync(f)) return null;
    const types = { '.html': 'text/html; charset=utf-8', '.css': 'text/css', '.js': 'text/javascript', '.svg': 'image/svg+xml' };
    return { body: readFileSync(f), type: types[extname(f)] || 'application/octet-stream' };
  };
}

// Cdpmcp is an MCP client of `cdpmcp serve` over stdio (newline-delimited JSON-RPC).
export class Cdpmcp {
  constructor(bin, args) {
    this.dir = mkdtempSync(join(tmpdir(), 'audit-compare-'));
    this.proc = spawn(bin, ['serve', '--headless', '--no-jobs', '--artifacts-dir', this.dir, '--browser-arg=--window-size=1280,800',
      '--browser-arg=--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost', ...args],
    { stdio: ['pipe', 'pipe', 'inherit'] });
    this.next = 1;
    this.waiting = new Map();
    let buf = '';
    this.proc.stdout.on('data', (d) => {
      buf += d;
      let i;
      while ((i = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 1);
        if (!line.trim()) continue;
        const msg = JSON.parse(line);
        if (msg.id && this.waiting.has(msg.id)) { this.waiting.get(msg.id)(msg); this.waiting.delete(msg.id); }
      }
    });
  }
  request(method, params) {
    const id = this.next++;
    this.proc.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
    return new Promise((resolve, reject) => this.waiting.set(id, (m) => (m.error ? reject(new Error(m.error.message)) : resolve(m.result))));
  }
  async start() {
    await this.request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'audit-compare', version: '1' } });
    this.proc.stdin.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
  }
  async call(name, args) {
    const r = await this.request('tools/call', { name, arguments: args || {} });
    const text = (r.content || []).filter((c) => c.type === 'text').map((c) => c.text).join('\n');
    if (r.isError) throw new Error(`${name}: ${text}`);
    return text;
  }
  // fullData reads the JSON artifact an audit answer names.
  static fullData(text) {
    const m = /full data: (\S+\.json)/.exec(text);
    return m ? JSON.parse(readFileSync(m[1], 'utf8')) : null;
  }
  close() {
    this.proc.kill('SIGTERM');
    try { rmSync(this.dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 }); } catch { /* leave it */ }
  }
}

// launchChromium starts a Chromium for axe-core or Lighthouse, with the flags
// Lighthouse's own launcher (chrome-launcher) gives it, so that its tab is not
// a throttled background one.
export async function launchChromium(extra = []) {
  const { Launcher } = await import('chrome-launcher');
  extra = [...Launcher.defaultFlags(), ...extra];
  const dir = mkdtempSync(join(tmpdir(), 'audit-compare-chrome-'));
  const port = 9300 + Math.floor(Math.random() * 500);
  const proc = spawn(CHROMIUM, [...CHROME_FLAGS, `--remote-debugging-port=${port}`, `--user-data-dir=${dir}`, ...extra, 'about:blank'], { stdio: 'ignore' });
  for (let i = 0; i < 100; i++) {
    try { await CDP.Version({ port }); break; } catch { await new Promise((r) => setTimeout(r, 100)); }
  }
  const exited = new Promise((r) => proc.once('exit', r));
  return {
    port,
    close: async () => {
      proc.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      try { rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 }); } catch { /* a helper process still writing: leave it */ }
    },
  };
}
