// How the page model (snapshot.js) sees and renders one element: whether a user
// can act on it, its accessible name, and its line in seed 000's format,
//   12[:]<button disabled>Save</button>
// lineHelpers returns these functions; install() calls it once per document.
function lineHelpers() {
  const ROLES = new Set(['button', 'link', 'checkbox', 'radio', 'switch', 'tab', 'menuitem', 'menuitemcheckbox',
    'menuitemradio', 'option', 'combobox', 'textbox', 'searchbox', 'slider', 'spinbutton', 'treeitem']);
  const GENERIC = /^(more|read more|here|click here|link|details|view|open|go|learn more|see more|continue|this)$/i;
  const NAME_MAX = 100;
  const VALUE_MAX = 60;

  const fold = (s) => s.replace(/[\s\u200b]+/g, ' ');
  const cut = (s, n) => (s.length > n ? s.slice(0, n - 1) + '…' : s);
  const esc = (s) => s.replace(/>/g, '&gt;').replace(/\n/g, ' ');
  const quote = (v) => (/^[\w./:#@%+,-]+$/.test(v) && v.length > 0 ? v : '"' + esc(v).replace(/"/g, "'") + '"');

  function role(el) {
    const r = el.getAttribute('role');
    return r ? r.split(' ')[0].toLowerCase() : '';
  }

  // interactive says whether a user can act on el, and whether it is native.
  function interactive(el, style) {
    const tag = el.localName;
    switch (tag) {
      case 'a': case 'area': return el.hasAttribute('href') ? 'native' : (ROLES.has(role(el)) ? 'native' : '');
      case 'button': case 'select': case 'textarea': case 'summary': return 'native';
      case 'input': return el.type === 'hidden' ? '' : 'native';
      case 'label':
        // A label standing in for a control that does not show (a styled
        // checkbox, a file input behind a button) is what a person clicks.
        return el.control && el.control.isConnected && !shows(el.control) ? 'native' : '';
    }
    if (el.isContentEditable && (!el.parentElement || !el.parentElement.isContentEditable)) return 'native';
    if (ROLES.has(role(el))) return 'native';
    if (el.hasAttribute('onclick') || (el.hasAttribute('tabindex') && el.tabIndex >= 0)) return 'custom';
    // Something to drag: a draggable item, or a handle the cursor offers to grab.
    if (el.getAttribute('draggable') === 'true') return 'custom';
    const cursor = style.cursor;
    if (cursor === 'pointer' || cursor === 'grab' || cursor === 'move') {
      const p = el.parentElement;
      if (!p || getComputedStyle(p).cursor !== cursor) return 'custom';
    }
    return '';
  }

  // shows says whether a control is drawn where a person could click it.
  function shows(el) {
    const r = el.getBoundingClientRect();
    return r.width > 1 && r.height > 1 && el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true });
  }

  function hasInteractiveInside(el) {
    return !!el.querySelector('a[href],button,input:not([type=hidden]),select,textarea,[role=button],[role=link],[contenteditable=""],[contenteditable=true]');
  }

  function textOf(el) {
    let t = el.innerText;
    if (t === undefined) t = el.textContent;
    return fold(t || '').trim();
  }

  function labelText(el) {
    const ids = el.getAttribute('aria-labelledby');
    if (ids) {
      const root = el.getRootNode();
      const t = ids.split(/\s+/).map((id) => { const n = root.getElementById ? root.getElementById(id) : null; return n ? textOf(n) : ''; }).join(' ').trim();
      if (t) return t;
    }
    const al = el.getAttribute('aria-label');
    if (al && al.trim()) return fold(al).trim();
    const tag = el.localName;
    if ((tag === 'input' || tag === 'select' || tag === 'textarea') && el.labels && el.labels.length) {
      const t = Array.from(el.labels).map((l) => labelOwnText(l, el)).join(' ').trim();
      if (t) return t;
    }
    return '';
  }

  // labelOwnText is a label's text without the text of the controls inside it.
  function labelOwnText(label, control) {
    let out = '';
    const walk = (n) => {
      for (const c of n.childNodes) {
        if (c.nodeType === 3) out += c.data;
        else if (c.nodeType === 1 && c !== control && !['select', 'textarea', 'input', 'button', 'script', 'style'].includes(c.localName)) walk(c);
      }
    };
    walk(label);
    return fold(out).trim();
  }

  function nameOf(el, tag) {
    let n = labelText(el);
    if (!n) {
      if (tag === 'input') {
        const t = el.type;
        if (t === 'submit' || t === 'button' || t === 'reset') n = el.value || (t === 'submit' ? 'Submit' : t === 'reset' ? 'Reset' : '');
        else if (t === 'image') n = el.alt || el.value || 'Submit';
      } else if (tag !== 'select' && tag !== 'textarea') {
        n = textOf(el);
      }
    }
    if (!n) {
      const img = el.querySelector && el.querySelector('img[alt]:not([alt=""]),[aria-label]');
      if (img) n = fold(img.getAttribute('alt') || img.getAttribute('aria-label') || '').trim();
    }
    if (!n && el.title) n = fold(el.title).trim();
    return cut(n, NAME_MAX);
  }

  function relative(u) {
    try {
      const url = new URL(u, location.href);
      if (url.origin === location.origin) return url.pathname + url.search + url.hash;
      return url.href;
    } catch (e) {
      return u;
    }
  }

  // line renders one interactive element: 12[:]<tag attrs>name</tag>. inText says
  // the element sits in running text (or a table row), whose words say where a
  // generic link goes; all shows every option of a select.
  function line(el, ref, inText, all) {
    const tag = el.localName;
    const r = role(el);
    const attrs = [];
    let name = nameOf(el, tag);
    if (r && !(tag === 'a' && r === 'link') && !(tag === 'button' && r === 'button')) attrs.push('role=' + r);
    if (tag === 'input') {
      const t = el.type;
      if (t !== 'text') attrs.push('type=' + t);
      if (t === 'checkbox' || t === 'radio') {
        if (el.checked) attrs.push('checked');
      } else if (t === 'password') {
        if (el.value) attrs.push('filled');
      } else if (t !== 'submit' && t !== 'button' && t !== 'reset' && t !== 'image' && t !== 'file') {
        if (el.value) attrs.push('value=' + quote(cut(fold(el.value), VALUE_MAX)));
      } else if (t === 'file' && el.files && el.files.length) {
        attrs.push('value=' + quote(cut(Array.from(el.files).map((f) => f.name).join(','), VALUE_MAX)));
      }
      if (!name && el.placeholder) name = cut(fold(el.placeholder).trim(), NAME_MAX);
      else if (el.placeholder && el.placeholder !== name && !el.value) attrs.push('placeholder=' + quote(cut(fold(el.placeholder).trim(), VALUE_MAX)));
    } else if (tag === 'textarea') {
      if (el.value) attrs.push('value=' + quote(cut(fold(el.value), VALUE_MAX)));
      if (!name && el.placeholder) name = cut(fold(el.placeholder).trim(), NAME_MAX);
    } else if (tag === 'select') {
      const sel = Array.from(el.selectedOptions).map((o) => fold(o.label).trim());
      if (sel.length) attrs.push('value=' + quote(cut(sel.join(','), VALUE_MAX)));
      // A long list of options shows its first; a snapshot of the select
      // alone shows them all.
      const opts = Array.from(el.options).map((o) => fold(o.label).trim());
      const shown = all ? opts.join(',') : opts.slice(0, 8).join(',');
      attrs.push('options=' + quote(!all && opts.length > 8 ? shown + ',…+' + (opts.length - 8) + ': snapshot {ref: ' + ref + '}' : shown));
      if (el.multiple) attrs.push('multiple');
    } else if (tag === 'a' || tag === 'area') {
      // A link without a name is named by where it goes, once.
      const href = el.getAttribute('href') || '';
      if (!name) name = cut(relative(el.href || href), NAME_MAX);
      else if (href && !href.startsWith('javascript:') && href !== '#' && !inText && GENERIC.test(name)) {
        attrs.push('href=' + quote(cut(relative(el.href || href), 80)));
      }
    } else if (el.isContentEditable) {
      attrs.push('contenteditable');
    } else if (el.getAttribute('draggable') === 'true') {
      attrs.push('draggable');
    } else if (tag === 'label' && el.control) {
      // What it stands for: the hidden control's type and state.
      const c = el.control;
      attrs.push('for=' + (c.localName === 'input' ? c.type : c.localName));
      if (c.checked) attrs.push('checked');
      if (c.type === 'file' && c.files && c.files.length) attrs.push('value=' + quote(cut(Array.from(c.files).map((f) => f.name).join(','), VALUE_MAX)));
    } else if (tag === 'summary') {
      const d = el.parentElement;
      if (d && d.localName === 'details' && !d.open && !el.hasAttribute('aria-expanded')) attrs.push('expanded=false');
    } else if (tag !== 'button' && !r) {
      attrs.push('clickable');
    }
    if (el.disabled || el.getAttribute('aria-disabled') === 'true') attrs.push('disabled');
    if (el.required || el.getAttribute('aria-required') === 'true') attrs.push('required');
    if (el.readOnly && (tag === 'input' || tag === 'textarea')) attrs.push('readonly');
    for (const a of ['aria-expanded', 'aria-pressed', 'aria-selected', 'aria-checked', 'aria-current']) {
      const v = el.getAttribute(a);
      if (v !== null && v !== 'false' && !(a === 'aria-checked' && tag === 'input')) attrs.push(a.slice(5) + (v === 'true' ? '' : '=' + quote(v)));
      else if (a === 'aria-expanded' && v === 'false') attrs.push('expanded=false');
    }
    if (el.getAttribute('aria-invalid') === 'true') attrs.push('invalid');
    if (coveredBy(el)) attrs.push('covered');
    return ref + '[:]<' + tag + (attrs.length ? ' ' + attrs.join(' ') : '') + '>' + esc(name) + '</' + tag + '>';
  }

  // rects keeps the boxes measured during one slice of a walk (caching):
  // the page does not run between two reads in it, so its layout cannot
  // change, and the covered check, the view's spans and the boxes ask for the
  // same elements' boxes. null outside a slice: every read measures.
  let rects = null;

  // rectOf is el's getBoundingClientRect(), measured once a slice.
  function rectOf(el) {
    if (!rects) return el.getBoundingClientRect();
    let r = rects.get(el);
    if (r === undefined) {
      r = el.getBoundingClientRect();
      rects.set(el, r);
    }
    return r;
  }

  // caching(true) starts a slice's boxes, caching(false) ends it; call the
  // two around code that never lets the page run between them.
  function caching(on) {
    rects = on ? new Map() : null;
  }

  // coveredBy reports whether another element would receive a click at el's centre
  // (only checked inside the viewport, where the answer is known).
  function coveredBy(el) {
    const r = rectOf(el);
    const x = r.left + r.width / 2;
    const y = r.top + r.height / 2;
    if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) return false;
    let hit = document.elementFromPoint(x, y);
    const m = globalThis.__cdpmcp;
    const rootOf = (e) => (m ? m.shadowOf(e) : e.shadowRoot);
    for (let sr = hit && rootOf(hit); sr; sr = rootOf(hit)) {
      const inner = sr.elementFromPoint(x, y);
      if (!inner || inner === hit) break;
      hit = inner;
    }
    if (!hit) return false;
    for (let n = hit; n; n = n.parentNode || n.host) if (n === el) return false;
    for (let n = el; n; n = n.parentNode || n.host) if (n === hit) return false; // hit an ancestor: pointer-events or padding
    // A label that points at this control passes clicks to it.
    if (hit.localName === 'label' && hit.control === el) return false;
    return true;
  }

  function isDataTable(t) {
    if (role(t) === 'presentation' || role(t) === 'none') return false;
    if (t.querySelector('table')) return false;
    return !t.querySelector('td > div > div, td p, td ul, td ol, td h1, td h2, td h3, th p');
  }

  return { NAME_MAX, fold, cut, esc, role, interactive, hasInteractiveInside, textOf, labelText, line, isDataTable, rectOf, caching };
}
