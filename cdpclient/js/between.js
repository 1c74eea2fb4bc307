// What the page does on its own between the answers about it. installBetween
// adds to globalThis.__cdpmcp (see snapshot.js, watch.js):
//   betweenStart()        keep the DOM's changes from now (an action's changes()
//                         were just taken) until betweenTake
//   betweenTake()         stop, and hand over what they left on the page as the
//                         next action begins (its watch()): text changed,
//                         elements added, text that came and went (a toast)
//   beforeChanges(t, st)  that, keyed by ref as an action's changes (its
//                         changes() asks, refs continuing from st.last)
//   ticking(el)           whether el's text changed TICKS times or more on its
//                         own (between answers) in the last TICK_MS: a clock, a
//                         ticker, a live counter. It is left out of before, and
//                         out of the next action's changes too.
function installBetween() {
  const m = globalThis.__cdpmcp;
  if (!m || m.betweenStart) return;
  // MAX_RECORDS bounds what a page that never stops changing costs.
  const MAX_RECORDS = 400;
  // TICKS changes of one element's text within TICK_MS make it a clock.
  const TICKS = 3;
  const TICK_MS = 10000; // a carousel turning every 5 s is one too
  const { holderOf, inside, visible, addedLines } = watchParts(m);
  let b = null;
  const tickTimes = new WeakMap(); // element → when its text changed on its own, the last TICKS

  function tick(el) {
    const times = tickTimes.get(el) || [];
    times.push(performance.now());
    if (times.length > TICKS) times.shift();
    tickTimes.set(el, times);
  }

  function hasText(nodes) {
    for (let i = 0; i < nodes.length; i++) if (nodes[i].nodeType === 3) return true;
    return false;
  }

  function ticking(el) {
    const times = el && tickTimes.get(el);
    return !!times && times.length >= TICKS && performance.now() - times[0] <= TICK_MS;
  }

  // betweenStart keeps the changes from now (keep), or, before the page was
  // ever answered about (a document still loading), only tells its clocks.
  function betweenStart(keep) {
    if (b) b.obs.disconnect();
    const st = { records: [], flash: [], keep: keep !== false };
    st.obs = new MutationObserver((recs) => {
      for (const r of recs) {
        if (r.type === 'attributes') continue;
        const el = r.type === 'characterData' ? r.target.parentNode : r.target;
        // Without allocating: a page that adds thousands of nodes calls this
        // for each of them.
        const text = r.type === 'characterData' || hasText(r.addedNodes) || hasText(r.removedNodes);
        if (el && text) tick(el);
        // A clock's records would fill the bound in a minute, and say nothing.
        if (!st.keep || text && ticking(el)) continue;
        if (st.records.length < MAX_RECORDS) st.records.push(r);
        if (r.type === 'childList') {
          for (const n of r.addedNodes) {
            if (n.nodeType === 1 && st.flash.length < 5) {
              const t = m.fold(n.textContent || '').trim();
              if (t && t.length <= 200) st.flash.push([n, t]);
            }
          }
        }
      }
    });
    st.obs.observe(document, { subtree: true, childList: true, characterData: true, characterDataOldValue: true });
    b = st;
  }

  function betweenTake() {
    if (!b) return null;
    b.obs.disconnect();
    for (const r of b.obs.takeRecords()) if (r.type !== 'attributes' && b.records.length < MAX_RECORDS) b.records.push(r);
    const t = b;
    b = null;
    return t.keep ? settle(t) : null;
  }

  // settle reads, as the action begins, what the changes left on the page:
  // the text of the blocks whose text changed (the action may change them
  // again), the outermost added elements that show, the toasts gone.
  function settle(t) {
    const added = new Set();
    const textBlocks = new Set();
    const wasText = new Map();
    for (const r of t.records) {
      const el = r.type === 'characterData' ? r.target.parentNode : r.target;
      if (!el || ticking(el)) continue;
      if (r.type === 'characterData') {
        if (!wasText.has(el)) wasText.set(el, el.childNodes.length === 1 ? r.oldValue : null);
        textBlocks.add(el);
        continue;
      }
      if (!wasText.has(el)) {
        const whole = !r.previousSibling && !r.nextSibling && [...r.removedNodes].every((n) => n.nodeType === 3);
        wasText.set(el, whole ? [...r.removedNodes].map((n) => n.data).join('') : null);
      }
      for (const n of r.addedNodes) {
        if (n.nodeType === 1) added.add(n);
        else if (n.nodeType === 3) textBlocks.add(el);
      }
      for (const n of r.removedNodes) if (n.nodeType === 3) textBlocks.add(el);
    }
    t.roots = [...added].filter((n) => n.isConnected && !inside(n.parentNode, added) && visible(n) && /\S/.test(n.innerText || ''));
    const addedSet = new Set(t.roots);
    const blocks = new Set();
    for (const n of textBlocks) {
      if (!n.isConnected || inside(n, addedSet)) continue;
      const h = holderOf(n);
      if (h && visible(h) && !ticking(h)) blocks.add(h);
    }
    t.texts = [];
    for (const h of blocks) {
      let skip = false;
      for (const o of blocks) if (o !== h && o.contains(h)) { skip = true; break; }
      if (skip) continue;
      const text = m.fold(h.innerText || h.textContent || '').trim();
      const was = wasText.get(h);
      if (!text || was != null && m.fold(was).trim() === text) continue;
      t.texts.push([h, m.cut(text, 100)]);
    }
    t.flashed = t.flash.filter(([n]) => !n.isConnected).map(([, text]) => m.cut(text, 100));
    t.records = null;
    return t;
  }

  // beforeChanges hands out the refs of what settle found (the action's
  // changes() does, refs continuing from st.last).
  function beforeChanges(t, st) {
    const out = { text: [], added: [], flash: t.flashed, more: 0 };
    addedLines(t.roots, st, out);
    for (const [h, text] of t.texts) out.text.push([String(m.assign(h, st)), text]);
    const cap = (arr, n) => { if (arr.length > n) { out.more += arr.length - n; arr.length = n; } };
    cap(out.added, 4);
    cap(out.text, 3);
    cap(out.flash, 2);
    return out;
  }

  m.betweenStart = betweenStart;
  m.betweenTake = betweenTake;
  m.beforeChanges = beforeChanges;
  m.ticking = ticking;
  // From the page's load on, its clocks are told; what changed is kept from
  // the first answer on (the page loading is no news). Not while the parser
  // builds the page: each node it adds would be a record to look at (25 ms
  // of the renderer for the bench's 1,000-item page).
  if (document.readyState === 'complete') betweenStart(false);
  else window.addEventListener('load', () => { if (!b) betweenStart(false); }, { once: true });
}
