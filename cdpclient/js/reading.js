// What a person reads on a page and what is chrome around it, for the page model
// (snapshot.js). readingHelpers(h) takes lineHelpers() and returns:
//   findMain(doc)          the element that holds the page's running text, and
//                          how much running text each element holds
//   chromeKind(el, s, found) why el's lines can be summarised (menu, footer, links,
//                          …) or '' when they are reading text; s counts what the
//                          walk emitted inside el: {chars, linkChars, elems, lines}
//   listKind(el), items(el) whether el is a list or a data table, and how many
//                          items or rows it has
function readingHelpers(h) {
  const PROSE = 'p, pre, blockquote, li, dd, td, figcaption';
  const HINT = /(?:^|[\s_-])(nav|navbar|navigation|menus?|megamenu|masthead|header|footer|sidebar|breadcrumbs?|related|recommended|recirc|more-stories|share|sharing|social|tags|promo|newsletter|subscribe|toolbar|pagination|pager|trending|popular|most-read|comments?|cookies?|consent|gdpr|banner|sponsored|advert|ads?|outbrain|taboola)(?:$|[\s_-])/i;
  const KINDS = {
    nav: 'menu', navbar: 'menu', navigation: 'menu', menu: 'menu', menus: 'menu', megamenu: 'menu', breadcrumb: 'menu',
    breadcrumbs: 'menu', toolbar: 'menu', pagination: 'menu', pager: 'menu', masthead: 'header', header: 'header',
    footer: 'footer', sidebar: 'sidebar', share: 'share bar', sharing: 'share bar', social: 'share bar',
    comment: 'comments', comments: 'comments', cookie: 'banner', cookies: 'banner', consent: 'banner', gdpr: 'banner',
    banner: 'banner', newsletter: 'banner', subscribe: 'banner', promo: 'banner', sponsored: 'banner', advert: 'banner',
    ad: 'banner', ads: 'banner', tags: 'tags',
  };
  const LANDMARKS = {
    navigation: 'menu', menu: 'menu', menubar: 'menu', tablist: 'menu', toolbar: 'menu', banner: 'header',
    contentinfo: 'footer', complementary: 'sidebar', search: 'search', dialog: 'banner', alertdialog: 'banner',
  };
  const SIDE = new Set(['comments', 'related list', 'sidebar', 'footer', 'banner']);
  const LISTS = new Set(['ul', 'ol', 'dl', 'menu']);
  const LIST_ROLES = new Set(['list', 'listbox', 'grid', 'table', 'tree', 'feed']);

  // findMain finds the element that holds the page's running text, scoring
  // paragraphs as Readability does (a point, one per comma, one per 100
  // letters up to three; link text left out) and giving the score to their
  // parent, half to the grandparent and less further up. The main element is
  // the best scored one, widened to hold the others that score close to it (an
  // article split by ads). It also returns how much running text each element
  // holds (weight) and in all (total), so chrome never swallows the text.
  function findMain(doc) {
    const body = doc.body;
    const weight = new Map();
    const res = { main: null, weight, total: 0 };
    if (!body) return res;
    const score = new Map();
    for (const b of body.querySelectorAll(PROSE)) {
      if (b.localName !== 'p' && b.localName !== 'pre' && b.querySelector('p')) continue; // its paragraphs count
      const t = b.textContent;
      let w = t.length;
      if (w < 25) continue;
      for (const a of b.getElementsByTagName('a')) w -= a.textContent.length;
      if (w < 25) continue;
      res.total += w;
      // Commas between links (a list of names) say nothing about prose.
      const sc = 1 + Math.min(t.split(',').length - 1, Math.floor(w / 30)) + Math.min(Math.floor(w / 100), 3);
      let level = 0;
      for (let a = b.parentElement; a && a !== body && level < 30; a = a.parentElement, level++) {
        weight.set(a, (weight.get(a) || 0) + w);
        if (level < 5) score.set(a, (score.get(a) || 0) + sc / (level === 0 ? 1 : level === 1 ? 2 : level * 3));
      }
    }
    if (res.total < 500) return res;
    let top = null;
    let best = 0;
    for (const [el, sc] of score) if (sc > best) { best = sc; top = el; }
    if (!top) return res;
    // Comments and related stories score as prose too, but do not widen it.
    const aside = (el) => {
      for (let a = el; a && !a.contains(top); a = a.parentElement) if (SIDE.has(hintKind(a)[0])) return true;
      return false;
    };
    const peers = [...score].filter(([el, sc]) => sc >= 0.35 * best && el !== top && !top.contains(el) && !el.contains(top) && !aside(el)).map(([el]) => el);
    let main = top;
    while (main && main !== body && !peers.every((p) => main.contains(p))) main = main.parentElement;
    res.main = main && main !== body ? main : top;
    return res;
  }

  // hintKind says what el is by its tag or role (a landmark) or by the words in
  // its id and classes (a hint), and which of the two it was.
  function hintKind(el) {
    if (el.localName === 'nav') return ['menu', true];
    if (el.localName === 'aside') return ['sidebar', true];
    const r = h.role(el);
    if (LANDMARKS[r]) return [LANDMARKS[r], true];
    if (el.localName === 'footer' || el.localName === 'header') {
      // Only a page's (or a landmark's) header and footer, not an article's.
      if (!el.parentElement || !el.parentElement.closest('article, main, section, [role=main], [role=article]')) return [el.localName, true];
      return ['', false];
    }
    const m = HINT.exec((el.id || '') + ' ' + (el.getAttribute('class') || ''));
    return [m ? KINDS[m[1].toLowerCase()] || 'related list' : '', false];
  }

  // chromeKind decides whether the lines the walk emitted inside el are chrome.
  // Inside the main text only lists of short links are; outside it, landmarks and hinted
  // containers are unless they hold mostly text, comments and related stories
  // even then, and link lists always. A container that holds much of the page's
  // running text never is, unless the main text is elsewhere and it is comments.
  function chromeKind(el, s, found) {
    const main = found.main;
    if (main && (el === main || el.contains(main))) return '';
    const [kind, landmark] = hintKind(el);
    if ((!main || kind !== 'comments') && (found.weight.get(el) || 0) >= 0.25 * found.total) return '';
    const ld = s.chars ? s.linkChars / s.chars : 1;
    if (main && main.contains(el)) {
      if (kind && ld >= 0.5 && s.elems >= 3) return kind;
      // A list of short links is navigation; links with long names (a list of
      // bugs fixed, of sources) are part of the text.
      return ld >= 0.7 && s.elems >= 8 && s.linkChars / s.elems < 25 ? 'links' : '';
    }
    if (kind === 'comments' || kind === 'related list') return kind;
    if (kind && (landmark ? ld >= 0.2 || s.chars < 600 : ld >= 0.3 || s.chars < 300)) return kind;
    return ld >= 0.5 && s.elems >= 5 ? 'links' : '';
  }

  // listKind says whether el holds a list of items ('list') or a data table's
  // rows ('table'); a layout table is neither.
  function listKind(el) {
    if (LISTS.has(el.localName)) return 'list';
    if (el.localName === 'table') return h.isDataTable(el) ? 'table' : '';
    const r = h.role(el);
    return LIST_ROLES.has(r) ? (r === 'grid' || r === 'table' ? 'table' : 'list') : '';
  }

  // items counts a list's items or a table's rows.
  function items(el) {
    return el.localName === 'table' ? el.rows.length : el.childElementCount;
  }

  return { findMain, chromeKind, listKind, items };
}
