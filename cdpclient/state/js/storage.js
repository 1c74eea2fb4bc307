// Web storage, read and written from cdpmcp's isolated world: the page's own
// localStorage and sessionStorage (worlds share them), without running any of
// the page's code.

// storageOp does op (list, get, set, delete, clear) on the page's local or
// session storage. list and get answer entries [[key, value], …].
function storageOp(kind, op, key, value) {
  const s = kind === 'session' ? sessionStorage : localStorage;
  switch (op) {
    case 'list': {
      const out = [];
      for (let i = 0; i < s.length; i++) { const k = s.key(i); out.push([k, s.getItem(k)]); }
      return { entries: out, origin: location.origin };
    }
    case 'get': {
      const v = s.getItem(key);
      return v === null ? { missing: true, origin: location.origin } : { entries: [[key, v]], origin: location.origin };
    }
    case 'set': s.setItem(key, value); break;
    case 'delete': {
      const had = s.getItem(key) !== null;
      s.removeItem(key);
      if (!had) return { missing: true, origin: location.origin };
      break;
    }
    case 'clear': s.clear(); break;
  }
  return { origin: location.origin, length: s.length };
}

// seedStorage is run (in cdpmcp's world) as each new document starts, while
// a loaded storage state has origins not yet seeded: it puts the state's
// localStorage items for this document's origin that the origin does not
// hold yet, before the page's scripts run, and tells cdpmcp (the binding) so
// that origin is not seeded again.
function seedStorage(origins, binding) {
  const items = origins[location.origin];
  if (!items) return;
  try {
    for (const [k, v] of items) if (localStorage.getItem(k) === null) localStorage.setItem(k, v);
  } catch (e) { return; }
  if (typeof globalThis[binding] === 'function') globalThis[binding](location.origin);
}
