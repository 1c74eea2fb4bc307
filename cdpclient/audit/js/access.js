// The accessibility audit's page side (access.go): the checks the
// accessibility tree does not answer directly.

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
    // Cut to two decimals as axe-core does (2.848 is 2.84), in the message and
    // the data alike: a ratio just under the need never reads as meeting it.
    const ratio = Math.floor(f.ratio * 100) / 100;
    add('color-contrast', f.el, 'contrast ' + ratio.toFixed(2) + ':1, needs ' + f.need + ':1 (' + f.fg + ' on ' + f.bg + ', ' + f.size + 'px' + (f.bold ? ' bold' : '') + ')',
      { ratio, need: f.need });
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
  // A link keeps axe-core's link-name whatever role it is given (role=button,
  // menuitem, menu…): its rule looks at every a[href].
  if (tag === 'a' && el.hasAttribute('href')) return 'link-name';
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
