// Action observation. installWatch adds to globalThis.__cdpmcp (see snapshot.js):
//   watch(target)     start recording DOM mutations, invalid events and the target's state
//   quiet(maxMs, lateMs) resolve once a frame passes without mutations (if none, within lateMs)
//   changes(opts)     what changed since watch(), keyed by ref, most significant first
//   signals()         whether a form was submitted since watch() and its page handled it
//                     in script (it prevented the browser's own submission)
// It lives in cdpmcp's isolated world; DOM events and mutations are shared with the
// page, its listeners are not visible to page scripts.
function installWatch() {
  const m = globalThis.__cdpmcp;
  if (!m || m.watch) return;
  let w = null;

  function observeAll(obs, root) {
    const opts = { subtree: true, childList: true, attributes: true, characterData: true, attributeOldValue: true, characterDataOldValue: true };
    obs.observe(root, opts);
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
    for (let n = walker.currentNode; n; n = walker.nextNode()) {
      const sr = m.shadowOf(n);
      if (sr) observeAll(obs, sr);
    }
  }

  // SHOWING are the attributes that show or hide an element.
  const SHOWING = new Set(['class', 'style', 'hidden', 'open', 'aria-hidden', 'popover']);
  const { stateOf, controlState, nameOf, holderOf, inside, visible, addedLines } = watchParts(m);

  // CONTROLS are what a menu holds: what hiddenNear looks for.
  const CONTROLS = 'a[href],button,input:not([type=hidden]),select,textarea,[role=menuitem],[role=button],[role=link],[role=option],[tabindex]';

  // hiddenNear lists the controls around the target that do not show now:
  // a menu that a :hover or :focus-within rule shows changes no attribute
  // and adds no node, so only comparing afterwards finds it. It looks in the
  // target's parent and up to two more ancestors while they hold few
  // controls (not the whole page).
  function hiddenNear(t) {
    const out = new Set();
    for (let a = t && t.parentElement, i = 0; a && a !== document.body && a !== document.documentElement && i < 3; a = a.parentElement, i++) {
      const els = a.querySelectorAll(CONTROLS);
      if (els.length > 200) break;
      for (const e of els) if (!out.has(e) && !visible(e)) out.add(e);
    }
    return out;
  }

  function watch(target) {
    stop();
    const st = { records: [], invalid: [], last: 0, count: 0, flash: [] };
    st.target = target && target.nodeType === 1 ? target : null;
    // How many elements the selector that found the target matched
    // (query.js), once: a later action by ref is another lookup.
    const matched = Symbol.for('cdpmcp.matches');
    st.matches = (st.target && st.target[matched]) || 0;
    if (st.target) delete st.target[matched];
    st.hiddenNear = hiddenNear(st.target);
    st.before = stateOf(st.target);
    st.name = nameOf(st.target);
    // Scripts can check a box or set a value without any event or mutation:
    // remember the form controls' state to compare afterwards.
    st.controls = new Map();
    for (const el of m.known()) {
      const t = el.localName;
      if (t === 'input' || t === 'select' || t === 'textarea') st.controls.set(el, controlState(el));
    }
    st.obs = new MutationObserver((recs) => {
      for (const r of recs) {
        st.records.push(r);
        // Text that is added now may be gone before changes() looks: a toast.
        if (r.type === 'childList') {
          for (const n of r.addedNodes) {
            if (n.nodeType === 1 && st.flash.length < 5) {
              const t = m.fold(n.textContent || '').trim();
              if (t && t.length <= 200) st.flash.push([n, t]);
            }
          }
        }
      }
      st.count += recs.length;
      st.last = performance.now();
    });
    observeAll(st.obs, document);
    // What the page did on its own since the last answer (between.js).
    st.between = m.betweenTake ? m.betweenTake() : null;
    st.onInvalid = (e) => { st.invalid.push(e.target); };
    document.addEventListener('invalid', st.onInvalid, true);
    // A submit the page's handler turns into script (a fetch after an await,
    // a timer) brings its effect late: settling follows it (signals()).
    st.submits = [];
    st.onSubmit = (e) => { if (st.submits.length < 5) st.submits.push(e); };
    document.addEventListener('submit', st.onSubmit, true);
    w = st;
    return true;
  }

  function stop() {
    if (!w) return;
    w.obs.disconnect();
    document.removeEventListener('invalid', w.onInvalid, true);
    document.removeEventListener('submit', w.onSubmit, true);
  }

  // signals says whether a form was submitted since watch() and the page took
  // the submission over in script (the event's default was prevented).
  function signals() {
    return { submit: !!w && w.submits.some((e) => e.defaultPrevented) };
  }

  // quiet resolves when a whole animation frame passes with no new mutation, or
  // after maxMs. When nothing has changed since watch() it resolves at once, or,
  // with lateMs, once the first change comes within lateMs: a handler's async
  // follow-up (a file read, a resolved promise, a timer) lands then.
  function quiet(maxMs, lateMs) {
    if (!w || maxMs <= 0) return Promise.resolve(w ? w.count : 0);
    const start = performance.now();
    return new Promise((resolve) => {
      let seen = -1;
      const tick = () => {
        if (!w) return resolve(0);
        const now = performance.now();
        if (w.count === 0) {
          if (now - start > lateMs) return resolve(0);
          return requestAnimationFrame(() => setTimeout(tick, 0));
        }
        if (w.count === seen || now - start > maxMs) return resolve(w.count);
        seen = w.count;
        requestAnimationFrame(tick);
      };
      if (w.count === 0 && !lateMs) return resolve(0);
      tick();
      setTimeout(() => resolve(w ? w.count : 0), maxMs);
    });
  }

  // changes reports what changed since watch(). New refs continue from base.
  function changes(opts) {
    const st = { last: opts.base | 0 };
    const out = { text: [], attrs: [], removed: [], added: [], flash: [], invalid: [], more: 0, last: 0 };
    if (!w) { out.last = st.last; return out; }
    stop();
    const between = w.between;
    if (between) out.before = m.beforeChanges(between, st);
    const recs = w.records;
    const added = new Set();
    const removedRefs = [];
    const textBlocks = new Set();
    // The text an element held before the action, where its first change
    // replaced all of it (textContent = …) or edited its only text node:
    // text that changed and came back ("Sign in" → "Signing in…" → "Sign
    // in") did not change. null: not known.
    const wasText = new Map();
    const attrEls = new Set();
    const showing = new Set(); // elements whose visibility may have changed
    for (const r of recs) {
      if (r.type === 'childList') {
        if (!wasText.has(r.target)) {
          const whole = !r.previousSibling && !r.nextSibling && [...r.removedNodes].every((n) => n.nodeType === 3);
          wasText.set(r.target, whole ? [...r.removedNodes].map((n) => n.data).join('') : null);
        }
        for (const n of r.addedNodes) {
          if (n.nodeType === 1) added.add(n);
          else if (n.nodeType === 3) textBlocks.add(r.target);
        }
        for (const n of r.removedNodes) {
          if (n.nodeType === 3) { textBlocks.add(r.target); continue; }
          if (n.nodeType !== 1 || n.isConnected) continue;
          const ref = m.refOf(n);
          if (ref !== undefined) removedRefs.push(ref);
          else if (n.querySelectorAll) for (const d of n.querySelectorAll('*')) { const rr = m.refOf(d); if (rr !== undefined) removedRefs.push(rr); }
        }
      } else if (r.type === 'characterData') {
        const el = r.target.parentNode;
        if (el && !wasText.has(el)) wasText.set(el, el.childNodes.length === 1 ? r.oldValue : null);
        textBlocks.add(el);
      } else if (r.type === 'attributes') {
        attrEls.add(r.target);
        if (SHOWING.has(r.attributeName)) showing.add(r.target);
      }
    }
    // Shown subtrees: an element whose class, style or hidden state changed and
    // that now shows content the model was never given refs for (a modal, a
    // panel, a tip) counts as added.
    // Refs are handed out to visible elements only: content without refs
    // that shows now was hidden before. And refs under a changed element
    // that no longer show were hidden by the change.
    let budget = 2000;
    const hidden = [];
    for (const e of showing) {
      if (!e.isConnected || added.has(e) || budget <= 0) continue;
      const inner = e.querySelectorAll('*');
      budget -= inner.length;
      let refd = m.refOf(e) !== undefined;
      for (const d of inner) {
        if (m.refOf(d) === undefined) continue;
        refd = true;
        if (!visible(d)) hidden.push(m.refOf(d));
      }
      if (m.refOf(e) !== undefined && !visible(e)) hidden.push(m.refOf(e));
      if (!refd && visible(e) && /\S/.test(e.innerText || '')) added.add(e);
    }
    // Controls near the target that show now and did not (a :hover menu).
    for (const e of w.hiddenNear) if (visible(e)) added.add(e);
    // Added subtrees: the outermost added elements still on the page and visible.
    const roots = [...added].filter((n) => n.isConnected && !inside(n.parentNode, added) && visible(n));
    const addedSet = new Set(roots);
    addedLines(roots, st, out);
    // Text that changed in place, by the block (or element) that holds it.
    const blocks = new Set();
    for (const n of textBlocks) {
      if (!n || !n.isConnected || inside(n, addedSet)) continue;
      const b = holderOf(n);
      // A clock or ticker changed on its own, not by the action: it
      // ticks between the answers (between.js).
      const clock = m.ticking && (m.ticking(b) || m.ticking(n));
      if (b && visible(b) && b !== w.target && !clock) blocks.add(b);
    }
    for (const b of blocks) {
      let skip = false;
      for (const o of blocks) if (o !== b && o.contains(b)) { skip = true; break; }
      for (const a of roots) if (b.contains(a)) { skip = true; break; }
      if (skip) continue;
      const text = m.fold(b.innerText || b.textContent || '').trim();
      const was = wasText.get(b);
      if (was != null && m.fold(was).trim() === text) continue;
      out.text.push([String(m.assign(b, st)), m.cut(text, 100)]);
    }
    // State of the target, and state attributes that changed on elements with refs.
    const stateEls = new Set([...attrEls].filter((e) => e.isConnected && m.refOf(e) !== undefined && !inside(e, addedSet)));
    if (w.target && w.target.isConnected) stateEls.add(w.target);
    for (const e of stateEls) {
      const now = stateOf(e);
      for (const k of Object.keys(now)) {
        if (e === w.target ? w.before[k] === now[k] : !attrChanged(e, k)) continue;
        out.attrs.push([String(m.assign(e, st)), k, now[k]]);
      }
    }
    for (const [el, was] of w.controls) {
      if (!el.isConnected || el === w.target) continue;
      const now = controlState(el);
      for (const k of Object.keys(now)) if (now[k] !== was[k]) out.attrs.push([String(m.refOf(el)), k, now[k]]);
    }
    for (const el of w.invalid) {
      if (!el.isConnected) continue;
      const ref = m.assign(el, st);
      const name = m.line(el, ref).replace(/^\d+\[:\]/, '');
      out.invalid.push([String(ref), name, el.validationMessage || 'invalid']);
    }
    // Refs hidden by the change (a panel closed) count as removed.
    for (const r of hidden) removedRefs.push(r);
    // The target's own name changed ("Save" → "Saved").
    const name = nameOf(w.target);
    if (w.target && w.target.isConnected && name !== w.name && name) out.text.unshift([String(m.assign(w.target, st)), name]);
    // Text that came and went during the action.
    for (const [n, t] of w.flash) if (!n.isConnected) out.flash.push(m.cut(t, 100));
    out.removed = [...new Set(removedRefs)].map(String);
    // Keep the answer short: the most significant first, the rest counted.
    const cap = (arr, n) => { if (arr.length > n) { out.more += arr.length - n; arr.length = n; } };
    cap(out.added, 8);
    cap(out.text, 5);
    cap(out.attrs, 6);
    cap(out.removed, 10);
    cap(out.flash, 3);
    out.last = st.last;
    if (w.matches > 1) out.matches = w.matches;
    w = null;
    if (m.betweenStart) m.betweenStart();
    return out;

    // attrChanged says whether the attribute behind state k of e changed
    // during the action and is not back where it was (a button disabled
    // while a call ran, then enabled again, did not change).
    function attrChanged(e, k) {
      const r = recs.find((r) => r.type === 'attributes' && r.target === e && (r.attributeName === k || r.attributeName === 'aria-' + k));
      return !!r && r.oldValue !== e.getAttribute(r.attributeName);
    }
  }

  m.watch = watch;
  m.quiet = quiet;
  m.changes = changes;
  m.signals = signals;
}

function bootstrap() {
  install();
  installWatch();
  installBetween();
  return 'ready';
}

// watchTarget starts the page model's watch with this element as the action's
// target (called on the element, in cdpmcp's world).
function watchTarget() {
  return globalThis.__cdpmcp.watch(this);
}
