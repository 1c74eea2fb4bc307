// Page-side halves of the audits (package audit): what they share. They run in
// cdpmcp's isolated world, where page scripts cannot see or change them, and
// only read: computed styles, layout boxes, attributes. Elements are named by
// ref through the page model (__cdpmcp.assign) and by a CSS selector. The
// audit functions of every js/*.js file are in scope of each other.

// auditElements lists the elements under root in document order, open shadow
// roots included.
function auditElements(root) {
  const out = [];
  const walk = (node) => {
    for (let c = node.firstElementChild; c; c = c.nextElementSibling) {
      out.push(c);
      if (c.shadowRoot && c.shadowRoot.mode === 'open') walk(c.shadowRoot);
      walk(c);
    }
  };
  if (root.nodeType === 1) out.push(root);
  walk(root);
  return out;
}

// auditShort is an element's opening tag, cut short.
function auditShort(el) {
  let s = '<' + el.localName;
  for (const a of ['id', 'type', 'role', 'name', 'href', 'src', 'class']) {
    const v = el.getAttribute(a);
    if (v !== null) s += ' ' + a + '="' + (v.length > 40 ? v.slice(0, 39) + '…' : v) + '"';
    if (s.length > 90) break;
  }
  return s + '>';
}

// auditDescribe names an element: its ref (handed out through the page model),
// a CSS selector that finds it again, its opening tag, its box in the viewport
// and a little of its text.
function auditDescribe(el, st) {
  const ref = globalThis.__cdpmcp ? __cdpmcp.assign(el, st) : 0;
  const r = el.getBoundingClientRect();
  const text = (el.textContent || '').replace(/\s+/g, ' ').trim();
  return {
    ref, selector: auditSelector(el), html: auditShort(el),
    text: text.length > 60 ? text.slice(0, 59) + '…' : text,
    box: [Math.round(r.left), Math.round(r.top), Math.round(r.width), Math.round(r.height)],
  };
}

// auditDescribeAll describes the elements passed after base (null for those
// gone), handing out refs.
function auditDescribeAll(base, ...els) {
  const st = { last: base };
  return { found: els.map((el) => (el && el.nodeType === 1 && el.isConnected ? auditDescribe(el, st) : null)), last: st.last };
}

// auditSelector builds a selector that matches el alone: an id where it is
// unique, else a path of :nth-of-type steps from the nearest such id. Inside a
// shadow root the path starts at the root (cdpmcp's selectors search open
// shadow roots).
function auditSelector(el) {
  const root = el.getRootNode();
  const esc = (s) => (window.CSS && CSS.escape ? CSS.escape(s) : s.replace(/[^\w-]/g, '\\$&'));
  const unique = (e) => e.id && root.querySelectorAll('#' + esc(e.id)).length === 1;
  const steps = [];
  for (let e = el; e && e.nodeType === 1; e = e.parentElement) {
    if (unique(e)) {
      steps.unshift('#' + esc(e.id));
      break;
    }
    if (e === document.documentElement) {
      steps.unshift('html');
      break;
    }
    let step = e.localName.includes(':') ? esc(e.localName) : e.localName;
    const parent = e.parentElement;
    if (parent) {
      let n = 0, same = 0;
      for (let s = parent.firstElementChild; s; s = s.nextElementSibling) {
        if (s.localName === e.localName) {
          same++;
          if (s === e) n = same;
        }
      }
      if (same > 1) step += ':nth-of-type(' + n + ')';
    }
    steps.unshift(step);
    if (!parent) break;
  }
  return steps.join(' > ');
}

// auditLinksOf lists the addresses the page's links and image-map areas point
// at (absolute, as the browser resolved them), open shadow roots included.
function auditLinksOf() {
  const out = new Set();
  for (const el of auditElements(document.documentElement)) {
    if ((el.localName === 'a' || el.localName === 'area') && el.hasAttribute('href')) out.add(el.href);
  }
  return [...out].slice(0, 2000);
}
