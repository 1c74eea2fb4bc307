// The page model's walk (see snapshot.js): the rendered (flat) tree under the
// scope, shadow roots included, as lines in seed 000's format. Text and links in
// running text build up the current line; a block boundary ends it. A line
// holding only elements becomes one line per element; an interactive element
// other than a link always gets a line of its own; headings and targets
// (targets.js) carry refs.
// walker(h, rd, tg, refs) returns walk(opts, st, w), a generator: it yields
// when st.sliceEnd (performance.now() ms) has passed, so that its caller can let
// the page run between slices, and returns the result once done. It writes the
// lines to w.out, the element each line comes from to w.at and the frames'
// marker lines to w.frames as it goes, so a walk stopped early still has them.
function walker(h, rd, tg, refs) {
  const { fold, esc, line } = h;
  const { assign, children, closed } = refs;
  const SKIP = new Set(['script', 'style', 'noscript', 'template', 'head', 'meta', 'link', 'title', 'math',
    'canvas', 'video', 'audio', 'object', 'embed', 'datalist', 'option', 'optgroup', 'map', 'slot-fallback']);
  const INLINE = new Set(['inline', 'inline-block', 'inline-flex', 'inline-grid', 'inline-table', 'contents', 'ruby']);
  const { seen } = shownRules();
  // Elements between two looks at the clock.
  const TICK = 64;

  return function* walk(opts, st, w) {
    const { out, at, frames } = w;
    let root = document.body || document.documentElement;
    if (opts.scope) root = opts.scope;
    const whole = root === document.body || root === document.documentElement;
    // What each block emitted (opts.groups only), so that the running text
    // can be found and its lines told from chrome and long lists once the walk
    // is done (see reading.js).
    const blocks = opts.groups ? rd.tracker(st, root) : null;
    const owners = new Map(); // heading → the ref of the target it names
    let segs = []; // {t: text} or {e: element line, el}
    let lastText = '';
    let block = root; // the block the current text belongs to
    let within = null; // the target the walk is in
    const push = (l, el) => { out.push(l); at.push(el); };
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
          push('_[:]' + t, block);
          if (blocks) blocks.prose(segs);
        }
        lastText = t;
      } else {
        for (const g of segs) if (g.e) push(g.e, g.el);
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

    function* element(el, cx) {
      const tag = el.localName;
      if (SKIP.has(tag)) return;
      if (++st.n % TICK === 0 && performance.now() > st.sliceEnd) yield;
      const style = getComputedStyle(el);
      const display = style.display;
      // What a person sees of it: the rule getContent reads by too (shown.js).
      const shown = seen(el, style, cx.hidden, cx.clip, display);
      if (!shown) return;
      const hidden = shown.hidden;
      if (!hidden && closed.mayHost(el)) st.hosts.push(el);
      if (shown.clip !== cx.clip) cx = { ...cx, clip: shown.clip };
      const isBlock = !INLINE.has(display);
      if (tag === 'iframe' || tag === 'frame') {
        if (hidden) return;
        flush();
        const ref = assign(el, st);
        frames.push({ ref, at: out.length });
        const title = el.title || el.name || '';
        push('_[:]iframe' + (title ? ' "' + esc(fold(title)) + '"' : '') + ':', el);
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
        const inline = cx.cellText || (tag === 'a' && !isBlock);
        const l = emit(line(el, ref, !!cx.cellText, el === root));
        if (cx.cellText) cx.cellText.push(l);
        else if (cx.cell) cx.cell.push(l);
        else if (inline) segs.push({ e: l, el });
        else { flush(); push(l, el); }
        if (kind === 'native' && tag !== 'select' && h.hasInteractiveInside(el)) {
          // Elements inside another one: keep those that say something new.
          const name = l.slice(l.indexOf('>') + 1, l.lastIndexOf('</'));
          const inner = [];
          yield* walk(el, { hidden, noText: true, cell: inner, cellText: null, clip: cx.clip });
          for (const i of inner) {
            if (i.includes('>' + name + '</')) continue;
            if (cx.cellText) cx.cellText.push(' ' + i);
            else if (cx.cell) cx.cell.push(i);
            else push(i, el);
          }
        }
        return;
      }
      if (tag === 'label' && el.control && el.control.isConnected) {
        // Its text names the control; walk it only for the elements it holds.
        yield* walk(el, sub(cx, hidden, true));
        return;
      }
      const inCell = !!(cx.cell || cx.cellText);
      if (tag === 'details' && !el.open) {
        // Closed: a person sees its summary only.
        const s = Array.from(children(el)).find((c) => c.localName === 'summary');
        if (!inCell) flush();
        if (s) yield* element(s, sub(cx, hidden, cx.noText));
        if (!inCell) flush();
        return;
      }
      const hd = /^h([1-6])$/.exec(tag);
      if ((hd || isBlock) && !inCell) flush();
      const tgt = isBlock && !hidden && !inCell && !cx.noText && !hd ? tg.target(el, tag, within) : null;
      if (tgt && tgt.whole) {
        push(emit(assign(el, st) + '[:]<' + tag + ' ' + tgt.attrs.join(' ') + '>' + esc(tgt.name) + '</' + tag + '>'), el);
        return;
      }
      if (tag === 'table' && !inCell && h.isDataTable(el)) {
        const b = blocks && blocks.enter(el, out.length);
        if (tgt) target(el, tag, tgt);
        yield* table(el, hidden, cx);
        if (b) blocks.leave(b, out.length);
        return;
      }
      if (hd && !hidden && !inCell && !cx.noText) {
        const outer = block;
        block = el;
        yield* walk(el, sub(cx, hidden, cx.noText));
        if (segs.length && segs.every((g) => g.t !== undefined)) {
          const t = fold(segs.map((g) => g.t).join('')).trim();
          segs = [];
          if (t) {
            push((owners.get(el) || assign(el, st)) + '[:]' + '#'.repeat(+hd[1]) + ' ' + t, el);
            lastText = t;
            if (hd[1] === '1') st.h1++;
          }
        }
        flush();
        block = outer;
        return;
      }
      const b = isBlock && !inCell && blocks ? blocks.enter(el, out.length) : null;
      const [outer, outerTarget] = [block, within];
      if (tgt) {
        target(el, tag, tgt);
        within = el;
      }
      if (isBlock && !inCell) block = el;
      yield* walk(el, sub(cx, hidden, cx.noText));
      if (isBlock && !inCell) flush();
      else if (isBlock && inCell) text(' ', cx);
      [block, within] = [outer, outerTarget];
      if (b) blocks.leave(b, out.length);
    }

    // target gives a target container its ref: on the line of the heading that
    // names it, or on a line of its own.
    function target(el, tag, t) {
      const ref = assign(el, st);
      if (t.heading) { owners.set(t.heading, ref); return; }
      push(ref + '[:]<' + tag + (t.attrs.length ? ' ' + t.attrs.join(' ') : '') + '>' + esc(t.name) + '</' + tag + '>', el);
    }

    function text(s, cx) {
      if (cx.noText || cx.hidden) return;
      st.chars += s.trim().length;
      if (cx.cellText) cx.cellText.push(s);
      else segs.push({ t: s });
    }

    function* walk(node, cx) {
      const kids = node.nodeType === 1 && (closed.shadowOf(node) || node.localName === 'slot') ? children(node) : null;
      if (kids) {
        for (const c of kids) {
          if (c.nodeType === 3) text(c.data, cx);
          else if (c.nodeType === 1) yield* element(c, cx);
        }
        return;
      }
      for (let c = node.firstChild; c; c = c.nextSibling) {
        if (c.nodeType === 3) text(c.data, cx);
        else if (c.nodeType === 1) yield* element(c, cx);
      }
    }

    // sub returns cx with hidden (and noText) changed, reusing cx when nothing does.
    function sub(cx, hidden, noText) {
      if (cx.hidden === hidden && cx.noText === noText) return cx;
      return { hidden, noText, cell: cx.cell, cellText: cx.cellText, clip: cx.clip };
    }

    function* table(t, hidden, cx0) {
      if (t.caption) {
        yield* element(t.caption, { hidden, noText: false, cell: null, cellText: null, clip: cx0.clip });
        flush();
      }
      for (const row of t.rows) {
        const rs = getComputedStyle(row);
        if (rs.display === 'none' || rs.visibility === 'hidden') continue;
        // A row is one line: its cells, elements included, joined by " | ".
        const cells = [];
        for (const cell of row.cells) {
          const cx = { hidden, noText: false, cell: null, cellText: [], clip: null };
          yield* walk(cell, cx);
          cells.push(fold(cx.cellText.join('')).trim());
        }
        while (cells.length && !cells[cells.length - 1]) cells.pop();
        if (!cells.some((c) => c)) continue;
        const l = cells.join(' | ');
        push(/^\d+\[:\]</.test(l) && cells.length === 1 ? l : '_[:]' + l, row);
        if (blocks) blocks.text(l.length);
      }
      lastText = '';
    }

    if (root) {
      const cx = { hidden: false, noText: false, cell: null, cellText: null, clip: null };
      if (whole || root.nodeType !== 1) yield* walk(root, cx);
      else yield* element(root, cx);
    }
    flush();
    const groups = [];
    let main = null;
    if (blocks) {
      const found = blocks.classify(whole);
      for (const g of found.groups) groups.push({ from: g.from, to: g.to, ref: assign(g.el, st), kind: g.kind });
      main = found.main;
    }
    return { groups, main };
  };
}
