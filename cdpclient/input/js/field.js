// Functions called on one field (this) through Runtime.callFunctionOn by the
// input actions: focusing for typed text, values set in one step, selects,
// scroll positions, file inputs, the secret a field holds.

// focusedSecret answers the value of the field that has the focus (this
// element's, when called on one), inside open shadow roots and same-origin
// frames, when that field holds a secret (see state); null otherwise.
function focusedSecret() {
  let el = this && this.nodeType === 1 ? this : document.activeElement;
  for (let i = 0; el && i < 8; i++) {
    const sr = (globalThis.__cdpmcp && globalThis.__cdpmcp.shadowOf ? globalThis.__cdpmcp.shadowOf(el) : el.shadowRoot);
    if (sr && sr.activeElement) { el = sr.activeElement; continue; }
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
// in the same call: the common case of fill in one round trip. For a secret
// field and a needle it also answers oldText (asked, old; null: not known).
function focusIfEditable(replace, needle) {
  const s = state.call(this);
  if (s.secret && needle) {
    s.asked = true;
    try { s.old = oldText.call(this, needle); } catch (e) { s.old = null; } // unknown: masked wherever it shows
  }
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
// fieldValue is what an <input> or <textarea> holds, read with no event.
function fieldValue() {
  return this.value;
}

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
    const byValue = opts.find((o) => o.value === w);
    const byLabel = opts.find((o) => o.label.trim() === w.trim());
    if (byValue && byLabel && byValue !== byLabel) {
      // One option shows it, another sends it: which was meant is a guess.
      const say = (o) => '"' + o.label.trim() + '" (value "' + o.value + '")';
      return { error: '"' + w + '" is the label of ' + say(byLabel) + ' and the value of ' + say(byValue), ambiguous: true };
    }
    const o = byValue || byLabel || opts.find((o) => o.label.trim().toLowerCase() === w.trim().toLowerCase());
    if (o) picked.push(o); else missing.push(w);
  }
  if (missing.length) return { missing, options: opts.slice(0, 30).map((o) => o.label.trim() || o.value) };
  if (!el.multiple && picked.length > 1) return { error: 'the <select> takes one value' };
  for (const o of opts) o.selected = picked.includes(o);
  el.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  el.dispatchEvent(new Event('change', { bubbles: true }));
  return { selected: picked.map((o) => o.value) };
}

// scrollState reports the scroll position of the element's nearest scrollable
// ancestor (or the page) and how much lies beyond the viewport in each
// direction, and the size of the viewport (without its scroll bars: the
// scrolling element's client size is the viewport's, in quirks mode too).
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
    vw: (document.scrollingElement || document.documentElement).clientWidth,
    vh: (document.scrollingElement || document.documentElement).clientHeight,
  };
}

// scrollWait waits, a frame at a time, until a wheel scroll from before (a
// scrollState) has been applied: the position reaches want ({x, y}), or it
// moved and then held for stillMs; it gives up after maxMs. It answers the
// scrollState where it stopped. Frames drive it, with a timer beside for a
// page that draws none.
function scrollWait(want, before, stillMs, maxMs) {
  const read = () => scrollState.call(this);
  const same = (a, b) => a.x === b.x && a.y === b.y && a.above === b.above && a.below === b.below && a.left === b.left && a.right === b.right;
  const start = performance.now();
  let last = before;
  let lastChange = start;
  return new Promise((resolve) => {
    const check = () => {
      const cur = read();
      const now = performance.now();
      if (cur.x === want.x && cur.y === want.y) return resolve(cur);
      if (!same(cur, last)) {
        last = cur;
        lastChange = now;
      }
      if ((now - lastChange > stillMs && !same(cur, before)) || now - start > maxMs) return resolve(cur);
      let fired = false;
      const once = () => {
        if (!fired) {
          fired = true;
          check();
        }
      };
      requestAnimationFrame(once);
      setTimeout(once, 16);
    };
    check();
  });
}

// fileInput says whether the element is a file input (or the label of one), and
// whether it takes several files.
// field names another kind of form field (an <input> of another type, a
// <textarea>, a <select>): clicking one never opens a file chooser.
function fileInput() {
  const el = this.localName === 'label' && this.control ? this.control : this;
  const file = el.localName === 'input' && el.type === 'file';
  const other = !file && ['input', 'textarea', 'select'].includes(el.localName);
  return { file, multiple: file && el.multiple, field: other ? '<' + el.localName + (el.localName === 'input' ? ' type=' + el.type : '') + '>' : '' };
}

// fileControl is the file input the element stands for: itself, or the control
// of a label.
function fileControl() {
  return this.localName === 'label' && this.control ? this.control : this;
}
