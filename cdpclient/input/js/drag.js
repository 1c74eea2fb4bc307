// Functions for drag (cdpclient/drag.go), called on one element (this) in
// cdpmcp's isolated world: listeners added here see the page's DOM events
// without being visible to page scripts.

// dragWatch starts noting whether an HTML5 drag begins in the element's window:
// the first dragstart after this call, read by dragStarted.
function dragWatch() {
  const win = this.ownerDocument.defaultView;
  const st = { ev: null };
  const onStart = (e) => { if (!st.ev) st.ev = e; };
  win.addEventListener('dragstart', onStart, { capture: true });
  globalThis.__cdpmcpDrag = { st, stop: () => win.removeEventListener('dragstart', onStart, { capture: true }) };
  return true;
}

// dragStarted reports whether an HTML5 drag began since dragWatch (a dragstart
// the page did not cancel), and stops watching.
function dragStarted() {
  const d = globalThis.__cdpmcpDrag;
  if (!d) return false;
  d.stop();
  delete globalThis.__cdpmcpDrag;
  return !!d.st.ev && !d.st.ev.defaultPrevented;
}

// dragItem is what a drag of the element moves: the element itself when it is
// draggable or a list item, else the nearest ancestor that is one of a run of
// like siblings (the row a drag handle belongs to).
function dragItem() {
  const roles = ['listitem', 'option', 'row', 'treeitem', 'gridcell', 'tab'];
  for (let el = this, i = 0; el && el.parentElement && i < 5; el = el.parentElement, i++) {
    if (el.draggable || /^(li|tr|option)$/.test(el.localName) || roles.includes(el.getAttribute('role'))) return el;
    if ([...el.parentElement.children].some((k) => k !== el && k.localName === el.localName)) return el;
  }
  return this;
}

// placeOf says where the element is, as a person would: the labelled container
// it sits in (a column, a list under a heading) and its position among its
// siblings of the same kind. Compared before and after a drag, it says what
// moved.
function placeOf() {
  const el = this;
  if (!el.isConnected) return { gone: true };
  const fold = (s) => (s || '').replace(/\s+/g, ' ').trim().slice(0, 40);
  const parent = el.parentElement;
  const kids = parent ? [...parent.children].filter((k) => k.localName === el.localName) : [el];
  // A label the container has (aria-label, a heading inside it or just
  // before it), nearest first; else the nearest id.
  const heading = /^(h[1-6]|header|legend|caption)$/;
  let where = '';
  let id = '';
  for (let a = parent, i = 0; a && i < 5 && !where; a = a.parentElement, i++) {
    where = fold(a.getAttribute('aria-label'));
    const h = where ? null : [...a.children].find((k) => heading.test(k.localName)) ||
      (a.previousElementSibling && heading.test(a.previousElementSibling.localName) ? a.previousElementSibling : null);
    if (h) where = fold(h.innerText || h.textContent);
    if (!id && a.id) id = '#' + a.id;
  }
  where = where || id;
  return { where, index: kids.indexOf(el) + 1, of: kids.length, name: fold(el.innerText || el.textContent || el.getAttribute('aria-label')) };
}
