package tools

// The oracles of the corpus test (corpus_test.go): what a person reads on each
// page and what a person can click there, told apart from the page model.

// visibleControls counts, independently of the page model, the links, buttons
// and form controls a user can see (rendered, not clipped away, not a hidden
// slide of a carousel, in the document or an open shadow root) and reports those
// whose ref is missing from snap.
// It runs in the page model's world, where refOf maps an element to its ref.
const visibleControls = `(snap) => {
  const sel = 'a[href], area[href], button, input:not([type=hidden]), select, textarea';
  const roots = [document];
  for (let i = 0; i < roots.length; i++) {
    for (const el of roots[i].querySelectorAll('*')) if (el.shadowRoot) roots.push(el.shadowRoot);
  }
  // clipped: inside a box that is collapsed, or wholly beside a box that clips
  // its overflow sideways (a carousel's other slides).
  const clipped = (el) => {
    const box = el.getBoundingClientRect();
    for (let a = el.parentElement || el.getRootNode().host; a; a = a.parentElement || (a.getRootNode && a.getRootNode().host)) {
      const s = getComputedStyle(a);
      if (s.overflow === 'visible') continue;
      const r = a.getBoundingClientRect();
      if (r.width <= 1 || r.height <= 1) return true;
      if ((s.overflowX === 'hidden' || s.overflowX === 'clip') && (box.right <= r.left + 1 || box.left >= r.right - 1)) return true;
    }
    return false;
  };
  // The refs the snapshot lists, read once (testing each element against
  // the whole text cost minutes of renderer time over the corpus).
  const listed = new Set();
  for (const m of snap.matchAll(/(?:^|[^0-9])([0-9]+)\[:\]</g)) listed.add(m[1]);
  let counted = 0;
  const missing = [];
  for (const root of roots) {
    for (const el of root.querySelectorAll(sel)) {
      const r = el.getBoundingClientRect();
      if (r.width <= 1 || r.height <= 1) continue;
      if (!el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true }) || clipped(el)) continue;
      counted++;
      // An element inside another one that is listed counts as listed.
      let ok = false;
      for (let a = el; a && !ok; a = a.parentElement || (a.getRootNode().host)) {
        const ref = __cdpmcp.refOf(a);
        if (ref && listed.has(String(ref))) ok = true;
      }
      if (!ok) missing.push(el.outerHTML.slice(0, 160));
    }
  }
  return { counted, missing };
}`

// corpusBounds holds, for each corpus page, the least share of its article the
// default snapshot must carry and the most estimated tokens it may cost: the
// measured figures (make readbench) with a margin, so a regression fails.
var corpusBounds = map[string]struct {
	recall float64
	tokens int
}{
	"aclu":                           {0.98, 4000},
	"archive-of-our-own":             {0.98, 7100},
	"ars-1":                          {0.98, 1550},
	"base-url-base-element-relative": {0.98, 500},
	"bbc-1":                          {0.98, 3050},
	"breitbart":                      {0.98, 1600},
	"bug-1255978":                    {0.96, 4200},
	"cnn":                            {0.98, 1450},
	"daringfireball-1":               {0.98, 900},
	"dropbox-blog":                   {0.98, 5400},
	"ehow-1":                         {0.98, 1350},
	"embedded-videos":                {0.98, 350},
	"firefox-nightly-blog":           {0.98, 4250},
	"folha":                          {0.98, 1750},
	"gitlab-blog":                    {0.98, 2250},
	"google-sre-book-1":              {0.98, 8050},
	"guardian-1":                     {0.98, 3000},
	"heise":                          {0.98, 1200},
	"herald-sun-1":                   {0.98, 2300},
	"ietf-1":                         {0.97, 14450},
	"la-nacion":                      {0.98, 2700},
	"lemonde-1":                      {0.98, 4200},
	"lwn-1":                          {0.98, 8450},
	"medium-1":                       {0.97, 4700},
	"mercurial":                      {0.98, 8850},
	"mozilla-1":                      {0.98, 950},
	"nytimes-1":                      {0.98, 2250},
	"qq":                             {0.91, 1750},
	"royal-road":                     {0.98, 9950},
	"rtl-1":                          {0.98, 250},
	"telegraph":                      {0.98, 1650},
	"theverge":                       {0.98, 2000},
	"v8-blog":                        {0.98, 4850},
	"wapo-1":                         {0.98, 3150},
	"webmd-1":                        {0.98, 1600},
	"wikia":                          {0.98, 2100},
	"wikipedia-2":                    {0.37, 15150},
	"wikipedia":                      {0.97, 13850},
	"wordpress":                      {0.98, 2250},
	"yahoo-4":                        {0.98, 2250},
}
