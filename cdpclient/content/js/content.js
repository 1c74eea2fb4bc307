// content returns the document, or the first element matching selector (searched
// through open shadow roots too), as format: 'html', its HTML as it is;
// 'shown', its HTML with only what a person sees (shownRules, the page
// model's rule) and the words of separate boxes kept apart, and each link's
// address as the browser resolves it (absoluteLinks), for reading as
// Markdown or text. null if nothing matches.
function content(selector, format) {
  let el = document.documentElement;
  if (selector) {
    el = query(selector, true);
    if (!el) return null;
  }
  const dt = !selector && document.doctype ? '<!DOCTYPE ' + document.doctype.name + '>\n' : '';
  if (format !== 'shown') return dt + el.outerHTML;
  return dt + shownHTML(el);
}

// shownHTML is el's HTML without what is not rendered or not seen, and with
// a space on each side of a box that is not inline (a button, an option, a
// flex item), so that "Region" "All" "Apply" do not run together as they do in
// the markup. The page is only read: the copy is cut, never the page.
function shownHTML(el) {
  const { seen } = shownRules();
  const KEEP = new Set(['head', 'script', 'style', 'template', 'noscript']); // not walked: the reader drops or reads them
  const INLINE = new Set(['inline', 'contents']);
  const RAW = new Set(['pre', 'code', 'textarea', 'kbd', 'samp']);
  const copy = el.cloneNode(true);
  absoluteLinks(copy);
  const top = el.localName === 'html' ? el.querySelector('body') : el;
  if (!top) return copy.outerHTML;
  const topCopy = top === el ? copy : copy.querySelector('body');
  const cx = { hidden: false, clip: null };
  if (top !== el || seen(top, getComputedStyle(top), false, null)) cut(top, topCopy, cx, false);
  else return '';
  return copy.outerHTML;

  // cut walks an element and its copy side by side (the copy has the same
  // children until cut changes them), removing from the copy what does not
  // show and blanking text whose box is invisible. What a person sees of a
  // shadow host is its shadow tree, slots filled with what is assigned to
  // them (the flat tree, as the page model walks it): the copy, which a
  // clone leaves without shadow roots, gets that in place of its children.
  function cut(src, dst, cx, raw) {
    const flat = flatKids(src);
    if (flat) {
      dst.replaceChildren(...flat.map((k) => {
        const c = k.cloneNode(true);
        if (c.nodeType === 1) absoluteLinks(c);
        return c;
      }));
    }
    const srcKids = flat || [...src.childNodes];
    const dstKids = [...dst.childNodes];
    for (let i = 0; i < srcKids.length; i++) {
      const s = srcKids[i];
      const d = dstKids[i];
      if (s.nodeType === 3) {
        if (cx.hidden && d) d.data = '';
      } else if (s.nodeType === 1 && d && !KEEP.has(s.localName)) {
        const style = getComputedStyle(s);
        const inner = seen(s, style, cx.hidden, cx.clip);
        if (!inner) {
          d.remove();
        } else {
          const inRaw = raw || RAW.has(s.localName);
          if (!inRaw && !INLINE.has(style.display)) {
            d.before(' ');
            d.after(' ');
          }
          if (s.localName === 'details' && !s.open) {
            // Closed: a person sees its summary only.
            for (const c of [...d.children]) if (c.localName !== 'summary') c.remove();
          } else {
            cut(s, d, inner, inRaw);
          }
        }
      }
    }
  }

  // flatKids are a shadow host's or a slot's children in the flat tree,
  // null for any other node (its own children are).
  function flatKids(n) {
    if (n.nodeType !== 1) return null;
    // Closed roots too, those the page model was shown (package closedroots).
    const sr = (globalThis.__cdpmcp && globalThis.__cdpmcp.shadowOf ? globalThis.__cdpmcp.shadowOf(n) : n.shadowRoot);
    if (sr) return [...sr.childNodes];
    if (n.localName === 'slot' && n.getRootNode() instanceof ShadowRoot) {
      const a = n.assignedNodes({ flatten: true });
      return a.length ? a : null;
    }
    return null;
  }
}

// absoluteLinks writes on a copy each link's address as the browser resolves
// it (a.href: against the base URL of the document the copy came from, its
// <base> element's included), so that the reader, which sees only the HTML,
// need not work it out. A copy is of its document still, so its links resolve
// as the page's do. An <a> of SVG (its href is no string) is left as it is.
function absoluteLinks(copy) {
  const links = [...copy.querySelectorAll('a[href]')];
  if (copy.matches('a[href]')) links.push(copy);
  for (const a of links) if (typeof a.href === 'string') a.setAttribute('href', a.href);
}
