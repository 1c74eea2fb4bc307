// Functions for fillForm (cdpclient/fillform.go), called on one form field
// (this) in cdpmcp's isolated world.

// fieldKind says what kind of field the element is, so fillForm knows how a
// person would set it: checkbox, radio, select, file, or text (anything typed
// or set, date and range included).
function fieldKind() {
  const el = this;
  const tag = el.localName;
  const type = ((el.getAttribute && el.getAttribute('type')) || '').toLowerCase();
  let kind = 'text';
  if (tag === 'select') kind = 'select';
  else if (tag === 'input' && (type === 'checkbox' || type === 'radio' || type === 'file')) kind = type;
  else if (el.getAttribute && (el.getAttribute('role') === 'checkbox' || el.getAttribute('role') === 'switch')) kind = 'checkbox';
  const checked = kind === 'checkbox' && tag !== 'input' ? el.getAttribute('aria-checked') === 'true' : !!el.checked;
  return { kind, checked, name: el.name || '' };
}

// radioFor returns the radio of this radio's group whose value or label is
// wanted (case-insensitive), or null.
function radioFor(wanted) {
  const el = this;
  const w = String(wanted).trim().toLowerCase();
  const root = el.form || el.getRootNode();
  const group = el.name ? [...root.querySelectorAll('input[type=radio]')].filter((r) => r.name === el.name) : [el];
  const label = (r) => [...(r.labels || [])].map((l) => l.innerText.trim().toLowerCase());
  return group.find((r) => r.value.toLowerCase() === w) || group.find((r) => label(r).includes(w)) || null;
}

// radioChoices lists the values of this radio's group, for a hint.
function radioChoices() {
  const el = this;
  const root = el.form || el.getRootNode();
  return [...root.querySelectorAll('input[type=radio]')].filter((r) => r.name === el.name).map((r) => r.value);
}

// clickTarget is what a person clicks to toggle the field: the field, or its
// label when the field itself is hidden (a styled checkbox).
function clickTarget() {
  const el = this;
  const r = el.getBoundingClientRect();
  const s = getComputedStyle(el);
  if (r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && s.opacity !== '0') return el;
  return (el.labels && el.labels[0]) || el;
}
