// The clipboard, read and written from cdpmcp's isolated world through the
// page's document (the browser asks the document's origin for the
// permission and wants it focused); none of the page's code runs.

// clipboardStates answers the document's origin, whether it is a secure
// context (the Clipboard API needs one) and the states of the clipboard
// permissions now, so they can be put back after.
function clipboardStates() {
  const out = { origin: location.origin, secure: isSecureContext, read: 'prompt', write: 'prompt' };
  if (!isSecureContext || !navigator.permissions) return out;
  const query = (key, name) => navigator.permissions.query({ name }).then(s => { out[key] = s.state; }, () => {});
  return Promise.all([query('read', 'clipboard-read'), query('write', 'clipboard-write')]).then(() => out);
}

// clipboardOp reads the clipboard's text (op "read") or writes text to it
// (op "write"); it answers {text} or {error}.
function clipboardOp(op, text) {
  const fail = e => ({ error: String(e && e.message || e) });
  try {
    if (op === 'read') return navigator.clipboard.readText().then(t => ({ text: t }), fail);
    return navigator.clipboard.writeText(text).then(() => ({}), fail);
  } catch (e) {
    return fail(e);
  }
}
