// The least a page model reads: every visible text run and interactive
// element in document order, through open shadow roots and same-origin
// iframes, as one line each.
() => {
  const lines = [];
  const interactive = 'a[href],button,input,select,textarea,[role=button],[role=link],[onclick],[tabindex],[contenteditable]';
  const walk = (root) => {
    for (let n = root.firstChild; n; n = n.nextSibling) {
      if (n.nodeType === 3) {
        const t = n.data.replace(/\s+/g, ' ').trim();
        if (t && n.parentElement && n.parentElement.checkVisibility()) lines.push(t);
        continue;
      }
      if (n.nodeType !== 1 || n.localName === 'script' || n.localName === 'style') continue;
      if (n.matches(interactive) && n.checkVisibility()) {
        lines.push('<' + n.localName + '>' + (n.getAttribute('aria-label') || n.getAttribute('placeholder') || n.textContent.trim().slice(0, 80)));
      }
      if (n.shadowRoot) walk(n.shadowRoot);
      if (n.localName === 'iframe' && n.contentDocument) walk(n.contentDocument);
      walk(n);
    }
  };
  walk(document);
  return lines.join('\n');
}
