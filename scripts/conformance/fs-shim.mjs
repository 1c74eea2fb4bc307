// Node 20 has no fs.globSync (added in Node 22); the conformance tool imports it.
export * from 'node:fs';
import fs from 'node:fs';
import { globSync as glob } from 'glob';
export default fs;
export function globSync(pattern, options = {}) { return glob(pattern, { cwd: options.cwd }); }
