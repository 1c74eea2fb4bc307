// What a person sees of an element: the one rule the page model's walk
// (walk.js) and getContent's reading (cdpclient/content) read a page by, so
// that the two agree. shownRules() returns seen(el, style, hidden, clip,
// display), display the style's if the caller read it already:
// null when nothing of el shows (display: none, opacity 0, hidden until
// found, a collapsed or clipped-away box such as screen-reader-only text or
// a closed panel, a carousel's slide beside the box it sits in, aria-hidden
// decoration: a glyph or an icon with no words and nothing to act on), else
// {hidden, clip} for its content: hidden when its own text is invisible
// (visibility hidden or collapse, inherited unless a child is visible again),
// clip the box that clips it ({l, r, d}: left and right edges, levels below
// it), or null. hidden and clip are the parent's.
function shownRules() {
  // How many levels below a clipping box (overflow hidden) boxes are checked
  // for lying outside it, as the slides of a carousel do.
  const CLIP_DEPTH = 4;
  const WORDS = /[\p{L}\p{N}]/u;
  const ACTIVE = 'a[href],button,input,select,textarea,[tabindex],[role=button],[role=link]';
  const REPLACED = new Set(['img', 'video', 'canvas', 'iframe', 'embed', 'object', 'input', 'select', 'textarea', 'button', 'svg', 'audio', 'meter', 'progress']);

  function visibleBox(el) {
    const r = el.getBoundingClientRect();
    return r.width > 1 && r.height > 1;
  }

  function seen(el, style, hidden, clip, display = style.display) {
    if (display === 'none' || style.opacity === '0' || el.getAttribute('hidden') === 'until-found') return null;
    if (el.getAttribute('aria-hidden') === 'true' && !WORDS.test(el.textContent) && !el.matches(ACTIVE) && !el.querySelector(ACTIVE)) return null;
    const vis = style.visibility;
    const hid = vis === 'hidden' || vis === 'collapse' ? true : vis === 'visible' ? false : hidden;
    if (display !== 'contents') {
      // Collapsed or clipped-away boxes (screen-reader-only text, closed
      // panels) show nothing; measuring every box would be slow, so only the
      // ones that can hide their content are measured.
      // An inline box that is not replaced is neither positioned out of
      // the flow (that makes it a block) nor clips its content: its
      // position and overflow are not read.
      const flowing = display === 'inline' && !REPLACED.has(el.localName);
      const pos = flowing ? 'static' : style.position;
      const ov = flowing ? 'visible' : style.overflow; // "hidden", or "hidden visible" when x and y differ
      if ((ov === 'hidden' || ov === 'clip' || pos === 'absolute' || pos === 'fixed') && !visibleBox(el)) return null;
      if (clip) {
        // A box wholly beside the clipping box it sits in (a carousel's other
        // slides) is not seen.
        const r = el.getBoundingClientRect();
        if (r.width > 0 && (r.right <= clip.l + 1 || r.left >= clip.r - 1)) return null;
        clip = clip.d < CLIP_DEPTH ? { l: clip.l, r: clip.r, d: clip.d + 1 } : null;
      }
      if (ov !== 'visible' && (ov.startsWith('hidden') || ov.startsWith('clip'))) {
        const r = el.getBoundingClientRect();
        clip = { l: r.left, r: r.right, d: 0 };
      }
    }
    return { hidden: hid, clip };
  }

  return { seen };
}
