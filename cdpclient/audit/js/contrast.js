// Colour contrast as WCAG 2.2 AA and axe-core measure it: the text colour over
// the backgrounds painted beneath it.

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
