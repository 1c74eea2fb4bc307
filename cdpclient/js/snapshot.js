// The page model. This file is evaluated once per document in cdpmcp's isolated
// world and installs globalThis.__cdpmcp. Page scripts cannot see or change it.
//
// snapshot() walks the rendered (flat) tree, shadow roots included (walk.js),
// and returns the page as lines in seed 000's format:
//   12[:]<button>Sign in</button>     an element a user can act on; 12 is its ref
//   14[:]## Done                       a heading (or the section it names), a target
//   _[:]Some text                      context
// Refs are kept per element in a WeakMap, so an element keeps its number for as
// long as it lives; new numbers continue from the base the caller passes, so a
// number is never reused within a page.
//
// With {groups: true} it also says which lines are the page's main text and
// which are chrome (menus, footers, link lists) or long lists, each with the ref
// of its container, so the caller can summarise them (see reading.js); with
// {view: true}, which lines are on screen (view.js); with {boxes: true}, the
// viewport boxes of the elements it gave refs to (an annotated screenshot
// draws them, measured by the walk rather than a second pass).
//
// snapshotSliced() is the same walk in slices: between them the page runs, so
// it keeps answering however large it is; past its deadline it returns the
// lines read so far (partial) and keeps the walk for {resume: true}.
function install() {
  if (globalThis.__cdpmcp) return 'ready';
  const refOf = new WeakMap();
  const byRef = new Map();
  const h = lineHelpers();
  const rd = readingHelpers(h);
  const tg = targetHelpers(h);
  const vw = viewHelpers(h);
  const { fold, cut, line } = h;
  // How long one slice of a sliced walk runs before the page gets its turn.
  const SLICE_MS = 50;
  let pending = null; // a sliced walk stopped at its deadline
  const closed = closedRoots();

  function assign(el, st) {
    let r = refOf.get(el);
    if (r === undefined) {
      r = ++st.last;
      refOf.set(el, r);
      byRef.set(r, new WeakRef(el));
    }
    if (st.boxed) st.boxed.set(r, el);
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
      const root = closed.shadowOf(node);
      if (root) return root.childNodes;
      if (node.localName === 'slot') {
        const a = node.assignedNodes({ flatten: true });
        return a.length ? a : node.childNodes;
      }
    }
    return node.childNodes;
  }

  const walk = walker(h, rd, tg, { assign, children, closed });

  function start(opts) {
    const st = { last: opts.base | 0, chars: 0, linkChars: 0, elems: 0, h1: 0, n: 0, sliceEnd: Infinity, hosts: [] };
    if (opts.boxes) st.boxed = new Map(); // ref → element, of the refs this walk handed out or met
    const w = { out: [], at: [], frames: [] };
    return { opts, st, w, gen: run(opts, st, w) };
  }

  function* run(opts, st, w) {
    const r = yield* walk(opts, st, w);
    const view = opts.view ? yield* vw.spans(w.at, st) : [];
    return result(w, st, r.groups, r.main, view, false);
  }

  function result(w, st, groups, main, view, partial) {
    const se = document.scrollingElement || document.documentElement;
    const scroll = { above: Math.round(se.scrollTop), below: Math.max(0, Math.round(se.scrollHeight - se.clientHeight - se.scrollTop)) };
    const boxes = st.boxed ? boxesOf(st.boxed, false) : null;
    // Elements that may hold a closed shadow root: asked about once each
    // (closedroots.go), and the walk run again if one does.
    const needRoots = closed.keep(st.hosts);
    return { lines: w.out, frames: w.frames, groups, main, view, partial, last: st.last, scroll, title: document.title, boxes, needRoots };
  }

  // snapshot walks at once: for small scopes (what an action added).
  function snapshot(opts) {
    const job = start(opts);
    h.caching(true);
    try {
      for (;;) {
        const r = job.gen.next();
        if (r.done) return r.value;
      }
    } finally {
      h.caching(false);
    }
  }

  // slice runs a walk until it yields or is done: one slice, with the page
  // not running inside it.
  function slice(job) {
    h.caching(true);
    try {
      return job.gen.next();
    } finally {
      h.caching(false);
    }
  }

  // snapshotSliced walks in slices of SLICE_MS until done or opts.deadline ms
  // have passed. A page with things to drag first answers {needDrops: true}
  // unless opts.drops says its drop targets are known (droptargets.go).
  async function snapshotSliced(opts) {
    let job = opts.resume && pending && pending.opts.scope === opts.scope ? pending : null;
    pending = null;
    if (job) {
      job.st.last = Math.max(job.st.last, opts.base | 0);
    } else {
      if (!opts.drops && document.querySelector('[draggable="true"]')) return { needDrops: true };
      job = start(opts);
    }
    const end = performance.now() + (opts.deadline > 0 ? opts.deadline : Infinity);
    for (;;) {
      job.st.sliceEnd = Math.min(performance.now() + SLICE_MS, end);
      const r = slice(job);
      if (r.done) return r.value;
      if (performance.now() >= end) {
        pending = job;
        return result(job.w, job.st, [], null, [], true);
      }
      // cdpmcp is told the page is busy with its walk, not stuck (busy.go).
      if (typeof globalThis.__cdpmcpProgress === 'function') globalThis.__cdpmcpProgress('');
      await new Promise((resolve) => {
        const ch = new MessageChannel();
        ch.port1.onmessage = resolve;
        ch.port2.postMessage(0);
      });
    }
  }

  // boxes returns the viewport boxes of the visible refs this frame knows, for
  // annotated screenshots: [ref, x, y, width, height]; with all, also those
  // outside the viewport.
  function boxes(all) {
    const els = new Map();
    for (const ref of byRef.keys()) els.set(ref, get(ref));
    return boxesOf(els, all);
  }

  // boxesOf is boxes of the elements of els (ref → element).
  function boxesOf(els, all) {
    const out = [];
    for (const [ref, el] of els) {
      if (!el || !el.isConnected) continue;
      const r = h.rectOf(el);
      if (r.width < 1 || r.height < 1) continue;
      if (!all && (r.bottom < 0 || r.right < 0 || r.top > innerHeight || r.left > innerWidth)) continue;
      out.push([ref, Math.round(r.left), Math.round(r.top), Math.round(r.width), Math.round(r.height)]);
    }
    return out;
  }

  globalThis.__cdpmcp = {
    snapshot, snapshotSliced, get, boxes, query,
    // setDrops names the elements that take drops (droptargets.go).
    setDrops: (...els) => tg.setDrops(els),
    // shadowOf is an element's shadow root, open or closed (closedroots.go).
    shadowOf: closed.shadowOf,
    takeHosts: closed.take,
    scanHosts: closed.scan,
    setClosedRoots: closed.set,
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
