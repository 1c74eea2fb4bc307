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
//
// With {groups: true} it also says which lines are the page's main text and
// which are chrome (menus, footers, link lists) or long lists, each with the ref
// of its container, so the caller can summarise them (see reading.js).
function install() {
  if (globalThis.__cdpmcp) return 'ready';
  const refOf = new WeakMap();
  const byRef = new Map();
  const h = lineHelpers();
  const rd = readingHelpers(h);
  const { fold, cut, esc, line } = h;

  const SKIP = new Set(['script', 'style', 'noscript', 'template', 'head', 'meta', 'link', 'title', 'math',
    'canvas', 'video', 'audio', 'object', 'embed', 'datalist', 'option', 'optgroup', 'map', 'slot-fallback']);
  const INLINE = new Set(['inline', 'inline-block', 'inline-flex', 'inline-grid', 'inline-table', 'contents', 'ruby']);
  // How many levels below a clipping box (overflow hidden) boxes are checked for
  // lying outside it, as the slides of a carousel do.
  const CLIP_DEPTH = 4;

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

  // snapshot walks the flat tree under the scope (default: the body). Text and
  // links in running text build up the current line; a block boundary ends it.
  // A line holding only elements becomes one line per element; an interactive
  // element other than a link always gets a line of its own.
  function snapshot(opts) {
    const st = { last: opts.base | 0, chars: 0, linkChars: 0, elems: 0, h1: 0 };
    const out = [];
    const frames = [];
    let root = document.body || document.documentElement;
    if (opts.scope) root = opts.scope;
    const whole = root === document.body || root === document.documentElement;
    // What each block emitted (opts.groups only), so that the running text
    // can be found and its lines told from chrome and long lists once the walk
    // is done (see reading.js).
    const blocks = opts.groups ? rd.tracker(st, root) : null;
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
        if (t && t !== lastText) {
          out.push('_[:]' + t);
          if (blocks) blocks.prose(segs);
        }
        lastText = t;
      } else {
        for (const g of segs) if (g.e) out.push(g.e);
      }
      segs = [];
    };

    // emit counts an element line for the groups' link density.
    function emit(l) {
      const n = l.length - l.indexOf('>') - 1;
      st.elems++;
      st.linkChars += n;
      st.chars += n;
      return l;
    }

    function element(el, cx) {
      const tag = el.localName;
      if (SKIP.has(tag)) return;
      const style = getComputedStyle(el);
      const display = style.display;
      if (display === 'none' || style.opacity === '0' || el.getAttribute('hidden') === 'until-found') return;
      const vis = style.visibility;
      const hidden = vis === 'hidden' || vis === 'collapse' ? true : vis === 'visible' ? false : cx.hidden;
      let clip = cx.clip;
      if (display !== 'contents') {
        // Collapsed or clipped-away boxes (screen-reader-only text, closed
        // panels) show nothing; measuring every box would be slow, so only the
        // ones that can hide their content are measured.
        const pos = style.position;
        const ov = style.overflow; // "hidden", or "hidden visible" when x and y differ
        if ((ov === 'hidden' || ov === 'clip' || pos === 'absolute' || pos === 'fixed') && !h.visibleBox(el)) return;
        if (clip) {
          // A box wholly beside the clipping box it sits in (a carousel's other
          // slides) is not seen.
          const r = el.getBoundingClientRect();
          if (r.width > 0 && (r.right <= clip.l + 1 || r.left >= clip.r - 1)) return;
          clip = clip.d < CLIP_DEPTH ? { l: clip.l, r: clip.r, d: clip.d + 1 } : null;
        }
        if (ov !== 'visible' && (ov.startsWith('hidden') || ov.startsWith('clip'))) {
          const r = el.getBoundingClientRect();
          clip = { l: r.left, r: r.right, d: 0 };
        }
      }
      if (clip !== cx.clip) cx = { ...cx, clip };
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
      if (tag === 'svg') {
        // Charts and diagrams say things in <text>; icons have none.
        if (!hidden) for (const t of el.querySelectorAll('text')) text(' ' + t.textContent + ' ', cx);
        return;
      }
      const kind = hidden ? '' : h.interactive(el, style);
      if (kind && (kind === 'native' || (!h.hasInteractiveInside(el) && h.textOf(el).length <= h.NAME_MAX))) {
        const ref = assign(el, st);
        const inline = cx.cellText || (tag === 'a' && !block);
        const l = emit(line(el, ref, !!cx.cellText, el === root));
        if (cx.cellText) cx.cellText.push(l);
        else if (cx.cell) cx.cell.push(l);
        else if (inline) segs.push({ e: l });
        else { flush(); out.push(l); }
        if (kind === 'native' && tag !== 'select' && h.hasInteractiveInside(el)) {
          // Elements inside another one: keep those that say something new.
          const name = l.slice(l.indexOf('>') + 1, l.lastIndexOf('</'));
          const inner = [];
          walk(el, { hidden, noText: true, cell: inner, cellText: null, clip: cx.clip });
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
      if (tag === 'details' && !el.open) {
        // Closed: a person sees its summary only.
        const s = Array.from(children(el)).find((c) => c.localName === 'summary');
        if (!inCell) flush();
        if (s) element(s, sub(cx, hidden, cx.noText));
        if (!inCell) flush();
        return;
      }
      if (tag === 'table' && !inCell && h.isDataTable(el)) {
        flush();
        const b = blocks && blocks.enter(el, out.length);
        table(el, hidden, cx);
        if (b) blocks.leave(b, out.length);
        return;
      }
      const hd = /^h([1-6])$/.exec(tag);
      if ((hd || block) && !inCell) flush();
      if (hd && !hidden && !inCell && !cx.noText) {
        walk(el, sub(cx, hidden, cx.noText));
        if (segs.length && segs.every((g) => g.t !== undefined)) {
          const t = fold(segs.map((g) => g.t).join('')).trim();
          segs = [];
          if (t) {
            out.push('_[:]' + '#'.repeat(+hd[1]) + ' ' + t);
            lastText = t;
            if (hd[1] === '1') st.h1++;
          }
        }
        flush();
        return;
      }
      const b = block && !inCell && blocks ? blocks.enter(el, out.length) : null;
      walk(el, sub(cx, hidden, cx.noText));
      if (block && !inCell) flush();
      else if (block && inCell) text(' ', cx);
      if (b) blocks.leave(b, out.length);
    }

    function text(s, cx) {
      if (cx.noText || cx.hidden) return;
      st.chars += s.trim().length;
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
      return { hidden, noText, cell: cx.cell, cellText: cx.cellText, clip: cx.clip };
    }

    function table(t, hidden, cx0) {
      if (t.caption) {
        element(t.caption, { hidden, noText: false, cell: null, cellText: null, clip: cx0.clip });
        flush();
      }
      for (const row of t.rows) {
        const rs = getComputedStyle(row);
        if (rs.display === 'none' || rs.visibility === 'hidden') continue;
        // A row is one line: its cells, elements included, joined by " | ".
        const cells = [];
        for (const cell of row.cells) {
          const cx = { hidden, noText: false, cell: null, cellText: [], clip: null };
          walk(cell, cx);
          cells.push(fold(cx.cellText.join('')).trim());
        }
        while (cells.length && !cells[cells.length - 1]) cells.pop();
        if (!cells.some((c) => c)) continue;
        const l = cells.join(' | ');
        out.push(/^\d+\[:\]</.test(l) && cells.length === 1 ? l : '_[:]' + l);
        if (blocks) blocks.text(l.length);
      }
      lastText = '';
    }

    if (root) {
      const cx = { hidden: false, noText: false, cell: null, cellText: null, clip: null };
      if (whole || root.nodeType !== 1) walk(root, cx);
      else element(root, cx);
    }
    flush();
    const groups = [];
    let main = null;
    if (blocks) {
      const found = blocks.classify(whole);
      for (const g of found.groups) groups.push({ from: g.from, to: g.to, ref: assign(g.el, st), kind: g.kind });
      main = found.main;
    }
    const se = document.scrollingElement || document.documentElement;
    const scroll = { above: Math.round(se.scrollTop), below: Math.max(0, Math.round(se.scrollHeight - se.clientHeight - se.scrollTop)) };
    return { lines: out, frames, groups, main, last: st.last, scroll, title: document.title };
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
