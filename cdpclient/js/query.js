// query(selector, all) finds elements matching a CSS selector in the document and,
// recursively, inside open shadow roots. It returns the first visible match (or the
// first match), noting on it how many matched; an invalid selector throws a
// SyntaxError.
function query(selector, pickVisible) {
  const roots = [document];
  const matches = [];
  document.querySelector(selector); // throws on a malformed selector
  for (let i = 0; i < roots.length; i++) {
    const root = roots[i];
    for (const el of root.querySelectorAll(selector)) matches.push(el);
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      // Open roots, and the closed ones cdpmcp was shown (closedroots.js).
      const sr = globalThis.__cdpmcp ? globalThis.__cdpmcp.shadowOf(n) : n.shadowRoot;
      if (sr) roots.push(sr);
    }
  }
  if (matches.length === 0) return null;
  let found = matches[0];
  if (pickVisible) {
    for (const el of matches) {
      const r = el.getBoundingClientRect();
      const s = getComputedStyle(el);
      if (r.width > 0 && r.height > 0 && s.visibility !== 'hidden') { found = el; break; }
    }
  }
  // How many matched, for the action's answer (watch.js): on the element's
  // wrapper in cdpmcp's world, which the page cannot see.
  found[Symbol.for('cdpmcp.matches')] = matches.length;
  return found;
}
