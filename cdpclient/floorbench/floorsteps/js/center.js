// The middle of the element at path, in the top document's viewport, after
// scrolling it into view.
(path) => {
  const el = find(path);
  el.scrollIntoView({ block: 'center', inline: 'center' });
  const r = el.getBoundingClientRect();
  let x = r.left + r.width / 2, y = r.top + r.height / 2;
  for (let w = el.ownerDocument.defaultView; w.frameElement; w = w.parent) {
    const f = w.frameElement.getBoundingClientRect();
    x += f.left; y += f.top;
  }
  return [x, y];
}
