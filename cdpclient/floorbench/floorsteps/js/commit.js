// Fires change on the field at path, as leaving it would, and returns its
// value: the fill's check that the field took the text.
(path) => {
  const el = find(path);
  el.dispatchEvent(new Event('change', { bubbles: true }));
  return el.value;
}
