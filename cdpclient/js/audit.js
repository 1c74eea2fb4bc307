// Page-side halves of the audits (auditaccess.go, auditlinks.go). They run in
// cdpmcp's isolated world, where page scripts cannot see or change them, and
// only read: computed styles, layout boxes, attributes. Elements are named by
// ref through the page model (__cdpmcp.assign) and by a CSS selector.

// auditA11y checks what the accessibility tree does not say directly: colour
// contrast (WCAG 2.2 AA, measured as axe-core does: the text colour over the
// backgrounds beneath it), the document language, heading levels, focusable
// elements inside aria-hidden and duplicate ids that ARIA or labels point at.
// scope limits it to a subtree. Returns {findings, last}; each finding is
// {rule, el, msg, ratio?, need?} with el described by auditDescribe.
function auditA11y(base, scope, max) {
  const st = { last: base };
  const root = scope || document.documentElement;
  const findings = [];
  const add = (rule, el, msg, extra) => {
    if (findings.length >= max) return;
    findings.push(Object.assign({ rule, el: auditDescribe(el, st), msg }, extra || {}));
  };
  const html = document.documentElement;
  if (!scope || scope === html) {
    const lang = (html.getAttribute('lang') || html.getAttribute('xml:lang') || '').trim();
    if (!lang) add('html-has-lang', html, 'the page does not say its language: add <html lang="en"> (or its language)');
    else if (!auditValidLang(lang)) add('html-lang-valid', html, 'lang="' + lang.slice(0, 40) + '" is not a language tag (e.g. en, fr-CA)');
  }
  const all = auditElements(root);
  const style = new Map();
  const cs = (el) => {
    let s = style.get(el);
    if (!s) { s = getComputedStyle(el); style.set(el, s); }
    return s;
  };
  for (const f of auditContrast(all, cs)) {
    add('color-contrast', f.el, 'contrast ' + f.ratio.toFixed(2) + ':1, needs ' + f.need + ':1 (' + f.fg + ' on ' + f.bg + ', ' + f.size + 'px' + (f.bold ? ' bold' : '') + ')',
      { ratio: Math.floor(f.ratio * 100) / 100, need: f.need });
  }
  let prev = 0;
  for (const el of all) {
    const level = auditHeadingLevel(el);
    if (!level || auditHiddenFromAT(el, cs)) continue;
    if (prev && level - prev > 1) add('heading-order', el, 'heading level ' + level + ' follows level ' + prev + ': levels should go up by one');
    prev = level;
  }
  for (const el of all) {
    if (el.getAttribute('aria-hidden') !== 'true') continue;
    const inner = auditFocusableInside(el, cs);
    if (inner) add('aria-hidden-focus', el, 'aria-hidden="true" hides ' + auditShort(inner) + ' from screen readers, but keyboard users can still tab to it');
  }
  for (const [id, els] of auditDuplicateARIAIds(all)) {
    add('duplicate-id-aria', els[0], 'id="' + id.slice(0, 40) + '" is used by ' + els.length + ' elements and referenced by ARIA or a label: references are ambiguous');
  }
  return { findings, last: st.last, truncated: findings.length >= max };
}

// auditElements lists the elements under root in document order, open shadow
// roots included.
function auditElements(root) {
  const out = [];
  const walk = (node) => {
    for (let c = node.firstElementChild; c; c = c.nextElementSibling) {
      out.push(c);
      if (c.shadowRoot && c.shadowRoot.mode === 'open') walk(c.shadowRoot);
      walk(c);
    }
  };
  if (root.nodeType === 1) out.push(root);
  walk(root);
  return out;
}

// auditContrast measures the text of every element with visible text of its
// own. Text over an image, a gradient, a pseudo-element or another element that
// covers it part-way cannot be measured reliably: it is left out, as axe-core
// leaves it "incomplete".
function auditContrast(all, cs) {
  const out = [];
  const SKIP = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'TITLE', 'HEAD', 'OPTION', 'SELECT', 'IFRAME', 'OBJECT', 'VIDEO', 'AUDIO', 'CANVAS', 'svg', 'math']);
  for (const el of all) {
    if (SKIP.has(el.nodeName) || el.closest('svg, math')) continue;
    let text = '';
    for (let c = el.firstChild; c; c = c.nextSibling) if (c.nodeType === 3) text += c.nodeValue;
    text = text.replace(/[\s\u200b\u00a0]+/g, '');
    // Icons drawn with private-use or symbol glyphs, emoji and one-letter
    // text are not measured (axe-core: incomplete).
    const real = text.replace(/[\p{P}\p{S}\p{Co}\p{Extended_Pictographic}]/gu, '');
    if (real.length < 2) continue;
    if (auditDisabled(el)) continue;
    const s = cs(el);
    const size = parseFloat(s.fontSize);
    if (!size) continue;
    const rects = auditTextRects(el);
    if (!rects.length || !auditOnScreen(el, rects, cs)) continue;
    const pseudo = auditPseudoCover(el, cs);
    if (pseudo) continue;
    if (s.textShadow && s.textShadow !== 'none') continue;
    const bg = auditBackground(el, rects, cs);
    if (!bg) continue;
    let fg = auditParseColor(s.webkitTextFillColor || s.color);
    if (!fg) continue;
    fg = auditFlatten([fg[0], fg[1], fg[2], fg[3] * auditOpacity(el, cs)], bg);
    const ratio = auditRatio(fg, bg);
    const weight = parseFloat(s.fontWeight) || (s.fontWeight === 'bold' ? 700 : 400);
    const bold = weight >= 700;
    const pt = Math.ceil(size * 72) / 96;
    const small = bold ? pt < 14 : pt < 18;
    const need = small ? 4.5 : 3;
    if (Math.floor(ratio * 100) / 100 === 1) continue; // same colours: hidden text, not low contrast
    if (ratio > need) continue;
    out.push({ el, ratio, need, fg: auditHex(fg), bg: auditHex(bg), size: Math.round(size * 10) / 10, bold });
  }
  return out;
}

// auditTextRects returns the boxes of an element's own text nodes.
function auditTextRects(el) {
  const range = document.createRange();
  const out = [];
  for (let c = el.firstChild; c; c = c.nextSibling) {
    if (c.nodeType !== 3 || !c.nodeValue.trim()) continue;
    range.selectNodeContents(c);
    for (const r of range.getClientRects()) if (r.width > 0 && r.height > 0) out.push(r);
  }
  return out;
}

// auditOnScreen tells text a sighted user can see: not hidden, not clipped to
// nothing (the screen-reader-only pattern) and not moved off the page.
function auditOnScreen(el, rects, cs) {
  const sx = window.scrollX, sy = window.scrollY;
  if (!rects.some((r) => r.right + sx > 0 && r.bottom + sy > 0)) return false;
  for (let e = el; e && e.nodeType === 1; e = e.parentElement || (e.getRootNode() && e.getRootNode().host)) {
    const s = cs(e);
    if (s.display === 'none' || s.visibility === 'hidden' || s.visibility === 'collapse' || parseFloat(s.opacity) === 0) return false;
    if (s.contentVisibility === 'hidden') return false;
    if (s.clip && s.clip !== 'auto' && (s.position === 'absolute' || s.position === 'fixed')) {
      const r = e.getBoundingClientRect();
      const m = /rect\(([-\d.]+)px,?\s*([-\d.]+)px,?\s*([-\d.]+)px,?\s*([-\d.]+)px\)/.exec(s.clip);
      if (m && (Math.abs(m[2] - m[4]) <= 1 || Math.abs(m[3] - m[1]) <= 1)) return false;
      if (r.width <= 1 || r.height <= 1) return false;
    }
    if (s.clipPath && /inset\(\s*50%/.test(s.clipPath)) return false;
    if (s.overflow !== 'visible' && s.overflow !== '' && e !== el) {
      const r = e.getBoundingClientRect();
      if (r.width <= 1 || r.height <= 1) return false;
      if (!rects.some((t) => t.right > r.left && t.left < r.right && t.bottom > r.top && t.top < r.bottom)) return false;
    }
  }
  return true;
}

// auditPseudoCover reports a ::before or ::after box of the element or an
// ancestor big enough to sit under the text (a background we cannot see).
function auditPseudoCover(el, cs) {
  const r = el.getBoundingClientRect();
  const min = r.width * r.height * 0.25;
  for (let e = el; e && e.nodeType === 1; e = e.parentElement) {
    for (const p of ['::before', '::after']) {
      const s = getComputedStyle(e, p);
      if (s.content === 'none' || s.content === 'normal' || s.display === 'none') continue;
      if (s.position !== 'absolute' && s.position !== 'fixed') continue;
      const bgVisible = s.backgroundImage !== 'none' || (auditParseColor(s.backgroundColor) || [0, 0, 0, 0])[3] > 0;
      if (!bgVisible) continue;
      const w = parseFloat(s.width) || 0, h = parseFloat(s.height) || 0;
      if (w * h > min) return true;
    }
    if (e !== el && cs(e).position !== 'static' && cs(e).position !== 'relative') break;
  }
  return false;
}

// auditBackground blends the backgrounds under the text. In the viewport it
// takes what the browser paints at the text's centre (elementsFromPoint);
// elsewhere, the element and its ancestors. Returns [r, g, b, 1] or null when
// an image, gradient or covering element makes the background unknowable.
function auditBackground(el, rects, cs) {
  let stack = null;
  const r = rects[0];
  const cx = r.left + r.width / 2, cy = r.top + r.height / 2;
  if (cx >= 0 && cy >= 0 && cx < innerWidth && cy < innerHeight) {
    const root = el.getRootNode();
    const hits = (root.elementsFromPoint ? root : document).elementsFromPoint(cx, cy);
    const i = hits.indexOf(el);
    if (i < 0) return null; // covered by something else
    if (i > 0) {
      // Something painted above the text that contains no part of it: an
      // overlay. Only see-through ones (pointer-events aside) are fine.
      for (let k = 0; k < i; k++) if (!hits[k].contains(el)) return null;
    }
    stack = hits.slice(i);
  }
  if (!stack) {
    stack = [];
    for (let e = el; e && e.nodeType === 1; e = e.parentElement || (e.getRootNode() && e.getRootNode().host)) stack.push(e);
  }
  const layers = [];
  for (const e of stack) {
    const s = cs(e);
    if (['IMG', 'CANVAS', 'OBJECT', 'IFRAME', 'VIDEO', 'svg', 'SVG'].includes(e.nodeName) && !e.contains(el)) return null;
    if (s.backgroundImage && s.backgroundImage !== 'none') return null;
    const c = auditParseColor(s.backgroundColor);
    if (!c) return null;
    const a = c[3] * (parseFloat(s.opacity) || 1);
    if (a === 0) continue;
    if (s.display !== 'inline' && e !== document.documentElement && e !== document.body && !auditEncloses(e, rects, s)) return null;
    layers.push([c[0], c[1], c[2], a]);
    if (a >= 1) break;
  }
  let bg = [255, 255, 255, 1];
  for (let i = layers.length - 1; i >= 0; i--) bg = auditFlatten(layers[i], bg);
  return bg;
}

function auditEncloses(e, rects, s) {
  const b = e.getBoundingClientRect();
  let right = b.right, bottom = b.bottom;
  if (s.overflow === 'auto' || s.overflow === 'scroll') {
    right = b.left + e.scrollWidth;
    bottom = b.top + e.scrollHeight;
  }
  return rects.every((r) => r.top >= b.top - 1 && r.bottom <= bottom + 1 && r.left >= b.left - 1 && r.right <= right + 1);
}

// auditOpacity multiplies the opacity of the element and its ancestors.
function auditOpacity(el, cs) {
  let o = 1;
  for (let e = el; e && e.nodeType === 1; e = e.parentElement) o *= parseFloat(cs(e).opacity) || 1;
  return o;
}

function auditParseColor(v) {
  let m = /^rgba?\(\s*([\d.]+)[,\s]+([\d.]+)[,\s]+([\d.]+)(?:[,\s/]+([\d.]+)(%?))?\s*\)$/.exec(v || '');
  if (m) {
    let a = m[4] === undefined ? 1 : parseFloat(m[4]);
    if (m[5]) a /= 100;
    return [+m[1], +m[2], +m[3], a];
  }
  if (v === 'transparent') return [0, 0, 0, 0];
  m = /^color\(srgb\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)(?:\s*\/\s*([\d.]+))?\)$/.exec(v || '');
  if (m) return [m[1] * 255, m[2] * 255, m[3] * 255, m[4] === undefined ? 1 : +m[4]];
  return null;
}

// auditFlatten paints colour c (with alpha) over an opaque backdrop.
function auditFlatten(c, under) {
  const a = c[3];
  return [c[0] * a + under[0] * (1 - a), c[1] * a + under[1] * (1 - a), c[2] * a + under[2] * (1 - a), 1];
}

// auditRatio is WCAG's contrast ratio of two opaque colours.
function auditRatio(a, b) {
  const lum = (c) => {
    const ch = c.slice(0, 3).map((v) => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
    });
    return 0.2126 * ch[0] + 0.7152 * ch[1] + 0.0722 * ch[2];
  };
  const la = lum(a), lb = lum(b);
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

function auditHex(c) {
  return '#' + c.slice(0, 3).map((v) => Math.round(v).toString(16).padStart(2, '0')).join('');
}

function auditDisabled(el) {
  for (let e = el; e && e.nodeType === 1; e = e.parentElement) {
    if (e.getAttribute('aria-disabled') === 'true' || e.inert) return true;
    if (e.matches(':disabled')) return true;
    if (e.nodeName === 'LABEL') {
      const c = e.control;
      if (c && c.matches(':disabled')) return true;
    }
  }
  return false;
}

// auditHeadingLevel returns an element's heading level, or 0 when it is no
// heading (as axe-core reads aria-level and role=heading).
function auditHeadingLevel(el) {
  const m = /^H([1-6])$/.exec(el.nodeName);
  const role = (el.getAttribute('role') || '').trim().split(/\s+/)[0];
  if (role && role !== 'heading') return 0;
  if (!m && role !== 'heading') return 0;
  const aria = parseInt(el.getAttribute('aria-level'), 10);
  if (m && !el.hasAttribute('aria-level')) return +m[1];
  if (isNaN(aria) || aria < 1) return m ? +m[1] : 2;
  return aria;
}

// auditHiddenFromAT tells an element screen readers do not see.
function auditHiddenFromAT(el, cs) {
  for (let e = el; e && e.nodeType === 1; e = e.parentElement || (e.getRootNode() && e.getRootNode().host)) {
    if (e.getAttribute('aria-hidden') === 'true') return true;
    const s = cs(e);
    if (s.display === 'none' || (e === el && s.visibility === 'hidden')) return true;
  }
  return false;
}

// auditFocusableInside returns the first element in (or being) el that a
// keyboard user can tab to, or null.
function auditFocusableInside(el, cs) {
  const cands = [el, ...el.querySelectorAll('a[href], area[href], button, input, select, textarea, iframe, summary, [tabindex], [contenteditable]:not([contenteditable="false"]), audio[controls], video[controls]')];
  for (const e of cands) {
    if (e.tabIndex < 0 || e.matches(':disabled') || e.inert) continue;
    if (e.nodeName === 'INPUT' && e.type === 'hidden') continue;
    if (!e.hasAttribute('tabindex') && !e.matches('a[href], area[href], button, input, select, textarea, iframe, summary, [contenteditable]:not([contenteditable="false"]), audio[controls], video[controls]')) continue;
    let shown = true;
    for (let a = e; a && a.nodeType === 1; a = a.parentElement) {
      const s = cs(a);
      if (s.display === 'none' || s.visibility === 'hidden') { shown = false; break; }
    }
    if (shown) return e;
  }
  return null;
}

// auditDuplicateARIAIds finds ids that several elements share and that an ARIA
// attribute or a label's for points at; each maps to its elements.
function auditDuplicateARIAIds(all) {
  const refd = new Set();
  const ATTRS = ['aria-labelledby', 'aria-describedby', 'aria-controls', 'aria-owns', 'aria-activedescendant', 'aria-details', 'aria-errormessage', 'aria-flowto', 'aria-describedat'];
  const byId = new Map();
  for (const el of all) {
    for (const a of ATTRS) {
      const v = el.getAttribute(a);
      if (v) for (const id of v.trim().split(/\s+/)) refd.add(id);
    }
    if (el.nodeName === 'LABEL' && el.htmlFor) refd.add(el.htmlFor);
    if (el.id) {
      const key = (el.getRootNode() === document ? '' : 'shadow:') + el.id;
      if (!byId.has(key)) byId.set(key, []);
      byId.get(key).push(el);
    }
  }
  const out = [];
  for (const [key, els] of byId) {
    const id = key.startsWith('shadow:') ? key.slice(7) : key;
    if (els.length > 1 && refd.has(id) && els[0].getRootNode() === els[1].getRootNode()) out.push([id, els]);
  }
  return out;
}

function auditValidLang(lang) {
  const primary = lang.split(/[-_]/)[0];
  if (!/^[a-z]{2,3}$/i.test(primary) && !/^(i|x)$/i.test(primary)) return false;
  try {
    return Intl.getCanonicalLocales(lang.replace(/_/g, '-')).length === 1;
  } catch (e) {
    return false;
  }
}

// auditShort is an element's opening tag, cut short.
function auditShort(el) {
  let s = '<' + el.localName;
  for (const a of ['id', 'type', 'role', 'name', 'href', 'src', 'class']) {
    const v = el.getAttribute(a);
    if (v !== null) s += ' ' + a + '="' + (v.length > 40 ? v.slice(0, 39) + '…' : v) + '"';
    if (s.length > 90) break;
  }
  return s + '>';
}

// auditDescribe names an element: its ref (handed out through the page model),
// a CSS selector that finds it again, its opening tag, its box in the viewport
// and a little of its text.
function auditDescribe(el, st) {
  const ref = globalThis.__cdpmcp ? __cdpmcp.assign(el, st) : 0;
  const r = el.getBoundingClientRect();
  const text = (el.textContent || '').replace(/\s+/g, ' ').trim();
  return {
    ref, selector: auditSelector(el), html: auditShort(el),
    text: text.length > 60 ? text.slice(0, 59) + '…' : text,
    box: [Math.round(r.left), Math.round(r.top), Math.round(r.width), Math.round(r.height)],
  };
}

// auditSelector builds a selector that matches el alone: an id where it is
// unique, else a path of :nth-of-type steps from the nearest such id. Inside a
// shadow root the path starts at the root (cdpmcp's selectors search open
// shadow roots).
function auditSelector(el) {
  const root = el.getRootNode();
  const esc = (s) => (window.CSS && CSS.escape ? CSS.escape(s) : s.replace(/[^\w-]/g, '\\$&'));
  const unique = (e) => e.id && root.querySelectorAll('#' + esc(e.id)).length === 1;
  const steps = [];
  for (let e = el; e && e.nodeType === 1; e = e.parentElement) {
    if (unique(e)) {
      steps.unshift('#' + esc(e.id));
      break;
    }
    if (e === document.documentElement) {
      steps.unshift('html');
      break;
    }
    let step = e.localName.includes(':') ? esc(e.localName) : e.localName;
    const parent = e.parentElement;
    if (parent) {
      let n = 0, same = 0;
      for (let s = parent.firstElementChild; s; s = s.nextElementSibling) {
        if (s.localName === e.localName) {
          same++;
          if (s === e) n = same;
        }
      }
      if (same > 1) step += ':nth-of-type(' + n + ')';
    }
    steps.unshift(step);
    if (!parent) break;
  }
  return steps.join(' > ');
}

// auditNameRule says which rule an element with no accessible name breaks,
// given the role the browser's accessibility tree gives it; '' when none.
function auditNameRule(el, axRole) {
  const tag = el.localName;
  const role = (el.getAttribute('role') || '').trim().split(/\s+/)[0];
  const type = (el.getAttribute('type') || '').toLowerCase();
  if (tag === 'img') return 'image-alt';
  if (tag === 'input' && type === 'image') return 'input-image-alt';
  if (tag === 'area') return 'area-alt';
  if (tag === 'iframe' || tag === 'frame') return 'frame-title';
  if (tag === 'svg') return role === 'img' || role === 'image' || role === 'graphics-document' || role === 'graphics-symbol' ? 'svg-img-alt' : '';
  if (role === 'img' || role === 'image') return 'role-img-alt';
  if (tag === 'a' && el.hasAttribute('href') && (!role || role === 'link')) return 'link-name';
  if (tag === 'button' && !role) return 'button-name';
  if (tag === 'input' && ['button', 'submit', 'reset'].includes(type)) return 'input-button-name';
  if (tag === 'select' && !role) return 'select-name';
  // A placeholder names a field for axe-core (and for Chrome when empty).
  const placeholder = (el.getAttribute('placeholder') || el.getAttribute('aria-placeholder') || '').trim();
  if ((tag === 'input' || tag === 'textarea') && !role) return placeholder ? '' : 'label';
  switch (role) {
    case 'link': case 'button': case 'menuitem': return 'aria-command-name';
    case 'combobox': case 'listbox': case 'searchbox': case 'slider': case 'spinbutton': case 'textbox': return 'aria-input-field-name';
    case 'checkbox': case 'menuitemcheckbox': case 'menuitemradio': case 'radio': case 'switch': case 'option': return 'aria-toggle-field-name';
    case 'treeitem': return 'aria-treeitem-name';
    case 'progressbar': return 'aria-progressbar-name';
    case 'meter': return 'aria-meter-name';
    case 'tooltip': return 'aria-tooltip-name';
    case 'dialog': case 'alertdialog': return 'aria-dialog-name';
    case 'tab': case 'menu': case 'menubar': case 'tablist': case 'tree': case 'grid': return '';
  }
  if (tag === 'input' || tag === 'textarea' || tag === 'select' || tag === 'button') return 'label';
  return '';
}

// auditNamed describes the elements (arguments after base and scope) that the
// accessibility tree gives no name, with the rule each breaks; elements outside
// scope and those no rule covers come back as null.
function auditNamed(base, scope, roles, ...els) {
  const st = { last: base };
  const out = els.map((el, i) => {
    if (!el || el.nodeType !== 1 || (scope && !scope.contains(el))) return null;
    const rule = auditNameRule(el, roles[i]);
    if (!rule) return null;
    return { rule, el: auditDescribe(el, st) };
  });
  return { found: out, last: st.last };
}

// auditDescribeAll describes the elements passed after base (null for those
// gone), handing out refs.
function auditDescribeAll(base, ...els) {
  const st = { last: base };
  return { found: els.map((el) => (el && el.nodeType === 1 && el.isConnected ? auditDescribe(el, st) : null)), last: st.last };
}

// auditTimeline reads the page's own performance timeline (buffered entries,
// which page scripts cannot alter for this world): navigation timing, paints,
// LCP and its element, layout shifts and their elements, long tasks, slow
// interactions and resource timing.
function auditTimeline(base) {
  return (async () => {
    const st = { last: base };
    const buffered = (type) => new Promise((resolve) => {
      if (!PerformanceObserver.supportedEntryTypes.includes(type)) return resolve([]);
      let done = false;
      const o = new PerformanceObserver((list) => { if (!done) { done = true; o.disconnect(); resolve(list.getEntries()); } });
      try { o.observe({ type, buffered: true, durationThreshold: 16 }); } catch (e) { return resolve([]); }
      setTimeout(() => { if (!done) { done = true; o.disconnect(); resolve([]); } }, 100);
    });
    const nav = performance.getEntriesByType('navigation')[0];
    const fcp = performance.getEntriesByName('first-contentful-paint')[0];
    const [lcps, shifts, tasks, events] = await Promise.all([buffered('largest-contentful-paint'), buffered('layout-shift'), buffered('longtask'), buffered('event')]);
    const out = { resources: [], shifts: [], tasks: [], last: 0 };
    if (nav) {
      out.ttfb = nav.responseStart;
      out.load = nav.loadEventEnd || undefined;
      out.url = nav.name;
      out.status = nav.responseStatus;
    }
    if (fcp) out.fcp = fcp.startTime;
    const lcp = lcps[lcps.length - 1];
    if (lcp) {
      out.lcp = lcp.startTime;
      out.lcpElement = { kind: lcp.url ? 'image' : 'text', url: lcp.url || '', size: lcp.size, el: lcp.element && lcp.element.isConnected ? auditDescribe(lcp.element, st) : null };
    }
    // Session windows, as Lighthouse and web-vitals count CLS.
    let best = 0, bestSet = [], cur = 0, curSet = [], start = 0, last = 0;
    for (const s of shifts) {
      if (s.hadRecentInput) continue;
      if (!curSet.length || s.startTime - last > 1000 || s.startTime - start > 5000) { cur = 0; curSet = []; start = s.startTime; }
      cur += s.value; curSet.push(s); last = s.startTime;
      if (cur > best) { best = cur; bestSet = curSet.slice(); }
    }
    out.cls = best;
    for (const s of bestSet) {
      out.shifts.push({ at: s.startTime, score: s.value, elements: (s.sources || []).filter((x) => x.node && x.node.nodeType === 1 && x.node.isConnected).slice(0, 5).map((x) => auditDescribe(x.node, st)) });
    }
    for (const t of tasks) out.tasks.push({ at: t.startTime, duration: t.duration });
    let inp = 0;
    for (const e of events) if (e.interactionId) inp = Math.max(inp, e.duration);
    if (inp) out.inp = inp;
    for (const r of performance.getEntriesByType('resource')) {
      out.resources.push({ url: r.name, type: r.initiatorType, bytes: r.transferSize, body: r.decodedBodySize, encoded: r.encodedBodySize,
        start: r.startTime, end: r.responseEnd, status: r.responseStatus || 0, blocking: r.renderBlockingStatus === 'blocking' });
    }
    out.last = st.last;
    return out;
  })();
}

// auditLinksOf lists the addresses the page's links and image-map areas point
// at (absolute, as the browser resolved them), open shadow roots included.
function auditLinksOf() {
  const out = new Set();
  for (const el of auditElements(document.documentElement)) {
    if ((el.localName === 'a' || el.localName === 'area') && el.hasAttribute('href')) out.add(el.href);
  }
  return [...out].slice(0, 2000);
}
