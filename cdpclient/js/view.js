// What of the page model's lines is on screen, so that fitting a snapshot into
// its budget keeps it (a long list scrolled to its middle keeps the items in
// view). viewHelpers(h) takes lineHelpers() and returns spans(at, st), a generator like the walk's
// (walk.js): given the element each line came from, it returns the runs of
// lines [from, to) whose element's box meets the viewport.
function viewHelpers(h) {
  const TICK = 256;

  return {
    *spans(at, st) {
      const out = [];
      const w = innerWidth;
      const hgt = innerHeight;
      let prev = null;
      let seen = false;
      let from = -1;
      let n = 0;
      for (let i = 0; i <= at.length; i++) {
        const el = i < at.length ? at[i] : null;
        if (el !== prev) {
          if (++n % TICK === 0 && performance.now() > st.sliceEnd) yield;
          prev = el;
          seen = false;
          if (el && el.isConnected && el.getBoundingClientRect) {
            const r = h.rectOf(el);
            seen = r.width > 0 && r.height > 0 && r.bottom > 0 && r.right > 0 && r.top < hgt && r.left < w;
          }
        }
        if (seen && from < 0) from = i;
        if (!seen && from >= 0) {
          out.push([from, i]);
          from = -1;
        }
      }
      return out;
    },
  };
}
