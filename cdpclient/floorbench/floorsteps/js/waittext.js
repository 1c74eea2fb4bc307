// Resolves once the page's text contains text (checked at once, then on every
// DOM change).
(text) => new Promise((resolve) => {
  const has = () => document.body && document.body.innerText.includes(text);
  if (has()) return resolve(true);
  const mo = new MutationObserver(() => { if (has()) { mo.disconnect(); resolve(true); } });
  mo.observe(document, { subtree: true, childList: true, characterData: true });
})
