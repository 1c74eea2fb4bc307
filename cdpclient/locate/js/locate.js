// locate's page functions (cdpclient/locate), in cdpmcp's isolated world:
// an element described as a person would find it again (describe), the
// element a description names on the page as it is now (locate), what a page
// shows of itself (pageFacts) and whether it shows a text (hasText). The
// role and name rules follow ARIA's implicit roles and the accessible name's
// usual sources (aria-labelledby, aria-label, labels, a button's value, alt,
// the content, title, placeholder), as Playwright's getByRole reads them.

// norm folds white space and case, and drops a trailing colon or required
// marker, so that "Email *" and "email" name the same field.
function norm(s) {
  return (s || '').replace(/[\s\u200b\u00a0]+/g, ' ').trim().toLowerCase().replace(/[\s:*]+$/, '');
}

function fold(s) {
  return (s || '').replace(/[\s\u200b\u00a0]+/g, ' ').trim();
}

function cut(s, n) {
  return s.length > n ? s.slice(0, n - 1) + '…' : s;
}

function textOf(el) {
  const t = el.innerText !== undefined ? el.innerText : el.textContent;
  return fold(t || '');
}

// roleOf is the element's ARIA role: its role attribute, else the one its
// tag and type imply; '' when it has none (a password field, a div).
function roleOf(el) {
  const r = (el.getAttribute('role') || '').trim().split(/\s+/)[0].toLowerCase();
  if (r && r !== 'presentation' && r !== 'none' && r !== 'generic') return r;
  const tag = el.localName;
  switch (tag) {
    case 'a': case 'area': return el.hasAttribute('href') ? 'link' : '';
    case 'button': return 'button';
    case 'select': return el.multiple || el.size > 1 ? 'listbox' : 'combobox';
    case 'textarea': return 'textbox';
    case 'img': return el.getAttribute('alt') === '' ? '' : 'img';
    case 'option': return 'option';
    case 'h1': case 'h2': case 'h3': case 'h4': case 'h5': case 'h6': return 'heading';
    case 'input': {
      const t = (el.getAttribute('type') || 'text').toLowerCase();
      switch (t) {
        case 'checkbox': return 'checkbox';
        case 'radio': return 'radio';
        case 'button': case 'submit': case 'reset': case 'image': return 'button';
        case 'range': return 'slider';
        case 'number': return 'spinbutton';
        case 'search': return el.hasAttribute('list') ? 'combobox' : 'searchbox';
        case 'email': case 'tel': case 'text': case 'url': return el.hasAttribute('list') ? 'combobox' : 'textbox';
      }
      return '';
    }
  }
  if (el.isContentEditable && !(el.parentElement && el.parentElement.isContentEditable)) return 'textbox';
  return '';
}

// labelOf is the text of a form control's labels, without the text of the
// controls inside them.
function labelOf(el) {
  if (!el.labels || !el.labels.length) return '';
  const parts = [];
  for (const l of el.labels) {
    let out = '';
    const walk = (n) => {
      for (const c of n.childNodes) {
        if (c.nodeType === 3) out += c.data;
        else if (c.nodeType === 1 && c !== el && !['select', 'textarea', 'input', 'button', 'script', 'style'].includes(c.localName)) walk(c);
      }
    };
    walk(l);
    parts.push(out);
  }
  return fold(parts.join(' '));
}

// nameOf is the element's accessible name.
function nameOf(el) {
  const ids = el.getAttribute('aria-labelledby');
  if (ids) {
    const root = el.getRootNode();
    const t = fold(ids.split(/\s+/).map((id) => {
      const n = root.getElementById ? root.getElementById(id) : null;
      return n ? textOf(n) : '';
    }).join(' '));
    if (t) return t;
  }
  const al = el.getAttribute('aria-label');
  if (al && al.trim()) return fold(al);
  const tag = el.localName;
  if (tag === 'input' || tag === 'select' || tag === 'textarea') {
    const l = labelOf(el);
    if (l) return l;
    if (tag === 'input') {
      const t = el.type;
      if (t === 'submit' || t === 'button' || t === 'reset') return fold(el.value) || (t === 'submit' ? 'Submit' : t === 'reset' ? 'Reset' : '');
      if (t === 'image') return fold(el.alt || el.value) || 'Submit';
    }
    return fold(el.title || el.placeholder || '');
  }
  if (tag === 'img') return fold(el.alt || el.title || '');
  const t = textOf(el);
  if (t) return cut(t, 200);
  const img = el.querySelector('img[alt]:not([alt=""]),[aria-label]');
  if (img) return fold(img.getAttribute('alt') || img.getAttribute('aria-label'));
  return fold(el.title || '');
}

// nearOf is the text a person reads next to the element: its row's other
// cells, its fieldset's legend, or the last heading before it.
function nearOf(el, name) {
  const row = el.closest('tr, [role=row]');
  if (row) {
    let t = textOf(row);
    if (name) t = fold(t.split(name).join(' '));
    if (t) return cut(t, 80);
  }
  const fs = el.closest('fieldset');
  const lg = fs && fs.querySelector('legend');
  if (lg && textOf(lg)) return cut(textOf(lg), 80);
  let best = '';
  for (const h of document.querySelectorAll('h1,h2,h3,h4,h5,h6,[role=heading]')) {
    if (h.contains(el) || !(h.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING)) continue;
    best = textOf(h);
  }
  return cut(best, 80);
}

// cssPath is a CSS path to the element from the closest ancestor with a
// stable unique id (or the root): the last resort of a description.
function cssPath(el) {
  const parts = [];
  for (let e = el; e && e.nodeType === 1 && e.localName !== 'html'; e = e.parentElement) {
    const root = e.getRootNode();
    if (e.id && /^[A-Za-z][\w-]*$/.test(e.id) && !/\d{4,}/.test(e.id) && root.querySelectorAll('#' + CSS.escape(e.id)).length === 1) {
      parts.unshift('#' + CSS.escape(e.id));
      break;
    }
    let sel = e.localName;
    const p = e.parentElement;
    if (p) {
      const same = [...p.children].filter((c) => c.localName === e.localName);
      if (same.length > 1) sel += ':nth-of-type(' + (same.indexOf(e) + 1) + ')';
    }
    parts.unshift(sel);
  }
  return parts.join(' > ');
}

function shows(el) {
  return el.getClientRects().length > 0 && el.checkVisibility({ checkVisibilityCSS: true });
}

// feature reads one part of a description from an element.
function feature(el, k) {
  switch (k) {
    case 'label': return labelOf(el);
    case 'placeholder': return el.getAttribute('placeholder') || '';
    case 'field': return el.getAttribute('name') || '';
    case 'type': return el.localName === 'input' ? (el.getAttribute('type') || 'text').toLowerCase() : '';
    case 'near': return nearOf(el, nameOf(el));
    case 'css': return cssPath(el);
  }
  return '';
}

// short renders an element for a message: <button>Log in</button>.
function short(el) {
  const tag = el.localName;
  const t = tag === 'input' ? ' type=' + (el.getAttribute('type') || 'text').toLowerCase() : '';
  return '<' + tag + t + '>' + cut(nameOf(el), 60).replace(/</g, '&lt;') + '</' + tag + '>';
}

// describe (called on an element) says how a person would find it again,
// whether its value is secret (as element.js's state decides), and for a
// check box or radio whether it is checked.
function describe() {
  const el = this;
  const tag = el.localName;
  const d = { role: roleOf(el), name: cut(nameOf(el), 200), tag };
  if (tag === 'input') d.type = (el.getAttribute('type') || 'text').toLowerCase();
  const label = labelOf(el);
  if (label) d.label = label;
  const ph = el.getAttribute('placeholder');
  if (ph) d.placeholder = fold(ph);
  const field = el.getAttribute('name');
  if (field && ['input', 'select', 'textarea', 'button'].includes(tag)) d.field = field;
  const near = nearOf(el, d.name);
  if (near && norm(near) !== norm(d.name)) d.near = near;
  d.css = cssPath(el);
  const seen = globalThis.__cdpmcpSecretFields || (globalThis.__cdpmcpSecretFields = new WeakSet());
  let secret = seen.has(el);
  if (!secret && tag === 'input') {
    const ac = (el.getAttribute('autocomplete') || '').toLowerCase().split(/\s+/);
    secret = el.type === 'password' || ac.includes('current-password') || ac.includes('new-password') ||
      ac.includes('one-time-code') || /passw/i.test(el.getAttribute('name') || '') || /passw/i.test(el.id || '');
  }
  return { desc: d, secret, checked: el.checked === true };
}

// locate finds the element desc names: of its role (or tag and type), with
// its name; among several, the visible ones, then those whose label,
// placeholder, field name, type, nearby text and CSS path also match, each
// as long as one is left. One left gets a ref (numbered after base); none or
// several are reported with what there is, at most max.
function locate(desc, base, max) {
  const m = globalThis.__cdpmcp;
  const all = [];
  const visit = (root) => {
    for (const el of root.querySelectorAll('*')) {
      const sr = m.shadowOf(el); // open, or closed and shown to the page model
      if (sr) visit(sr);
      all.push(el);
    }
  };
  visit(document);
  const kind = all.filter((el) => (desc.role ? roleOf(el) === desc.role :
    el.localName === desc.tag && (!desc.type || feature(el, 'type') === desc.type)));
  let pool = kind;
  if (desc.name) {
    pool = pool.filter((el) => norm(nameOf(el)) === norm(desc.name));
  } else {
    for (const k of ['label', 'placeholder', 'field']) {
      if (desc[k]) pool = pool.filter((el) => norm(feature(el, k)) === norm(desc[k]));
    }
  }
  if (pool.length > 1) {
    const v = pool.filter(shows);
    if (v.length) pool = v;
  }
  for (const k of ['label', 'placeholder', 'field', 'type', 'near', 'css']) {
    if (pool.length <= 1) break;
    if (!desc[k]) continue;
    const n = pool.filter((el) => norm(feature(el, k)) === norm(desc[k]));
    if (n.length) pool = n;
  }
  const st = { last: base };
  if (pool.length === 1) {
    const ref = m.assign(pool[0], st);
    return { count: 1, ref: String(ref), line: m.line(pool[0], ref), last: st.last };
  }
  const show = pool.length ? pool : kind.filter(shows);
  const found = show.slice(0, max).map((el) => {
    const near = nearOf(el, nameOf(el));
    return short(el) + (near ? ' near "' + near + '"' : '');
  });
  return { count: pool.length, found, more: Math.max(0, show.length - max), last: st.last };
}

// pageFacts is what a page shows of itself: its title and first heading.
function pageFacts() {
  let heading = '';
  for (const h of document.querySelectorAll('h1,[role=heading][aria-level="1"],h2')) {
    if (shows(h) && textOf(h)) {
      heading = cut(textOf(h), 120);
      break;
    }
  }
  return { title: fold(document.title), heading };
}

// hasText reports whether the page shows text; runs of digits in text match
// any number (an order number, a count), white space and case are folded.
function hasText(text) {
  const esc = fold(text).toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\d+/g, '\\d+');
  const re = new RegExp(esc);
  const body = document.body;
  return !!body && re.test(fold(body.innerText || '').toLowerCase());
}
