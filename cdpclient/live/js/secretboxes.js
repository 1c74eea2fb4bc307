// secretBoxes lists where the page shows fields whose value is secret, in CSS
// pixels of the viewport: password fields, fields that were ones (a "show
// password" toggle turns them into text fields) or are named like ones, and
// one-time-code fields, in the document, its open shadow roots and its
// same-origin frames. It returns
// {boxes: [[x, y, w, h], ...], sx, sy} with the scroll offset measured at;
// with revealedOnly, only the fields that draw their value (not dots: a
// password field a "show" toggle turned into a text field).
// Runs in cdpmcp's isolated world, where the fields seen stay remembered.
function secretBoxes(revealedOnly) {
  const seen = globalThis.__cdpmcpSecretFields || (globalThis.__cdpmcpSecretFields = new WeakSet());
  const secret = 'input[type=password i], input[autocomplete~="current-password" i], ' +
    'input[autocomplete~="new-password" i], input[autocomplete~="one-time-code" i], ' +
    'input[name*="passw" i], input[id*="passw" i]';
  const boxes = [];
  const visit = (root, dx, dy, depth) => {
    for (const el of root.querySelectorAll(secret)) seen.add(el);
    for (const el of root.querySelectorAll('*')) {
      const sr = (globalThis.__cdpmcp && globalThis.__cdpmcp.shadowOf ? globalThis.__cdpmcp.shadowOf(el) : el.shadowRoot);
      if (sr) visit(sr, dx, dy, depth);
      if (seen.has(el)) {
        if (revealedOnly && (el.type === 'password' || el.value === '')) continue;
        const r = el.getBoundingClientRect();
        if (r.width > 0 && r.height > 0) boxes.push([r.left + dx, r.top + dy, r.width, r.height]);
      } else if ((el.localName === 'iframe' || el.localName === 'frame') && depth < 4) {
        let doc = null;
        try { doc = el.contentDocument; } catch (e) { doc = null; }
        if (doc) {
          const r = el.getBoundingClientRect();
          visit(doc, dx + r.left + el.clientLeft, dy + r.top + el.clientTop, depth + 1);
        }
      }
    }
  };
  visit(document, 0, 0, 0);
  return {boxes, sx: scrollX, sy: scrollY};
}
