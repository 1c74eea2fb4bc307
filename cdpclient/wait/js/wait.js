// waitFor resolves to true as soon as the condition holds, or to false after
// timeoutMs. It re-checks on every DOM mutation (coalesced) and every 50 ms, which
// also covers shadow roots and style changes that mutation observers miss.
// kind is "selector" or "text"; state is visible, attached, hidden or detached.
function waitFor(kind, value, state, timeoutMs) {
  const isVisible = (el) => {
    const r = el.getBoundingClientRect();
    const s = getComputedStyle(el);
    return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && s.display !== 'none';
  };
  const norm = (s) => s.replace(/\s+/g, ' ');
  const want = kind === 'text' ? norm(value) : value;
  const deepText = (visibleOnly) => {
    let text = visibleOnly ? document.body.innerText : document.documentElement.textContent;
    const stack = [document];
    while (stack.length) {
      const root = stack.pop();
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const sr = (globalThis.__cdpmcp && globalThis.__cdpmcp.shadowOf ? globalThis.__cdpmcp.shadowOf(n) : n.shadowRoot);
        if (sr) {
          stack.push(sr);
          for (const c of sr.children) {
            if (c.localName === 'style' || c.localName === 'script') continue;
            text += '\n' + (visibleOnly ? (c.innerText || '') : c.textContent);
          }
        }
      }
    }
    return norm(text);
  };
  const holds = () => {
    if (kind === 'text') {
      if (!document.body) return state === 'hidden' || state === 'detached';
      switch (state) {
        case 'attached': return deepText(false).includes(want);
        case 'detached': return !deepText(false).includes(want);
        case 'hidden': return !deepText(true).includes(want);
        default: return deepText(true).includes(want);
      }
    }
    const el = query(value, state === 'visible');
    switch (state) {
      case 'attached': return !!el;
      case 'detached': return !el;
      case 'hidden': return !el || !isVisible(el);
      default: return !!el && isVisible(el);
    }
  };
  if (holds()) return true;
  return new Promise((resolve) => {
    let scheduled = false;
    const check = () => {
      scheduled = false;
      try { if (holds()) finish(true); } catch (e) { finish(false); }
    };
    const obs = new MutationObserver(() => {
      if (!scheduled) { scheduled = true; setTimeout(check, 0); }
    });
    obs.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    const iv = setInterval(check, 50);
    const to = setTimeout(() => finish(false), timeoutMs);
    function finish(v) { obs.disconnect(); clearInterval(iv); clearTimeout(to); resolve(v); }
  });
}
