// Counts o200k tokens of the snapshots (and getContent Markdown) the reading
// benchmark wrote (make readbench) with gpt-tokenizer, and compares them with the
// Go estimate in table.md.
//   NODE_PATH=/path/to/node_modules node scripts/readbench/o200k.mjs results/readbench
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';

const require = createRequire(import.meta.url);
const { encode } = require('gpt-tokenizer/cjs/encoding/o200k_base');
const dir = process.argv[2] || 'results/readbench';
const est = new Map();
for (const row of fs.readFileSync(path.join(dir, 'table.md'), 'utf8').split('\n')) {
  const c = row.split('|').map((s) => s.trim());
  if (c.length > 4 && /^\d+$/.test(c[3])) est.set(c[1], +c[3]);
}
let total = 0;
let estTotal = 0;
const rows = [];
for (const f of fs.readdirSync(dir).filter((f) => f.endsWith('.txt')).sort()) {
  const name = f.slice(0, -4);
  const n = encode(fs.readFileSync(path.join(dir, f), 'utf8')).length;
  total += n;
  estTotal += est.get(name) || 0;
  rows.push(`| ${name} | ${n} | ${est.get(name) ?? ''} |`);
}
let md = 0;
for (const f of fs.readdirSync(dir).filter((f) => f.endsWith('.md') && f !== 'table.md')) md += encode(fs.readFileSync(path.join(dir, f), 'utf8')).length;
console.log('| page | o200k | estimate |\n|---|---:|---:|\n' + rows.join('\n'));
console.log(`| **${rows.length} pages** | sum ${total} | sum ${estTotal} (estimate/o200k ${(estTotal / total).toFixed(3)}) |`);
if (md) console.log(`getContent markdown: ${md} o200k tokens in all`);
