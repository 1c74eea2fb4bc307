// Focuses the field at path with its content selected, as a fill must before
// it inserts text: what is typed then replaces the content.
(path) => {
  const el = find(path);
  el.focus();
  el.select();
  return document.activeElement !== null;
}
