// find(path): the element at path, a list of CSS selectors where each one after
// the first looks inside the previous match's shadow root or iframe document.
function find(path) {
  let root = document, el = null;
  for (const sel of path) {
    el = root.querySelector(sel);
    if (!el) throw new Error('no element ' + sel);
    root = el.shadowRoot || el.contentDocument || el;
  }
  return el;
}
