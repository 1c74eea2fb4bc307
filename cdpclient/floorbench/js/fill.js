// Sets the field at path to value as a fill does: focus, value, input and
// change events.
(path, value) => {
  const el = find(path);
  el.focus();
  el.value = value;
  el.dispatchEvent(new Event('input', { bubbles: true }));
  el.dispatchEvent(new Event('change', { bubbles: true }));
  return el.value;
}
