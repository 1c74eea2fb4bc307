// The live view: draws the tab's frames and passes the person's mouse, touch,
// keyboard and window size to it, until they hand it back. See
// liveview/stream.go for the frame stream and liveview/input.go for the events.
'use strict';
(() => {
  const $ = (id) => document.getElementById(id);
  const base = location.pathname.replace(/\/+$/, '');
  const stage = $('stage'), canvas = $('screen'), keys = $('keys');
  const g = canvas.getContext('2d', {alpha: false});
  const isMac = /Mac|iPhone|iPad/.test(navigator.platform || '');
  const coarse = matchMedia('(pointer: coarse)').matches;

  // Counters a person (or a test) can read; nothing of the tab.
  const view = {frames: 0, firstFrameMs: 0, ended: false}; // firstFrameMs: since the page was opened
  window.liveView = view;
  let meta = null;      // the last frame's viewport: {w, h} in DIPs, scale: DIPs per CSS pixel
  let drawn = null;     // where it is drawn: {left, top, width, height} in CSS pixels
  let aborter = null;

  function status(text, error) {
    const s = $('status');
    s.textContent = text || '';
    s.classList.toggle('error', !!error);
  }

  function ended(why) {
    if (view.ended) return;
    view.ended = true;
    if (aborter) aborter.abort();
    $('overlay-text').textContent = why;
    $('overlay').hidden = false;
    $('dialog').hidden = true;
    for (const b of document.querySelectorAll('button')) b.disabled = true;
    status('');
  }

  // ---- frames
  function parse(buf) {
    if (buf.length < 4) return null;
    const dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    const hl = dv.getUint32(0);
    if (buf.length < 8 + hl) return null;
    const il = dv.getUint32(4 + hl);
    if (buf.length < 8 + hl + il) return null;
    const header = JSON.parse(new TextDecoder().decode(buf.subarray(4, 4 + hl)));
    return {header, image: buf.slice(8 + hl, 8 + hl + il), used: 8 + hl + il};
  }

  async function stream() {
    aborter = new AbortController();
    let res;
    try {
      // Frames as sharp as this screen shows them.
      const px = (n) => Math.round(n * (devicePixelRatio || 1));
      res = await fetch(base + '/frames?w=' + px(stage.clientWidth) + '&h=' + px(stage.clientHeight), {cache: 'no-store', signal: aborter.signal});
    } catch (e) {
      return reconnect();
    }
    if (res.status === 410 || res.status === 404) return ended('This view is closed.');
    if (!res.ok || !res.body) return reconnect();
    const reader = res.body.getReader();
    let buf = new Uint8Array(0);
    try {
      for (;;) {
        const {value, done} = await reader.read();
        if (done) break;
        const next = new Uint8Array(buf.length + value.length);
        next.set(buf);
        next.set(value, buf.length);
        buf = next;
        for (let m = parse(buf); m; m = parse(buf)) {
          buf = buf.subarray(m.used);
          await onMessage(m.header, m.image);
        }
      }
    } catch (e) {
      // The connection broke: try again below.
    }
    reconnect();
  }

  function reconnect() {
    if (view.ended) return;
    status('Connection lost; reconnecting…', true);
    setTimeout(stream, 1000);
  }

  async function onMessage(h, image) {
    if (h.hello) {
      $('title').textContent = h.title || 'A browser tab waits for you';
      $('reason').textContent = h.reason ? '— ' + h.reason : '';
      $('done').disabled = $('giveup').disabled = false;
      status('Connected. Click into the picture to act in the tab; press Done when you are finished.');
      sendSize();
      return;
    }
    if (h.end) return ended(h.end);
    if (h.url !== undefined && document.activeElement !== $('url')) $('url').value = h.url;
    showDialog(h.dialog);
    if (!image.length) return;
    const bmp = await createImageBitmap(new Blob([image], {type: 'image/jpeg'}));
    if (canvas.width !== bmp.width || canvas.height !== bmp.height) {
      canvas.width = bmp.width;
      canvas.height = bmp.height;
    }
    g.drawImage(bmp, 0, 0);
    bmp.close();
    meta = {w: h.w || bmp.width, h: h.h || bmp.height, scale: h.scale || 1};
    layout();
    view.frames++;
    if (view.frames === 1) view.firstFrameMs = performance.now();
  }

  // layout fits the tab's viewport into the stage, at 1:1 when it fits.
  function layout() {
    if (!meta) return;
    const sw = stage.clientWidth, sh = stage.clientHeight;
    const k = Math.min(1, sw / meta.w, sh / meta.h);
    const width = meta.w * k, height = meta.h * k;
    drawn = {left: (sw - width) / 2, top: (sh - height) / 2, width, height};
    Object.assign(canvas.style, {left: drawn.left + 'px', top: drawn.top + 'px', width: width + 'px', height: height + 'px'});
  }

  // at maps a point of the page to the tab's viewport, in CSS pixels (a
  // phone layout is zoomed out: fewer DIPs per CSS pixel).
  function at(e) {
    const r = stage.getBoundingClientRect();
    if (!drawn || !meta) return null;
    return {
      x: Math.round(((e.clientX - r.left - drawn.left) / drawn.width) * meta.w / meta.scale * 10) / 10,
      y: Math.round(((e.clientY - r.top - drawn.top) / drawn.height) * meta.h / meta.scale * 10) / 10,
    };
  }

  // ---- input, sent in order, one request at a time
  const queue = [];
  let sending = false;
  function send(ev) {
    if (view.ended) return;
    const last = queue[queue.length - 1];
    if (last && ev.t === 'm' && ev.e === 'move' && last.t === 'm' && last.e === 'move') queue[queue.length - 1] = ev;
    else if (last && ev.t === 'r' && last.t === 'r') queue[queue.length - 1] = ev;
    else queue.push(ev);
    pump();
  }
  async function pump() {
    if (sending || !queue.length) return;
    sending = true;
    const batch = queue.splice(0, queue.length);
    try {
      const res = await fetch(base + '/input', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify(batch)});
      // The frame stream says why the view ended; this is only the fallback.
      if (res.status === 410) setTimeout(() => ended('This view is closed.'), 1000);
      else if (!res.ok) {
        const j = await res.json().catch(() => ({}));
        // A dialog the input opened: the frame stream shows it, in order
        // with the frames (shown from here, a frame taken before it could
        // hide it again).
        if (!j.dialog) status(j.error || 'The tab did not take that input.', true);
      }
    } catch (e) {
      status('Could not reach cdpmcp; is it still running?', true);
    }
    sending = false;
    pump();
  }

  function mods(e) {
    let m = (e.altKey ? 1 : 0) | (e.ctrlKey ? 2 : 0) | (e.metaKey ? 4 : 0) | (e.shiftKey ? 8 : 0);
    if (e.getModifierState && e.getModifierState('AltGraph')) m &= ~3; // the character is the key
    return m;
  }
  const buttonName = ['left', 'middle', 'right'];

  // ---- mouse and touch
  let lastDown = {t: 0, x: 0, y: 0, b: -1, c: 0};
  const touches = new Map();
  function touchPoints() {
    return [...touches.entries()].map(([id, p]) => ({x: p.x, y: p.y, id}));
  }
  canvas.addEventListener('pointerdown', (e) => {
    const p = at(e);
    if (!p) return;
    e.preventDefault();
    canvas.setPointerCapture(e.pointerId);
    if (e.pointerType === 'touch') {
      touches.set(e.pointerId, p);
      send({t: 't', e: 'start', pts: touchPoints(), m: mods(e)});
      return;
    }
    keys.focus({preventScroll: true});
    const now = performance.now();
    const again = now - lastDown.t < 500 && Math.hypot(e.clientX - lastDown.x, e.clientY - lastDown.y) < 5 && e.button === lastDown.b;
    lastDown = {t: now, x: e.clientX, y: e.clientY, b: e.button, c: again ? Math.min(lastDown.c + 1, 3) : 1};
    send({t: 'm', e: 'down', x: p.x, y: p.y, b: buttonName[e.button] || 'left', bs: e.buttons, c: lastDown.c, m: mods(e)});
  });
  canvas.addEventListener('pointermove', (e) => {
    const p = at(e);
    if (!p) return;
    if (e.pointerType === 'touch') {
      if (!touches.has(e.pointerId)) return;
      touches.set(e.pointerId, p);
      send({t: 't', e: 'move', pts: touchPoints(), m: mods(e)});
      return;
    }
    send({t: 'm', e: 'move', x: p.x, y: p.y, bs: e.buttons, m: mods(e)});
  });
  const release = (e) => {
    const p = at(e);
    if (e.pointerType === 'touch') {
      if (!touches.delete(e.pointerId)) return;
      send(touches.size ? {t: 't', e: 'move', pts: touchPoints()} : {t: 't', e: e.type === 'pointercancel' ? 'cancel' : 'end', pts: []});
      return;
    }
    if (!p || e.type === 'pointercancel') return;
    send({t: 'm', e: 'up', x: p.x, y: p.y, b: buttonName[e.button] || 'left', bs: e.buttons, c: lastDown.c, m: mods(e)});
  };
  canvas.addEventListener('pointerup', release);
  canvas.addEventListener('pointercancel', release);
  canvas.addEventListener('contextmenu', (e) => e.preventDefault());
  canvas.addEventListener('wheel', (e) => {
    const p = at(e);
    if (!p) return;
    e.preventDefault();
    const k = e.deltaMode === 1 ? 40 : e.deltaMode === 2 ? stage.clientHeight : 1;
    send({t: 'w', x: p.x, y: p.y, dx: e.deltaX * k, dy: e.deltaY * k, m: mods(e)});
  }, {passive: false});

  // ---- keyboard: keys as keys; composed text (IME), paste and on-screen
  // keyboards as inserted text.
  function keyEvent(e, up) {
    let m = mods(e);
    // ⌘A, ⌘C, ⌘V… on a Mac are Ctrl+A… for the tab, which runs on Linux.
    if (isMac && e.metaKey && !e.ctrlKey && /^[acvxyz]$/i.test(e.key)) m = (m & ~4) | 2;
    let text = '';
    if (!up && [...e.key].length === 1 && !(m & 7)) text = e.key;
    if (!up && e.key === 'Enter' && !(m & 7)) text = '\r';
    return {t: 'k', e: up ? 'up' : 'down', key: e.key, code: e.code, kc: e.keyCode, text, m, loc: e.location, rep: e.repeat};
  }
  const pasteChord = (e) => (e.ctrlKey || e.metaKey) && !e.altKey && (e.key === 'v' || e.key === 'V');
  const composing = (e) => e.isComposing || e.keyCode === 229 || e.key === 'Process' || e.key === 'Unidentified' || e.key === 'Dead';
  keys.addEventListener('keydown', (e) => {
    if (composing(e) || pasteChord(e)) return;
    e.preventDefault();
    send(keyEvent(e, false));
  });
  keys.addEventListener('keyup', (e) => {
    if (composing(e) || pasteChord(e)) return;
    e.preventDefault();
    send(keyEvent(e, true));
  });
  keys.addEventListener('compositionend', (e) => {
    if (e.data) send({t: 'i', text: e.data});
    keys.value = '';
  });
  keys.addEventListener('input', (e) => {
    if (e.isComposing) return;
    if ((e.inputType === 'insertText' || e.inputType === 'insertReplacementText') && e.data) send({t: 'i', text: e.data});
    for (const [type, key, code, kc, text] of [['deleteContentBackward', 'Backspace', 'Backspace', 8, ''], ['insertLineBreak', 'Enter', 'Enter', 13, '\r']]) {
      if (e.inputType !== type) continue;
      send({t: 'k', e: 'down', key, code, kc, text});
      send({t: 'k', e: 'up', key, code, kc});
    }
    keys.value = '';
  });
  keys.addEventListener('paste', (e) => {
    e.preventDefault();
    const text = e.clipboardData && e.clipboardData.getData('text/plain');
    if (text) send({t: 'i', text});
  });

  // ---- the viewer's size becomes the tab's
  function sendSize() {
    layout();
    send({t: 'r', w: Math.round(stage.clientWidth), h: Math.round(stage.clientHeight), dpr: devicePixelRatio || 1, mobile: coarse});
  }
  let sizeTimer = 0;
  new ResizeObserver(() => {
    layout();
    clearTimeout(sizeTimer);
    sizeTimer = setTimeout(sendSize, 150);
  }).observe(stage);

  // ---- JavaScript dialogs of the tab
  let dialogShown = '';
  function showDialog(d) {
    const box = $('dialog');
    const key = d ? d.Type + '\n' + d.Message : '';
    if (key === dialogShown) return;
    dialogShown = key;
    box.hidden = !d;
    if (!d) return;
    $('dialog-text').textContent = 'The page says: ' + d.Message;
    $('dialog-input').hidden = d.Type !== 'prompt';
    $('dialog-input').value = d.DefaultPrompt || '';
    $('dialog-cancel').hidden = d.Type === 'alert';
  }
  function answerDialog(accept) {
    send({t: 'd', accept, text: accept ? $('dialog-input').value : ''});
    showDialog(null);
  }
  $('dialog-ok').addEventListener('click', () => answerDialog(true));
  $('dialog-cancel').addEventListener('click', () => answerDialog(false));

  // ---- handing back
  async function handBack(what, body) {
    $('done').disabled = $('giveup').disabled = true;
    try {
      const res = await fetch(base + '/' + what, {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body)});
      const j = await res.json().catch(() => ({}));
      if (res.ok) return ended(j.message || 'Done.');
      status(j.error || 'That did not work.', true);
    } catch (e) {
      status('Could not reach cdpmcp; is it still running?', true);
    }
    $('done').disabled = $('giveup').disabled = view.ended;
  }
  $('done').addEventListener('click', () => handBack('done', {}));
  $('giveup').addEventListener('click', () => {
    $('giveup-form').hidden = false;
    $('giveup-reason').focus();
  });
  $('giveup-back').addEventListener('click', () => { $('giveup-form').hidden = true; });
  $('giveup-form').addEventListener('submit', (e) => {
    e.preventDefault();
    $('giveup-form').hidden = true;
    handBack('giveup', {reason: $('giveup-reason').value});
  });
  if (coarse) {
    $('keyboard').hidden = false;
    $('keyboard').addEventListener('click', () => keys.focus());
  }

  stream();
})();
