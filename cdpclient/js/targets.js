// Containers a person points at as a target besides the controls lines.js
// finds: named landmarks and regions, sections led by a heading, lists that
// are named or hold things to drag, and elements that take drops. The page
// model (walk.js) gives each a ref: shown on the line of the heading that
// names it ("14[:]## Done" is the Done column), or on a line of its own
// ("15[:]<nav>Site</nav>") when no heading names it.
// targetHelpers(h) takes lineHelpers() and returns target(el, tag) and the
// set of elements known to take drops (filled from the browser's listener list,
// see droptargets.go).
function targetHelpers(h) {
  const LANDMARK_TAGS = new Set(['nav', 'aside', 'main', 'form', 'search', 'section', 'article', 'header', 'footer', 'dialog']);
  const LANDMARK_ROLES = new Set(['region', 'navigation', 'complementary', 'main', 'form', 'search', 'banner', 'contentinfo',
    'dialog', 'alertdialog', 'article']);
  const LIST_TAGS = new Set(['ul', 'ol', 'dl']);
  const LIST_ROLES = new Set(['list', 'listbox', 'grid', 'tree', 'feed', 'table']);
  const HEADING = /^h[1-6]$/;
  // How far inside a container its naming heading may sit (<section><header><h2>).
  const HEADING_DEPTH = 2;
  const DRAGGED = ':scope > [draggable="true"], :scope > * > [draggable="true"]';
  let drops = new WeakSet();

  // A heading holding a link shows as the link's line, which cannot carry
  // another ref: it names no target here.
  const isHeading = (el) => HEADING.test(el.localName) && !h.hasInteractiveInside(el);

  // headingOf is the heading that names container el: the one aria-labelledby
  // points at inside it, else its leading heading when it has no other name
  // (or the same one).
  function headingOf(el, name) {
    const ids = el.getAttribute('aria-labelledby');
    if (ids) {
      const root = el.getRootNode();
      for (const id of ids.split(/\s+/)) {
        const n = root.getElementById ? root.getElementById(id) : null;
        if (n && isHeading(n) && el.contains(n)) return n;
      }
    }
    let c = el.firstElementChild;
    for (let d = 1; c && d < HEADING_DEPTH && !isHeading(c); d++) c = c.firstElementChild;
    if (c && isHeading(c) && (!name || h.textOf(c) === name)) return c;
    return null;
  }

  // target says whether block el is a target and how to show it: {name, attrs,
  // heading (the heading whose line carries its ref, or null), whole (a drop
  // target of text only, shown as one line)}; null when it is none. within is
  // the target el sits in, if any: the list of cards of a board's column is
  // the column's.
  function target(el, tag, within) {
    const role = h.role(el);
    const drop = drops.has(el) || el.hasAttribute('ondrop') || el.hasAttribute('ondragover');
    const landmark = role ? LANDMARK_ROLES.has(role) : LANDMARK_TAGS.has(tag);
    const list = role ? LIST_ROLES.has(role) : LIST_TAGS.has(tag);
    if (!drop && !landmark && !list) return null;
    const name = h.labelText(el);
    const attrs = [];
    if (role) attrs.push('role=' + role);
    if (drop) attrs.push('drop');
    if (drop && !el.firstElementChild) return { name: h.cut(h.textOf(el), h.NAME_MAX), attrs, heading: null, whole: true };
    const heading = headingOf(el, name);
    // A named landmark with nothing to read in it (an ad slot) is no target.
    if (landmark && !heading && !drop && (!name || !/\S/.test(el.textContent))) return null;
    if (list && !landmark && !name && !drop && (within === el.parentElement || !el.querySelector(DRAGGED))) return null;
    if (list && !name) return { name: el.childElementCount + ' items', attrs, heading, whole: false };
    return { name: h.cut(name, h.NAME_MAX), attrs, heading, whole: false };
  }

  return {
    target,
    // setDrops replaces the elements known to take drops.
    setDrops(els) { drops = new WeakSet(els); },
  };
}
