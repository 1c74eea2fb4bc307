// Resolves with the document's scroll position once it reaches y, or once it
// has not moved for 100 ms (the end of the page), looking at each frame: when
// a wheel scroll has been applied.
(y) => new Promise((resolve) => {
  let last = scrollY, still = performance.now();
  const look = () => {
    const now = performance.now();
    if (scrollY !== last) { last = scrollY; still = now; }
    if (Math.round(scrollY) === y || now - still > 100) return resolve(scrollY);
    requestAnimationFrame(look);
  };
  look();
})
