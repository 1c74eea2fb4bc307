// Closed shadow roots. A page that attaches a shadow root with {mode: 'closed'}
// keeps it from every script, cdpmcp's isolated world too: element.shadowRoot
// is null. The browser knows it, and shows it to cdpmcp over DevTools
// (pagemodel/closedroots.go): the walk notes the elements that may hold one,
// cdpmcp asks the browser about each once, and hands the closed roots it finds
// back to this world, where the walk, the hit test, the watch and the
// features read them as they read open ones.
// closedRoots() returns {shadowOf, mayHost, keep, take, scan, set}.
function closedRoots() {
  const roots = new WeakMap(); // host → its closed root
  const asked = new WeakSet(); // elements cdpmcp asked the browser about
  let waiting = []; // elements to ask about next (take)
  // The elements a page can attach a shadow root to (DOM's "valid shadow
  // host names"), besides custom elements.
  const HOSTS = new Set(['article', 'aside', 'blockquote', 'body', 'div', 'footer', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6',
    'header', 'main', 'nav', 'p', 'section', 'span']);
  // How many elements one walk asks about: the rest are asked about on the
  // next walk (each is asked once).
  const MAX = 100;

  function shadowOf(el) {
    return el.shadowRoot || roots.get(el) || null;
  }

  // mayHost says whether el could hold a closed root cdpmcp has not asked
  // about: a custom element without an open root, or an element that may
  // host one and shows nothing of its own (a widget's empty container).
  function mayHost(el) {
    const tag = el.localName;
    // The cheap tests first: the walk asks this of every element it shows.
    const custom = tag.includes('-');
    if (!custom && !(HOSTS.has(tag) && !el.firstElementChild)) return false;
    if (el.shadowRoot || asked.has(el) || roots.has(el)) return false;
    return custom || !/\S/.test(el.textContent);
  }

  // keep notes hosts (what a walk found) to be asked about; true when there are any.
  function keep(hosts) {
    for (const el of hosts) {
      if (waiting.length >= MAX) break;
      if (!asked.has(el)) { asked.add(el); waiting.push(el); }
    }
    return waiting.length > 0;
  }

  // take hands the elements to ask about to cdpmcp, once.
  function take() {
    const out = waiting;
    waiting = [];
    return out;
  }

  // scan notes the hosts of the whole document (through the roots known),
  // for a read that does not walk (getContent, find), and takes them. An
  // empty container counts only when it has a box: a page has many empty
  // elements, and a root shows in a box.
  function scan() {
    const hosts = [];
    const visit = (root) => {
      const tw = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
      for (let n = tw.nextNode(); n; n = tw.nextNode()) {
        if (mayHost(n) && (n.localName.includes('-') || n.getClientRects().length > 0)) hosts.push(n);
        const sr = shadowOf(n);
        if (sr) visit(sr);
      }
    };
    visit(document);
    keep(hosts);
    return take();
  }

  // set records closed roots: host, root, host, root, …
  function set(...pairs) {
    for (let i = 0; i + 1 < pairs.length; i += 2) roots.set(pairs[i], pairs[i + 1]);
  }

  return { shadowOf, mayHost, keep, take, scan, set };
}
