// What a person reads on a page and what is chrome around it, for the page model
// (snapshot.js). readingHelpers(h) takes lineHelpers() and returns tracker(st,
// root): the walk tells it which blocks it enters and leaves and the text lines
// it emits; it keeps a record of each block, {el, parent, from, to (its lines),
// chars, linkChars, elems, h1 (what it emitted, counted in st), own, commas (its
// own running text), weight (running text inside it), score}, and when the walk
// is done classify() finds the main text and the groups of lines that are
// chrome or long lists.
function readingHelpers(h) {
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
  // Lines a group needs before it is worth summarising, elements that make one
  // line a link farm, and items (list items, table rows) that make a list long
  // enough to be a group.
  const GROUP_LINES = 3;
  const FARM = 20;
  const LONG_LIST = 20;
  const SIDE = new Set(['comments', 'related list', 'sidebar', 'footer', 'banner']);
  const LISTS = new Set(['ul', 'ol', 'dl', 'menu']);
  const LIST_ROLES = new Set(['list', 'listbox', 'grid', 'table', 'tree', 'feed']);

  // paragraphScore scores a paragraph as Readability does: a point, one per
  // comma (commas between links, as in a list of names, are not the paragraph's),
  // one per 100 letters up to three.
  function paragraphScore(own, commas) {
    return 1 + Math.min(commas, Math.floor(own / 30)) + Math.min(Math.floor(own / 100), 3);
  }

  // contains says whether block a is block b or holds it.
  function contains(a, b) {
    for (let x = b; x; x = x.parent) if (x === a) return true;
    return false;
  }

  // findMain finds the block that holds the page's running text: the best
  // scored one (paragraphs give their score to their parent, half to the
  // grandparent, less further up), widened to hold the others that score close
  // to it (an article split by ads), but not comments or related stories.
  function findMain(scored, total, whole) {
    const found = { main: null, total };
    if (!whole || total < 500) return found;
    let top = null;
    let best = 0;
    for (const b of scored) if (b.score > best) { best = b.score; top = b; }
    if (!top) return found;
    const aside = (b) => {
      for (let a = b; a && !contains(a, top); a = a.parent) if (SIDE.has(hintKind(a.el)[0])) return true;
      return false;
    };
    const peers = scored.filter((b) => b.score >= 0.35 * best && !contains(top, b) && !contains(b, top) && !aside(b));
    let main = top;
    while (main && !peers.every((p) => contains(main, p))) main = main.parent;
    found.main = main || top;
    return found;
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

  // chromeKind decides whether the lines the walk emitted inside block b are
  // chrome. Inside the main text only lists of short links are; outside it,
  // landmarks and hinted containers are unless they hold mostly text, comments
  // and related stories even then, and link lists always. A block that holds
  // much of the page's running text never is, unless it is comments beside it.
  function chromeKind(b, found) {
    const main = found.main;
    if (main && contains(b, main)) return '';
    const [kind, landmark] = hintKind(b.el);
    if ((!main || kind !== 'comments') && b.weight >= 0.25 * found.total) return '';
    const ld = b.chars ? b.linkChars / b.chars : 1;
    // The page's title is where the reading starts, not chrome.
    if (b.h1 && !landmark) return '';
    if (main && contains(main, b)) {
      if (kind && ld >= 0.5 && b.elems >= 3) return kind;
      // A list of short links is navigation; links with long names (a list of
      // bugs fixed, of sources) are part of the text.
      return ld >= 0.7 && b.elems >= 8 && b.linkChars / b.elems < 25 ? 'links' : '';
    }
    if (kind === 'comments' || kind === 'related list') return kind;
    if (kind && (landmark ? ld >= 0.2 || b.chars < 600 : ld >= 0.3 || b.chars < 300)) return kind;
    return ld >= 0.5 && b.elems >= 5 ? 'links' : '';
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

  // tracker keeps the records of the blocks the walk goes through. st counts
  // what the walk emitted (chars, linkChars, elems, h1); at is how many lines.
  function tracker(st, root) {
    let open = null; // the innermost block the walk is in
    const candidates = []; // blocks whose lines may be summarised
    const scored = []; // blocks that hold paragraphs
    let total = 0; // the running text's length
    return {
      enter(el, at) {
        open = { el, parent: open, from: at, to: 0, chars: st.chars, linkChars: st.linkChars, elems: st.elems, h1: st.h1, own: 0, commas: 0, weight: 0, score: 0 };
        return open;
      },
      leave(b, at) {
        b.to = at;
        b.chars = st.chars - b.chars;
        b.linkChars = st.linkChars - b.linkChars;
        b.elems = st.elems - b.elems;
        b.h1 = st.h1 - b.h1;
        open = b.parent;
        if (b.own >= 25) {
          total += b.own;
          b.weight += b.own;
          const sc = paragraphScore(b.own, b.commas);
          for (let a = b.parent, level = 0; a && level < 5; a = a.parent, level++) {
            if (a.score === 0) scored.push(a);
            a.score += sc / (level === 0 ? 1 : level === 1 ? 2 : level * 3);
          }
        }
        if (open) open.weight += b.weight;
        // One line can be a link farm too (a paragraph of a thousand names).
        if (b.el !== root && (b.to - b.from >= GROUP_LINES || b.elems >= FARM)) candidates.push(b);
      },
      // prose counts a text line's words (not its links) for the block it ends.
      prose(parts) {
        if (!open) return;
        for (const g of parts) {
          if (g.t === undefined) continue;
          open.own += g.t.trim().length;
          for (let i = g.t.indexOf(','); i >= 0; i = g.t.indexOf(',', i + 1)) open.commas++;
        }
      },
      // text counts a table row's text.
      text(n) {
        if (open) open.own += n;
      },
      // classify returns the main text's lines ({from, to} or null) and the
      // groups of lines to summarise: [{from, to, el, kind}].
      classify(whole) {
        const found = findMain(scored, total, whole);
        const groups = [];
        for (const c of candidates) {
          let kind = chromeKind(c, found);
          if (!kind && items(c.el) >= LONG_LIST) kind = listKind(c.el);
          if (kind) groups.push({ from: c.from, to: c.to, el: c.el, kind });
        }
        return { main: found.main && { from: found.main.from, to: found.main.to }, groups };
      },
    };
  }

  return { tracker };
}
