// The performance audit's reading of a page's own timeline (perftimeline.go).

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
