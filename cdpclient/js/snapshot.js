// The page model. This file is evaluated once per document in cdpmcp's isolated
// world and installs globalThis.__cdpmcp. Page scripts cannot see or change it.
//
// snapshot() walks the rendered (flat) tree, shadow roots included, and returns the
// page as lines in seed 000's format:
//   12[:]<button>Sign in</button>     an element a user can act on; 12 is its ref
//   _[:]Some text                      context
// Refs are kept per element in a WeakMap, so an element keeps its number for as
// long as it lives; new numbers continue from the base the caller passes, so a
// number is never reused within a page.
function install() {
  if (globalThis.__cdpmcp) return 'ready';
  const refOf = new WeakMap();
  const byRef = new Map();

  const SKIP = new Set(['script', 'style', 'noscript', 'template', 'head', 'meta', 'link', 'title', 'svg', 'math',
    'canvas', 'video', 'audio', 'object', 'embed', 'datalist', 'option', 'optgroup', 'map', 'slot-fallback']);
  const ROLES = new Set(['button', 'link', 'checkbox', 'radio', 'switch', 'tab', 'menuitem', 'menuitemcheckbox',
    'menuitemradio', 'option', 'combobox', 'textbox', 'searchbox', 'slider', 'spinbutton', 'treeitem']);
  const GENERIC = /^(more|read more|here|click here|link|details|view|open|go|learn more|see more|continue|this)$/i;
  const INLINE = new Set(['inline', 'inline-block', 'inline-flex', 'inline-grid', 'inline-table', 'contents', 'ruby']);
  const NAME_MAX = 100;
  const VALUE_MAX = 60;

  const fold = (s) => s.replace(/[\s\u200b]+/g, ' ');
  const cut = (s, n) => (s.length > n ? s.slice(0, n - 1) + '…' : s);
  const esc = (s) => s.replace(/>/g, '&gt;').replace(/\n/g, ' ');
  const quote = (v) => (/^[\w./:#@%+,-]+$/.test(v) && v.length > 0 ? v : '"' + esc(v).replace(/"/g, "'") + '"');

  function assign(el, st) {
    let r = refOf.get(el);
    if (r === undefined) {
      r = ++st.last;
      refOf.set(el, r);
      byRef.set(r, new WeakRef(el));
    }
    return r;
  }

  function get(ref) {
    const w = byRef.get(ref);
    const el = w && w.deref();
    return el && el.isConnected ? el : null;
  }

  // children of the flat tree: a shadow host shows its shadow root, a slot shows
  // what is assigned to it (or its fallback content).
  function children(node) {
    if (node.nodeType === 1) {
      if (node.shadowRoot) return node.shadowRoot.childNodes;
      if (node.localName === 'slot') {
        const a = node.assignedNodes({ flatten: true });
        return a.length ? a : node.childNodes;
      }
    }
    return node.childNodes;
  }

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
      case 'label': return '';
    }
    if (el.isContentEditable && (!el.parentElement || !el.parentElement.isContentEditable)) return 'native';
    if (ROLES.has(role(el))) return 'native';
    if (el.hasAttribute('onclick') || (el.hasAttribute('tabindex') && el.tabIndex >= 0)) return 'custom';
    if (style.cursor === 'pointer') {
      const p = el.parentElement;
      if (!p || getComputedStyle(p).cursor !== 'pointer') return 'custom';
    }
    return '';
  }

  function hasInteractiveInside(el) {
    return !!el.querySelector('a[href],button,input:not([type=hidden]),select,textarea,[role=button],[role=link],[contenteditable=""],[contenteditable=true]');
  }

  function visibleBox(el) {
    const r = el.getBoundingClientRect();
    return r.width > 1 && r.height > 1;
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

  // line renders one interactive element: 12[:]<tag attrs>name</tag>.
  function line(el, ref, inText) {
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
      const opts = Array.from(el.options).map((o) => fold(o.label).trim());
      const shown = opts.slice(0, 8).join(',');
      attrs.push('options=' + quote(opts.length > 8 ? shown + ',…+' + (opts.length - 8) : shown));
      if (el.multiple) attrs.push('multiple');
    } else if (tag === 'a' || tag === 'area') {
      const href = el.getAttribute('href') || '';
      if (href && !href.startsWith('javascript:') && href !== '#' && (!name || (!inText && GENERIC.test(name)))) {
        attrs.push('href=' + quote(cut(relative(el.href || href), 80)));
      }
      if (!name) name = cut(relative(el.href || href), NAME_MAX);
    } else if (el.isContentEditable) {
      attrs.push('contenteditable');
    } else if (tag !== 'button' && tag !== 'summary' && !r) {
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
    const covered = coveredBy(el);
    if (covered) attrs.push('covered');
    return ref + '[:]<' + tag + (attrs.length ? ' ' + attrs.join(' ') : '') + '>' + esc(name) + '</' + tag + '>';
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

  // coveredBy reports whether another element would receive a click at el's centre
  // (only checked inside the viewport, where the answer is known).
  function coveredBy(el) {
    const r = el.getBoundingClientRect();
    const x = r.left + r.width / 2;
    const y = r.top + r.height / 2;
    if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) return false;
    let hit = document.elementFromPoint(x, y);
    while (hit && hit.shadowRoot) {
      const inner = hit.shadowRoot.elementFromPoint(x, y);
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

  // snapshot walks the flat tree under the scope (default: the body). Text and
  // links in running text build up the current line; a block boundary ends it.
  // A line holding only elements becomes one line per element; an interactive
  // element other than a link always gets a line of its own.
  function snapshot(opts) {
    const st = { last: opts.base | 0 };
    const out = [];
    const frames = [];
    let segs = []; // {t: text} or {e: element line}
    let lastText = '';
    const flush = () => {
      if (!segs.length) return;
      const hasText = segs.some((g) => g.t !== undefined && /\S/.test(g.t));
      if (hasText) {
        let joined = '';
        for (const g of segs) {
          // A ref must not run into the text before it ("2017" + "12[:]<a>").
          if (g.e !== undefined && /[\p{L}\p{N}]$/u.test(joined)) joined += ' ';
          joined += g.t !== undefined ? g.t : g.e;
        }
        const t = fold(joined).trim();
        if (t && t !== lastText) out.push('_[:]' + t);
        lastText = t;
      } else {
        for (const g of segs) if (g.e) out.push(g.e);
      }
      segs = [];
    };

    function element(el, cx) {
      const tag = el.localName;
      if (SKIP.has(tag)) return;
      const style = getComputedStyle(el);
      const display = style.display;
      if (display === 'none' || style.opacity === '0') return;
      const vis = style.visibility;
      const hidden = vis === 'hidden' || vis === 'collapse' ? true : vis === 'visible' ? false : cx.hidden;
      if (display !== 'contents') {
        // Collapsed or clipped-away boxes (screen-reader-only text, closed
        // panels) show nothing; measuring every box would be slow, so only the
        // ones that can hide their content are measured.
        const pos = style.position;
        const ov = style.overflow;
        if ((ov === 'hidden' || ov === 'clip' || pos === 'absolute' || pos === 'fixed') && !visibleBox(el)) return;
      }
      const block = !INLINE.has(display);
      if (tag === 'iframe' || tag === 'frame') {
        if (hidden) return;
        flush();
        const ref = assign(el, st);
        frames.push({ ref, at: out.length });
        const title = el.title || el.name || '';
        out.push('_[:]iframe' + (title ? ' "' + esc(fold(title)) + '"' : '') + ':');
        return;
      }
      if (tag === 'br') { text(' ', cx); return; }
      if (tag === 'img') {
        if (!hidden && el.alt && el.width >= 100 && el.height >= 60) text(' [image: ' + fold(el.alt).trim() + '] ', cx);
        return;
      }
      const kind = hidden ? '' : interactive(el, style);
      if (kind && (kind === 'native' || (!hasInteractiveInside(el) && textOf(el).length <= NAME_MAX))) {
        const ref = assign(el, st);
        const inline = cx.cellText || (tag === 'a' && !block);
        const l = line(el, ref, !!cx.cellText);
        if (cx.cellText) cx.cellText.push(l);
        else if (cx.cell) cx.cell.push(l);
        else if (inline) segs.push({ e: l });
        else { flush(); out.push(l); }
        if (kind === 'native' && tag !== 'select' && hasInteractiveInside(el)) {
          // Elements inside another one: keep those that say something new.
          const name = l.slice(l.indexOf('>') + 1, l.lastIndexOf('</'));
          const inner = [];
          walk(el, { hidden, noText: true, cell: inner, cellText: null });
          for (const i of inner) {
            if (i.includes('>' + name + '</')) continue;
            if (cx.cellText) cx.cellText.push(' ' + i);
            else (cx.cell || out).push(i);
          }
        }
        return;
      }
      if (tag === 'label' && el.control && el.control.isConnected) {
        // Its text names the control; walk it only for the elements it holds.
        walk(el, sub(cx, hidden, true));
        return;
      }
      const inCell = !!(cx.cell || cx.cellText);
      if (tag === 'table' && !inCell && isDataTable(el)) {
        flush();
        table(el, hidden);
        return;
      }
      const h = /^h([1-6])$/.exec(tag);
      if ((h || block) && !inCell) flush();
      if (h && !hidden && !inCell && !cx.noText) {
        walk(el, sub(cx, hidden, cx.noText));
        if (segs.length && segs.every((g) => g.t !== undefined)) {
          const t = fold(segs.map((g) => g.t).join('')).trim();
          segs = [];
          if (t) { out.push('_[:]' + '#'.repeat(+h[1]) + ' ' + t); lastText = t; }
        }
        flush();
        return;
      }
      walk(el, sub(cx, hidden, cx.noText));
      if (block && !inCell) flush();
      else if (block && inCell) text(' ', cx);
    }

    function text(s, cx) {
      if (cx.noText || cx.hidden) return;
      if (cx.cellText) cx.cellText.push(s);
      else segs.push({ t: s });
    }

    function visit(c, cx) {
      const t = c.nodeType;
      if (t === 3) text(c.data, cx);
      else if (t === 1) element(c, cx);
    }

    function walk(node, cx) {
      if (node.nodeType === 1 && (node.shadowRoot || node.localName === 'slot')) {
        for (const c of children(node)) visit(c, cx);
        return;
      }
      for (let c = node.firstChild; c; c = c.nextSibling) visit(c, cx);
    }

    // sub returns cx with hidden (and noText) changed, reusing cx when nothing does.
    function sub(cx, hidden, noText) {
      if (cx.hidden === hidden && cx.noText === noText) return cx;
      return { hidden, noText, cell: cx.cell, cellText: cx.cellText };
    }

    function table(t, hidden) {
      if (t.caption) {
        element(t.caption, { hidden, noText: false, cell: null, cellText: null });
        flush();
      }
      for (const row of t.rows) {
        const rs = getComputedStyle(row);
        if (rs.display === 'none' || rs.visibility === 'hidden') continue;
        // A row is one line: its cells, elements included, joined by " | ".
        const cells = [];
        for (const cell of row.cells) {
          const cx = { hidden, noText: false, cell: null, cellText: [] };
          walk(cell, cx);
          cells.push(fold(cx.cellText.join('')).trim());
        }
        while (cells.length && !cells[cells.length - 1]) cells.pop();
        if (!cells.some((c) => c)) continue;
        const l = cells.join(' | ');
        out.push(/^\d+\[:\]</.test(l) && cells.length === 1 ? l : '_[:]' + l);
      }
      lastText = '';
    }

    let root = document.body || document.documentElement;
    if (opts.scope) root = opts.scope;
    if (root) {
      const cx = { hidden: false, noText: false, cell: null };
      if (root === document.body || root === document.documentElement || root.nodeType !== 1) walk(root, cx);
      else element(root, cx);
    }
    flush();
    const se = document.scrollingElement || document.documentElement;
    const scroll = { above: Math.round(se.scrollTop), below: Math.max(0, Math.round(se.scrollHeight - se.clientHeight - se.scrollTop)) };
    return { lines: out, frames, last: st.last, scroll, title: document.title };
  }

  // boxes returns the viewport boxes of the visible refs this frame knows, for
  // annotated screenshots: [ref, x, y, width, height]; with all, also those
  // outside the viewport.
  function boxes(all) {
    const out = [];
    for (const ref of byRef.keys()) {
      const el = get(ref);
      if (!el) continue;
      const r = el.getBoundingClientRect();
      if (r.width < 1 || r.height < 1) continue;
      if (!all && (r.bottom < 0 || r.right < 0 || r.top > innerHeight || r.left > innerWidth)) continue;
      out.push([ref, Math.round(r.left), Math.round(r.top), Math.round(r.width), Math.round(r.height)]);
    }
    return out;
  }

  globalThis.__cdpmcp = {
    snapshot, get, boxes, query,
    refOf: (el) => refOf.get(el),
    // known lists the live elements that have refs.
    known: () => { const out = []; for (const r of byRef.keys()) { const el = get(r); if (el) out.push(el); } return out; },
    // for watch.js
    assign: (el, st) => assign(el, st),
    line: (el, ref) => line(el, ref, false),
    fold, cut,
  };
  return 'installed';
}
