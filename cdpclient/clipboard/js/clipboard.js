// The clipboard, read and written from cdpmcp's isolated world through the
// page's document (the browser asks the document's origin for the
// permission and wants it focused); none of the page's code runs.

// clipboardStates answers the document's origin, whether it is a secure
// context (the Clipboard API needs one) and the states of the clipboard
// permissions now, so they can be put back after.
async function clipboardStates() {
  const out = { origin: location.origin, secure: isSecureContext, read: 'prompt', write: 'prompt' };
  if (!isSecureContext || !navigator.permissions) return out;
  for (const [key, name] of [['read', 'clipboard-read'], ['write', 'clipboard-write']]) {
    try { out[key] = (await navigator.permissions.query({ name })).state; } catch (e) { /* unknown name: prompt */ }
  }
  return out;
}

// clipboardOp reads the clipboard's text (op "read") or writes text to it
// (op "write"); it answers {text} or {error}.
async function clipboardOp(op, text) {
  try {
    if (op === 'read') return { text: await navigator.clipboard.readText() };
    await navigator.clipboard.writeText(text);
    return {};
  } catch (e) {
    return { error: String(e && e.message || e) };
  }
}
