// serialize turns an evaluation result into JSON-safe data: DOM nodes become a short
// tag description, cycles are cut, Maps and Sets become objects and arrays.
function serialize(v) {
  const seen = new WeakSet();
  const walk = (x, depth) => {
    if (x === undefined) return undefined;
    if (x === null || typeof x === 'boolean' || typeof x === 'string') return x;
    if (typeof x === 'number') return Number.isFinite(x) ? x : String(x);
    if (typeof x === 'bigint') return x.toString() + 'n';
    if (typeof x === 'symbol' || typeof x === 'function') return String(x);
    if (x instanceof Node) {
      if (x.nodeType === 1) {
        const attrs = Array.from(x.attributes).slice(0, 4).map((a) => ` ${a.name}="${a.value.slice(0, 40)}"`).join('');
        const text = (x.innerText || x.textContent || '').trim().replace(/\s+/g, ' ').slice(0, 60);
        return `<${x.localName}${attrs}>${text}</${x.localName}>`;
      }
      return x.nodeName + (x.nodeValue ? ': ' + x.nodeValue.slice(0, 60) : '');
    }
    if (seen.has(x)) return '[circular]';
    if (depth > 20) return '[too deep]';
    seen.add(x);
    if (x instanceof Error) return `${x.name}: ${x.message}`;
    if (x instanceof Date) return x.toISOString();
    if (x instanceof RegExp) return String(x);
    if (x instanceof Map) return walk(Object.fromEntries(x), depth + 1);
    if (x instanceof Set || ArrayBuffer.isView(x)) return walk(Array.from(x), depth + 1);
    if (Array.isArray(x) || (typeof x.length === 'number' && typeof x !== 'string' && x.item)) {
      return Array.from(x, (e) => walk(e, depth + 1));
    }
    const out = {};
    for (const k of Object.keys(x)) {
      try { out[k] = walk(x[k], depth + 1); } catch (e) { out[k] = '[unreadable]'; }
    }
    return out;
  };
  return JSON.stringify(walk(v, 0));
}
