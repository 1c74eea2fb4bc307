// pageFacts reads what a page states about itself, for structured extraction:
// JSON-LD blocks, microdata items, tables, label/value pairs (<dl>, two-column
// tables, "Label: value" lines), meta tags, the results of the given selector
// queries, and the state of a sign-in form. It only reads the DOM.
// queries: [{key, selector, attr, fields: [{key, selector, attr}]}]; without
// withStructure only the queries (and the sign-in form) are read.
function pageFacts(queries, withLogin, withStructure) {
  const clean = (s) => (s || '').replace(/\s+/g, ' ').trim();
  const textOf = (el) => clean(el.innerText !== undefined && el.isConnected ? el.innerText : el.textContent);
  const all = (root, sel) => {
    const out = [];
    const roots = [root];
    for (let i = 0; i < roots.length; i++) {
      for (const el of roots[i].querySelectorAll(sel)) out.push(el);
      const walker = document.createTreeWalker(roots[i], NodeFilter.SHOW_ELEMENT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        if (n.shadowRoot && n.shadowRoot.mode === 'open') roots.push(n.shadowRoot);
      }
    }
    return out;
  };
  const valueOf = (el, attr) => {
    if (attr) {
      const v = el.getAttribute(attr);
      if (v === null) return null;
      if ((attr === 'href' || attr === 'src') && el[attr]) return String(el[attr]);
      return v;
    }
    if (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' || el.tagName === 'SELECT') return el.value;
    if (el.tagName === 'META') return el.getAttribute('content');
    return textOf(el);
  };
  const facts = {url: location.href, title: document.title, meta: {}, jsonld: [], microdata: [], tables: [], pairs: [], selected: {}, errors: []};
  if (withStructure) structure();
  function structure() {

    for (const m of document.querySelectorAll('meta[name], meta[property]')) {
      const k = (m.getAttribute('property') || m.getAttribute('name')).toLowerCase();
      if (!(k in facts.meta)) facts.meta[k] = m.getAttribute('content') || '';
    }
    const h1 = document.querySelector('h1');
    if (h1) facts.meta.h1 = textOf(h1);

    for (const s of document.querySelectorAll('script[type="application/ld+json"]')) {
      try { facts.jsonld.push(JSON.parse(s.textContent)); } catch (e) { facts.errors.push('JSON-LD block is not valid JSON: ' + e.message); }
    }

    const microValue = (el) => {
      if (el.hasAttribute('itemscope')) return microItem(el);
      const tag = el.tagName;
      if (tag === 'META') return el.getAttribute('content') || '';
      if (tag === 'A' || tag === 'LINK' || tag === 'AREA') return el.href;
      if (tag === 'IMG' || tag === 'AUDIO' || tag === 'VIDEO' || tag === 'SOURCE' || tag === 'IFRAME' || tag === 'EMBED') return el.src;
      if (tag === 'OBJECT') return el.data;
      if (tag === 'DATA' || tag === 'METER') return el.getAttribute('value') || '';
      if (tag === 'TIME') return el.getAttribute('datetime') || textOf(el);
      if (el.hasAttribute('content')) return el.getAttribute('content');
      return textOf(el);
    };
    const microItem = (scope) => {
      const item = {type: (scope.getAttribute('itemtype') || '').split(/\s+/).filter(Boolean), props: {}};
      const walk = (node) => {
        for (const child of node.children) {
          if (child.hasAttribute('itemprop')) {
            for (const name of child.getAttribute('itemprop').split(/\s+/).filter(Boolean)) {
              (item.props[name] = item.props[name] || []).push(microValue(child));
            }
          }
          if (!child.hasAttribute('itemscope')) walk(child);
        }
      };
      walk(scope);
      return item;
    };
    for (const el of document.querySelectorAll('[itemscope]:not([itemprop])')) facts.microdata.push(microItem(el));

    const headingBefore = (el) => {
      for (let n = el; n && n !== document.body; n = n.parentElement) {
        for (let s = n.previousElementSibling; s; s = s.previousElementSibling) {
          if (/^H[1-6]$/.test(s.tagName)) return textOf(s);
          const h = s.querySelector && s.querySelector('h1,h2,h3,h4,h5,h6');
          if (h) return textOf(h);
        }
      }
      return '';
    };
    for (const t of Array.from(document.querySelectorAll('table')).slice(0, 50)) {
      const rows = Array.from(t.rows).filter((r) => r.closest('table') === t);
      if (rows.length === 0) continue;
      let headers = [];
      let body = rows;
      const headRow = t.tHead && t.tHead.rows[0] ? t.tHead.rows[0] : (Array.from(rows[0].cells).every((c) => c.tagName === 'TH') ? rows[0] : null);
      if (headRow) {
        headers = Array.from(headRow.cells).map(textOf);
        body = rows.filter((r) => r !== headRow && !(t.tHead && r.parentElement === t.tHead));
      }
      const cells = body.map((r) => Array.from(r.cells).map(textOf));
      const caption = t.caption ? textOf(t.caption) : '';
      facts.tables.push({caption, heading: headingBefore(t), headers, rows: cells.slice(0, 1000)});
      // Two-column rows with a header cell are label/value pairs.
      for (const r of body) {
        if (r.cells.length === 2 && (r.cells[0].tagName === 'TH' || headers.length === 0)) {
          facts.pairs.push({label: textOf(r.cells[0]), value: textOf(r.cells[1]), from: 'table'});
        }
      }
    }
    for (const dl of document.querySelectorAll('dl')) {
      let label = null;
      for (const c of dl.querySelectorAll('dt, dd')) {
        if (c.closest('dl') !== dl) continue;
        if (c.tagName === 'DT') label = textOf(c);
        else if (label !== null) facts.pairs.push({label, value: textOf(c), from: 'dl'});
      }
    }
    // "Label: value" in short text blocks.
    let seen = 0;
    for (const el of document.querySelectorAll('li, p, span, div, td, dd, strong')) {
      if (seen++ > 5000) break;
      if (el.children.length > 3) continue;
      const text = textOf(el);
      if (text.length > 200) continue;
      const m = text.match(/^([^:\n]{1,40}):\s+(.+)$/);
      if (m) facts.pairs.push({label: clean(m[1]), value: clean(m[2]), from: 'text'});
    }
  }

  for (const q of queries || []) {
    let els;
    try { els = all(document, q.selector); } catch (e) { facts.errors.push('x-selector ' + JSON.stringify(q.selector) + ' is not a valid CSS selector'); continue; }
    if (q.fields && q.fields.length) {
      facts.selected[q.key] = els.map((el) => {
        const o = {};
        for (const f of q.fields) {
          let sub = [];
          try { sub = f.selector ? all(el, f.selector) : [el]; } catch (e) { facts.errors.push('x-selector ' + JSON.stringify(f.selector) + ' is not a valid CSS selector'); }
          o[f.key] = sub.length ? valueOf(sub[0], f.attr) : null;
        }
        return o;
      });
    } else {
      facts.selected[q.key] = els.map((el) => valueOf(el, q.attr));
    }
  }

  if (withLogin) {
    const visible = (el) => {
      const r = el.getBoundingClientRect();
      const s = getComputedStyle(el);
      return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && s.display !== 'none';
    };
    const pw = all(document, 'input[type=password]').find(visible);
    const login = {password: !!pw, captcha: false, user: '', form: false, error: ''};
    if (pw) {
      login.form = !!pw.form;
      const scope = pw.form || document;
      const user = Array.from(scope.querySelectorAll('input[type=email], input[type=text], input:not([type])')).find(visible);
      if (user) login.user = user.id ? '#' + CSS.escape(user.id) : (user.name ? 'input[name="' + CSS.escape(user.name) + '"]' : '');
      login.error = signInError(pw, visible);
    }
    const captchaSel = 'iframe[src*="captcha" i], iframe[title*="captcha" i], iframe[src*="turnstile" i], .g-recaptcha, .h-captcha, .cf-turnstile, [id*="captcha" i], [class*="captcha" i]';
    // reCAPTCHA v3's badge and invisible widgets ask nothing of a person.
    const noChallenge = (el) => el.closest('.grecaptcha-badge') || (el.tagName === 'IFRAME' && /[?&]size=invisible/i.test(el.src || ''));
    login.captcha = all(document, captchaSel).some((el) => visible(el) && !noChallenge(el));
    // A one-time code's field (two-step verification): the browser's own
    // word for it, else a name, placeholder or label that says so.
    const otpWords = /one[- ]?time|\botp\b|totp|2fa|mfa|two[- ]?(step|factor)|verification code|security code|authenticat\w* code|\d[- ]digit code/i;
    login.otp = all(document, 'input:not([type=hidden]):not([type=password]):not([type=email])').some((el) => {
      if (!visible(el)) return false;
      if ((el.getAttribute('autocomplete') || '').includes('one-time-code')) return true;
      const label = el.labels && el.labels[0] ? el.labels[0].textContent : '';
      return otpWords.test([el.name, el.id, el.placeholder, el.getAttribute('aria-label'), label].join(' '));
    });
    facts.login = login;
  }

  // signInError is the message a sign-in page shows about the sign-in (the
  // site's "wrong password"): a visible alert or live region, else an element
  // named as an error, that is short and does not hold the form itself.
  function signInError(pw, visible) {
    const strong = /error|invalid|danger|fail|incorrect|wrong/i;
    const weak = /alert|warn|notice|message/i;
    const candidates = all(document, '[role=alert], [aria-live], [id], [class], [aria-invalid=true]');
    let best = '', rank = 0;
    for (const el of candidates) {
      if (el.contains(pw) || el === pw || el.localName === 'input' || el.localName === 'form') continue;
      const names = (el.id || '') + ' ' + (el.getAttribute('class') || '');
      const r = el.getAttribute('role') === 'alert' || /assertive|polite/.test(el.getAttribute('aria-live') || '') ? 3
        : strong.test(names) ? 2 : weak.test(names) ? 1 : 0;
      if (r <= rank || !visible(el)) continue;
      const t = textOf(el);
      if (t.length < 3 || t.length > 300) continue;
      best = t;
      rank = r;
      if (rank === 3) break;
    }
    return best;
  }
  return facts;
}
