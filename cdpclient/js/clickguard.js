// A click guard: the pointer events of the next click reach this element, or
// no one. Its place was measured before the click; a page that moved under
// the pointer since (a late banner, text filled in above it) would otherwise
// take the click on whatever moved there. Like Playwright's hit target check.

// armClickGuard listens, in capture on the element's window, for the events of
// a click; one whose target is neither in the element nor a label of it is
// stopped before the page sees it and noted. clickGuardResult ends it; so
// does a timer.
function armClickGuard() {
  const el = this;
  const win = el.ownerDocument.defaultView;
  const key = Symbol.for('cdpmcp.clickGuard');
  if (win[key]) win[key].disarm();
  const types = ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click', 'dblclick', 'auxclick', 'contextmenu'];
  const guard = { blocked: false, hit: '' };
  const reaches = (ev) => ev.composedPath().some((n) => n === el || (n.localName === 'label' && n.control === el));
  const check = (ev) => {
    if (reaches(ev)) return;
    if (!guard.blocked) {
      const t = ev.target;
      guard.hit = t && t.localName ? '<' + t.localName + (t.id ? '#' + t.id : '') + '>' + ((t.innerText || '').trim().replace(/\s+/g, ' ').slice(0, 40)) : '';
    }
    guard.blocked = true;
    ev.preventDefault();
    ev.stopImmediatePropagation();
  };
  for (const t of types) win.addEventListener(t, check, true);
  const timer = setTimeout(() => guard.disarm(), 10000);
  guard.disarm = () => {
    clearTimeout(timer);
    for (const t of types) win.removeEventListener(t, check, true);
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
