// content returns the HTML or visible text of the document or of the first element
// matching selector (searched through open shadow roots too); null if none matches.
function content(selector, format) {
  let el = document.documentElement;
  if (selector) {
    el = query(selector, true);
    if (!el) return null;
  }
  if (format === 'text') return el.innerText !== undefined ? el.innerText : el.textContent;
  if (!selector) {
    const dt = document.doctype;
    return (dt ? '<!DOCTYPE ' + dt.name + '>\n' : '') + el.outerHTML;
  }
  return el.outerHTML;
}
