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

// containsDeep reports whether node is this element or inside it, looking through
// shadow roots.
function containsDeep(node) {
  for (let n = node; n; n = n.parentNode || (n instanceof ShadowRoot ? n.host : null)) {
    if (n === this) return true;
  }
  return false;
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
  // Scrolled to, and still wholly beside the viewport: placed off the page
  // (a transform, a negative margin), where no one can click it.
  if (rect.right <= 0 || rect.bottom <= 0 || rect.left >= win.innerWidth || rect.top >= win.innerHeight) {
    return { outside: true, x: Math.round(rect.left), y: Math.round(rect.top) };
  }
  const x = Math.min(Math.max(rect.left + rect.width / 2, 1), win.innerWidth - 2);
  const y = Math.min(Math.max(rect.top + rect.height / 2, 1), win.innerHeight - 2);
  let hit = doc.elementFromPoint(x, y);
  // Closed roots too, those the page model was shown (closedroots.js).
  const m = globalThis.__cdpmcp;
  const rootOf = (e) => (m ? m.shadowOf(e) : e.shadowRoot);
  for (let sr = hit && rootOf(hit); sr; sr = rootOf(hit)) {
    const inner = sr.elementFromPoint(x, y);
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
