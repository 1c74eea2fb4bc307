// oldText answers what the page shows already of a value about to go into
// this secret field (needle: the value's longest run of letters and digits,
// in lower case): the lines of the document's rendered text, its text nodes
// (scripts and styles too) and attribute values that hold it, each cut down
// to what is around it, and its title and address; nothing when the page
// does not show it. The redactor leaves the value where it stands between
// the same words (cdpclient/secrets, Entry.Old).
function oldText(needle) {
  const doc = (this && this.ownerDocument) || document;
  const root = doc.documentElement;
  const out = [];
  if (!root || !needle) return out;
  const has = (s) => typeof s === 'string' && s.length >= needle.length && s.toLowerCase().includes(needle);
  const loc = doc.location ? doc.location.href : '';
  if (!has(root.outerHTML) && !has(doc.title) && !has(loc)) return out;
  // Each place, cut to its line and to 120 characters either side.
  const add = (s) => {
    const lower = s.toLowerCase();
    for (let i = lower.indexOf(needle); i >= 0 && out.length < 400; i = lower.indexOf(needle, i + 1)) {
      let a = s.lastIndexOf('\n', i) + 1;
      let b = s.indexOf('\n', i);
      if (b < 0) b = s.length;
      out.push(s.slice(Math.max(a, i - 120), Math.min(b, i + needle.length + 120)));
    }
  };
  if (doc.body && has(doc.body.innerText)) add(doc.body.innerText);
  const walker = doc.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
  for (let n = walker.currentNode; n && out.length < 400; n = walker.nextNode()) {
    if (n.nodeType === 3) {
      if (has(n.data)) add(n.data);
    } else {
      for (const at of n.attributes) if (has(at.value)) add(at.value);
    }
  }
  if (has(doc.title)) add(doc.title);
  if (has(loc)) add(loc);
  return out;
}
