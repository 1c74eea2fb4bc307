// Helpers of the action observation (watch.js): watchParts(m), with m the
// page model (snapshot.js), returns
//   stateOf(el)       the states an action may change: checked, disabled, expanded…
//   controlState(el)  a form control's value or checked state (never a password's)
//   nameOf(el)        what a person reads on a button or link
//   holderOf(node)    the element to report a text change by
//   inside(n, set)    whether n is in set or inside an element of it
//   visible(el)       whether el is drawn
//   addedLines(roots, st, out)  the page model's lines of added subtrees, into
//                     out.added (elements, by ref) and out.text (text, by the root's ref)
function watchParts(m) {
  function stateOf(el) {
    const s = {};
    if (!el || !el.isConnected) return s;
    if ('checked' in el && (el.type === 'checkbox' || el.type === 'radio')) s.checked = el.checked;
    if ('disabled' in el) s.disabled = !!el.disabled;
    for (const a of ['aria-expanded', 'aria-selected', 'aria-pressed', 'aria-checked']) {
      const v = el.getAttribute(a);
      if (v !== null) s[a.slice(5)] = v === 'true' ? true : v === 'false' ? false : v;
    }
    if (el.localName === 'details' || el.localName === 'dialog') s.open = el.open;
    return s;
  }

  function controlState(el) {
    if (el.type === 'checkbox' || el.type === 'radio') return { checked: el.checked };
    if (el.type === 'password' || el.type === 'file') return {};
    return { value: m.cut(el.value || '', 60) };
  }

  // nameOf is what a person reads on a button or link: its text or label.
  function nameOf(el) {
    if (!el || !el.isConnected) return '';
    const t = el.localName;
    if (t === 'input' || t === 'textarea' || t === 'select' || el.isContentEditable) return '';
    return m.cut(m.fold(el.getAttribute('aria-label') || el.innerText || el.textContent || '').trim(), 100);
  }

  // holderOf returns the element to report a text change by: the element that
  // holds the changed text, or, when that says too little on its own ("1"), the
  // block around it.
  function holderOf(n) {
    const el = n.nodeType === 1 ? n : n.parentElement;
    if (!el) return null;
    const own = m.fold(el.innerText || el.textContent || '').trim();
    if (own.length >= 12) return el;
    for (let e = el; e; e = e.parentElement || (e.getRootNode().host || null)) {
      const d = getComputedStyle(e).display;
      if (d !== 'inline' && d !== 'contents') return e;
    }
    return el;
  }

  function inside(n, set) {
    for (let e = n; e; e = e.parentNode || e.host) if (set.has(e)) return true;
    return false;
  }

  function visible(el) {
    if (!el.isConnected) return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true });
  }

  function addedLines(roots, st, out) {
    for (const root of roots) {
      if (!root.isConnected) continue;
      const snap = m.snapshot({ base: st.last, scope: root });
      st.last = snap.last;
      for (const l of snap.lines) {
        const mm = /^(\d+)\[:\](<.*)$/.exec(l);
        if (mm) out.added.push([mm[1], mm[2]]);
        else out.text.push([String(m.assign(root, st)), m.cut(l.slice(l.indexOf('[:]') + 3), 100)]);
      }
    }
  }

  return { stateOf, controlState, nameOf, holderOf, inside, visible, addedLines };
}
