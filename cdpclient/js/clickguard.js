// A click guard: the pointer events of the next click reach this element, or
// no one. Its place was measured before the click; a page that moved under
// the pointer since (a late banner, text filled in above it) would otherwise
// take the click on whatever moved there. Like Playwright's hit target check.

// armClickGuard listens, in capture on the element's window, for the events of
// a click. The first one the browser sends decides, as a person's hand would:
// if its target is neither in the element nor a label of it, that event and
// the rest of the click are stopped before the page sees them, and noted. (A
// page that re-renders the element during the click still gets the click.)
// clickGuardResult ends the guard; so does a timer.
function armClickGuard() {
  const el = this;
  const win = el.ownerDocument.defaultView;
  const key = Symbol.for('cdpmcp.clickGuard');
  if (win[key]) win[key].disarm();
  const types = ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click', 'dblclick', 'auxclick', 'contextmenu'];
  const guard = { decided: false, blocked: false, hit: '' };
  const reaches = (ev) => ev.composedPath().some((n) => n === el || (n.localName === 'label' && n.control === el));
  // In a closed shadow root, a listener on the window sees the path stop at
  // the outermost closed host: there it only knows a click that misses the
  // host; one on the element's own root, which the event reaches next,
  // decides (and a click that never passes that root is stopped as it
  // bubbles back).
  let outer = null; // the host of the outermost closed root el is in
  for (let r = el.getRootNode(); r instanceof ShadowRoot; r = r.host.getRootNode()) {
    if (r.mode === 'closed') outer = r.host;
  }
  const root = outer ? el.getRootNode() : null;
  const check = (ev) => {
    if (!ev.isTrusted) return; // the page's own events are its business
    if (!guard.decided && outer && ev.currentTarget === win && ev.eventPhase === Event.CAPTURING_PHASE &&
      ev.composedPath().includes(outer)) return;
    if (!guard.decided) {
      guard.decided = true;
      guard.blocked = !reaches(ev);
      const t = ev.target;
      if (guard.blocked && t && t.localName) {
        guard.hit = '<' + t.localName + (t.id ? '#' + t.id : '') + '>' + (t.innerText || '').trim().replace(/\s+/g, ' ').slice(0, 40);
      }
    }
    if (guard.blocked) {
      ev.preventDefault();
      ev.stopImmediatePropagation();
    }
  };
  const late = (ev) => { if (!guard.decided) check(ev); };
  for (const t of types) {
    win.addEventListener(t, check, true);
    if (root) {
      root.addEventListener(t, check, true);
      win.addEventListener(t, late, false);
    }
  }
  const timer = setTimeout(() => guard.disarm(), 10000);
  guard.disarm = () => {
    clearTimeout(timer);
    for (const t of types) {
      win.removeEventListener(t, check, true);
      if (root) {
        root.removeEventListener(t, check, true);
        win.removeEventListener(t, late, false);
      }
    }
    if (win[key] === guard) delete win[key];
  };
  win[key] = guard;
  return true;
}

// clickGuardResult ends the element's click guard and says whether it stopped
// the click, and what the click would have reached instead.
function clickGuardResult() {
  const win = this.ownerDocument.defaultView;
  const guard = win && win[Symbol.for('cdpmcp.clickGuard')];
  if (!guard) return { blocked: false, hit: '' };
  guard.disarm();
  return { blocked: guard.blocked, hit: guard.hit };
}

// clickReady is state(), and when the element is visible and enabled,
// clickPoint() and, when that point reaches it in a frame of this process,
// armClickGuard(): the common click's preparation in one round trip.
function clickReady() {
  const s = state.call(this);
  if (!s.connected || !s.visible || s.disabled) return {};
  const pt = clickPoint.call(this);
  if (!pt.ok || pt.frame) return {};
  return { point: { x: pt.x, y: pt.y }, armed: armClickGuard.call(this) };
}
