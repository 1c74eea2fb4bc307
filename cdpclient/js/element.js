// Functions called on one element (this) through Runtime.callFunctionOn.
// state() describes what an action needs to know about the element.
function state() {
  const el = this;
  if (!el.isConnected) return { connected: false };
  const tag = el.localName;
  const s = el.nodeType === 1 ? getComputedStyle(el) : null;
  const r = el.getBoundingClientRect();
  const visible = !!s && r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && s.display !== 'none';
  let disabled = false;
  for (let e = el; e; e = e.parentElement) {
    if (e.getAttribute && e.getAttribute('aria-disabled') === 'true') { disabled = true; break; }
  }
  if (!disabled && el.matches && el.matches(':disabled')) disabled = true;
  const type = (el.getAttribute && (el.getAttribute('type') || '')).toLowerCase();
  const textTypes = ['', 'text', 'search', 'url', 'tel', 'email', 'password', 'number', 'date', 'time',
    'datetime-local', 'month', 'week', 'color', 'range'];
  const editable = el.isContentEditable || tag === 'textarea' || (tag === 'input' && textTypes.includes(type));
  const readonly = !!(el.readOnly) || (el.getAttribute && el.getAttribute('aria-readonly') === 'true');
  // A field whose value is secret: a password field, one that was one (a
  // "show password" toggle), one marked or named for a password or a
  // one-time code. Once seen, it stays one.
  const seen = globalThis.__cdpmcpSecretFields || (globalThis.__cdpmcpSecretFields = new WeakSet());
  let secret = seen.has(el);
  if (!secret && tag === 'input') {
    const ac = (el.getAttribute('autocomplete') || '').toLowerCase().split(/\s+/);
    secret = el.type === 'password' || ac.includes('current-password') || ac.includes('new-password') ||
      ac.includes('one-time-code') || /passw/i.test(el.getAttribute('name') || '') || /passw/i.test(el.id || '');
    if (secret) seen.add(el);
  }
  const value = secret ? '' : el.value; // a password never goes into a message
  let text = (el.innerText || value || el.getAttribute && (el.getAttribute('aria-label') || el.getAttribute('placeholder') || el.getAttribute('title')) || '').trim().replace(/\s+/g, ' ');
  if (text.length > 40) text = text.slice(0, 39) + '…';
  return { connected: true, visible, disabled, editable, readonly, tag, type, text, secret };
}

// focusedSecret answers the value of the field that has the focus (this
// element's, when called on one), inside open shadow roots and same-origin
// frames, when that field holds a secret (see state); null otherwise.
function focusedSecret() {
  let el = this && this.nodeType === 1 ? this : document.activeElement;
  for (let i = 0; el && i < 8; i++) {
    if (el.shadowRoot && el.shadowRoot.activeElement) { el = el.shadowRoot.activeElement; continue; }
    if (el.localName === 'iframe' || el.localName === 'frame') {
      let doc = null;
      try { doc = el.contentDocument; } catch (e) { doc = null; }
      if (doc && doc.activeElement) { el = doc.activeElement; continue; }
    }
    break;
  }
  if (!el || el.localName !== 'input') return null;
  const seen = globalThis.__cdpmcpSecretFields || (globalThis.__cdpmcpSecretFields = new WeakSet());
  const ac = (el.getAttribute('autocomplete') || '').toLowerCase().split(/\s+/);
  if (seen.has(el) || el.type === 'password' || ac.includes('current-password') || ac.includes('new-password') ||
    ac.includes('one-time-code') || /passw/i.test(el.getAttribute('name') || '') || /passw/i.test(el.id || '')) {
    seen.add(el);
    return el.value;
  }
  return null;
}

// focusForInput focuses the element and selects its content so typed or inserted
// text replaces it (when replace is true) or is appended at the end.
function focusForInput(replace) {
  const el = this;
  const root = el.getRootNode();
  const before = root.activeElement || document.activeElement;
  if (!replace && (before === el || (el.isContentEditable && el.contains(before)))) {
    return true; // focused already: keep the caret or selection where the user left it
  }
  if (el.scrollIntoViewIfNeeded) el.scrollIntoViewIfNeeded(true);
  el.focus();
  if (el.isContentEditable) {
    const range = document.createRange();
    range.selectNodeContents(el);
    if (!replace) range.collapse(false);
    const sel = getSelection();
    sel.removeAllRanges();
    sel.addRange(range);
  } else if (typeof el.select === 'function' && replace) {
    el.select();
  } else if (typeof el.setSelectionRange === 'function') {
    try { const n = el.value.length; el.setSelectionRange(n, n); } catch (e) { /* not a text field */ }
  }
  const active = root.activeElement || document.activeElement;
  return active === el || el.contains(active);
}

// focusIfEditable is state() and, when the element takes typed text, focusForInput
// in the same call: the common case of fill in one round trip.
function focusIfEditable(replace) {
  const s = state.call(this);
  if (s.connected && s.visible && !s.disabled && s.editable && !s.readonly) s.focused = focusForInput.call(this, replace);
  return s;
}

// setValue sets the value of inputs that take no typed text (date, color, range …)
// and fires input and change as a user edit would.
function setValue(value) {
  const el = this;
  const proto = el.localName === 'textarea' ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  const setter = Object.getOwnPropertyDescriptor(proto, 'value').set;
  setter.call(el, value);
  el.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  el.dispatchEvent(new Event('change', { bubbles: true }));
  return el.value;
}

// committed fires change after text was inserted, as leaving the field would, and
// returns the resulting value.
function committed() {
  const el = this;
  el.dispatchEvent(new Event('change', { bubbles: true }));
  return el.isContentEditable ? el.innerText : el.value;
}

// selectOptions selects the options whose value or label is in wanted.
function selectOptions(wanted) {
  const el = this;
  if (el.localName !== 'select') return { error: 'not a <select> element' };
  const opts = Array.from(el.options);
  const picked = [];
  const missing = [];
  for (const w of wanted) {
    const o = opts.find((o) => o.value === w) || opts.find((o) => o.label.trim() === w.trim()) ||
      opts.find((o) => o.label.trim().toLowerCase() === w.trim().toLowerCase());
    if (o) picked.push(o); else missing.push(w);
  }
  if (missing.length) return { missing, options: opts.slice(0, 30).map((o) => o.label.trim() || o.value) };
  if (!el.multiple && picked.length > 1) return { error: 'the <select> takes one value' };
  for (const o of opts) o.selected = picked.includes(o);
  el.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  el.dispatchEvent(new Event('change', { bubbles: true }));
  return { selected: picked.map((o) => o.value) };
}

// containsDeep reports whether node is this element or inside it, looking through
// shadow roots.
function containsDeep(node) {
  for (let n = node; n; n = n.parentNode || (n instanceof ShadowRoot ? n.host : null)) {
    if (n === this) return true;
  }
  return false;
}

// scrollState reports the scroll position of the element's nearest scrollable
// ancestor (or the page) and how much lies beyond the viewport in each direction.
function scrollState() {
  let s = document.scrollingElement || document.documentElement;
  for (let e = (this && this.nodeType === 1) ? this : null; e; e = e.parentElement || (e.getRootNode().host || null)) {
    const st = getComputedStyle(e);
    if ((e.scrollHeight > e.clientHeight && /(auto|scroll)/.test(st.overflowY)) ||
        (e.scrollWidth > e.clientWidth && /(auto|scroll)/.test(st.overflowX))) { s = e; break; }
  }
  return {
    x: Math.round(s.scrollLeft), y: Math.round(s.scrollTop),
    above: Math.round(s.scrollTop), below: Math.max(0, Math.round(s.scrollHeight - s.clientHeight - s.scrollTop)),
    left: Math.round(s.scrollLeft), right: Math.max(0, Math.round(s.scrollWidth - s.clientWidth - s.scrollLeft)),
  };
}

// clickPoint scrolls the element into view and returns where a click would land
// in the top window's viewport, and whether the element (not something covering
// it) would receive it. Frames it cannot see through (cross-origin) are left to
// the caller: {frame: true}.
function clickPoint() {
  const el = this;
  if (!el.isConnected) return { gone: true };
  if (el.scrollIntoViewIfNeeded) el.scrollIntoViewIfNeeded(true);
  else el.scrollIntoView({ block: 'center', inline: 'center' });
  let rect = null;
  for (const r of el.getClientRects()) if (r.width > 1 && r.height > 1) { rect = r; break; }
  if (!rect) return { hidden: true };
  const doc = el.ownerDocument;
  const win = doc.defaultView;
  const x = Math.min(Math.max(rect.left + rect.width / 2, 1), win.innerWidth - 2);
  const y = Math.min(Math.max(rect.top + rect.height / 2, 1), win.innerHeight - 2);
  let hit = doc.elementFromPoint(x, y);
  while (hit && hit.shadowRoot) {
    const inner = hit.shadowRoot.elementFromPoint(x, y);
    if (!inner || inner === hit) break;
    hit = inner;
  }
  let ok = false;
  for (let n = hit; n; n = n.parentNode || n.host) if (n === el) { ok = true; break; }
  if (!ok && hit && hit.localName === 'label' && hit.control === el) ok = true;
  let ox = 0;
  let oy = 0;
  for (let w = win; w !== w.top; w = w.parent) {
    let fe = null;
    try { fe = w.frameElement; } catch (e) { fe = null; }
    if (!fe) return { frame: true };
    const r = fe.getBoundingClientRect();
    const cs = getComputedStyle(fe);
    ox += r.left + fe.clientLeft + parseFloat(cs.paddingLeft);
    oy += r.top + fe.clientTop + parseFloat(cs.paddingTop);
  }
  return { x: Math.round(x + ox), y: Math.round(y + oy), ok };
}

// fileInput says whether the element is a file input (or the label of one), and
// whether it takes several files.
function fileInput() {
  const el = this.localName === 'label' && this.control ? this.control : this;
  const file = el.localName === 'input' && el.type === 'file';
  return { file, multiple: file && el.multiple };
}

// fileControl is the file input the element stands for: itself, or the control
// of a label.
function fileControl() {
  return this.localName === 'label' && this.control ? this.control : this;
}

// same reports whether o is this very object: === runs no page code, not even a
// proxy's trap.
function same(o) {
  return this === o;
}
