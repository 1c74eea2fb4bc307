// find's text search (cdpclient/find, findtext.go), in cdpmcp's isolated
// world: the elements whose own text holds a text, each given a ref by the
// page model (__cdpmcp.assign), so text the snapshot shows as context can be
// acted on (a draggable card, a canvas label).

// findText returns, in document order and shadow roots included, the deepest
// visible elements whose text holds wanted (case-insensitive), at most max, as
// [ref, line] with refs continuing from base; and the last ref handed out.
function findText(wanted, base, max) {
  const m = globalThis.__cdpmcp;
  const w = wanted.toLowerCase();
  const st = { last: base };
  const out = [];
  const skip = new Set(['script', 'style', 'noscript', 'template', 'head', 'title']);
  const textOf = (el) => (el.innerText || el.textContent || '').replace(/\s+/g, ' ').trim();
  const visit = (root) => {
    for (const el of root.querySelectorAll('*')) {
      if (out.length >= max) return;
      const sr = m.shadowOf(el); // open, or closed and shown to the page model
      if (sr) visit(sr);
      if (skip.has(el.localName) || el.getClientRects().length === 0) continue;
      const t = textOf(el);
      if (!t.toLowerCase().includes(w)) continue;
      // The deepest: no child element holds the text too.
      if ([...el.children].some((k) => textOf(k).toLowerCase().includes(w))) continue;
      if (sr && textOf(el).toLowerCase().includes(w) && sr.querySelector('*')) continue;
      const ref = m.assign(el, st);
      const attrs = el.draggable ? ' draggable' : '';
      const name = t.length > 100 ? t.slice(0, 99) + '…' : t;
      out.push([ref, ref + '[:]<' + el.localName + attrs + '>' + name.replace(/</g, '&lt;') + '</' + el.localName + '>']);
    }
  };
  visit(document);
  return { items: out, last: st.last };
}
