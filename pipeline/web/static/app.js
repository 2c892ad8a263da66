'use strict';
/* sudoku-scan phone page: read a photo of a Sudoku (POST /api/read), let the person
   correct cells on the photo, then check, hint, solve and step through the solve
   (POST /api/solve, GET /api/steps/<id>/<n>.png). Plain ES2020, no modules, no inline
   anything (the page runs under a strict Content-Security-Policy). */
(() => {
  const $ = (id) => document.getElementById(id);
  const SVG_NS = 'http://www.w3.org/2000/svg';
  const EMPTY81 = '0'.repeat(81);

  const els = {
    input: $('photo-input'), photoLabel: $('photo-label'), start: $('start'),
    progress: $('progress'), status: $('status'), newBtn: $('btn-new'),
    reading: $('reading'), photoWrap: $('photo-wrap'), photo: $('photo-view'),
    overlay: $('grid-overlay'), summary: $('read-summary'), checkLine: $('check-line'),
    correctionsBox: $('corrections-box'), corrections: $('corrections'),
    result: $('result'), resultTitle: $('result-title'), resultText: $('result-text'),
    resultWrap: $('result-wrap'), resultImage: $('result-image'),
    hintTools: $('hint-tools'), reveal: $('reveal'), more: $('btn-more'),
    stepNav: $('step-nav'), stepLabel: $('step-label'), stepPrev: $('step-prev'), stepNext: $('step-next'),
    download: $('download'), share: $('share'), report: $('download-report'),
    hint: $('btn-hint'), check: $('btn-check'), solve: $('btn-solve'), steps: $('btn-steps'),
    pad: $('digit-pad'), padBackdrop: $('pad-backdrop'), padTitle: $('pad-title'), padNow: $('pad-now'),
    kindPrinted: $('pad-kind-printed'), kindMine: $('pad-kind-mine'), padCancel: $('pad-cancel'),
  };
  const actionButtons = [els.hint, els.check, els.solve, els.steps];
  const padDigits = [...document.querySelectorAll('.pad-digit')];

  // All the page's state, in one place.
  const initial = () => ({
    id: null, width: 0, height: 0, lattice: null, info: null,
    givens: EMPTY81, entries: EMPTY81, kinds: [],
    doubtful: new Set(), corrected: new Set(),
    busy: false, recheckPending: false,
    mode: null, hintLevel: 1, hintShown: false,
    solve: null, solveGivens: '', solveEntries: '', step: 0,
    padCell: -1, padKind: 'printed', padReturn: null, cursor: 40,
    imageUrl: '', imageName: '',
  });
  let state = initial();

  /* ---------- cells and geometry ---------- */
  const cellName = (i) => `r${Math.floor(i / 9) + 1}c${(i % 9) + 1}`;
  const cellIndex = (name) => {
    const m = /^r([1-9])c([1-9])$/.exec(String(name));
    return m ? (m[1] - 1) * 9 + (m[2] - 1) : -1;
  };
  const setChar = (s, i, ch) => s.slice(0, i) + ch + s.slice(i + 1);
  const countDigits = (s) => [...s].filter((ch) => ch !== '0').length;
  const digits81 = (s) => (typeof s === 'string' && /^[0-9]{81}$/.test(s) ? s : EMPTY81);
  const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;

  // Cell (r, c) is the quad lattice[r][c], [r][c+1], [r+1][c+1], [r+1][c] in photo pixels.
  function quad(i) {
    const L = state.lattice, r = Math.floor(i / 9), c = i % 9;
    return [L[r][c], L[r][c + 1], L[r + 1][c + 1], L[r + 1][c]];
  }
  function inside(x, y, poly) { // ray casting
    let hit = false;
    for (let a = 0, b = poly.length - 1; a < poly.length; b = a++) {
      const [xa, ya] = poly[a], [xb, yb] = poly[b];
      if ((ya > y) !== (yb > y) && x < ((xb - xa) * (y - ya)) / (yb - ya) + xa) hit = !hit;
    }
    return hit;
  }
  function cellAt(x, y) {
    if (!state.lattice) return -1;
    for (let i = 0; i < 81; i++) if (inside(x, y, quad(i))) return i;
    return -1;
  }
  const validLattice = (L) => Array.isArray(L) && L.length === 10 &&
    L.every((row) => Array.isArray(row) && row.length === 10 && row.every((p) => Array.isArray(p) && p.length >= 2));

  /* ---------- status and controls ---------- */
  function setStatus(text, isError = false) {
    els.status.textContent = text || '';
    els.status.classList.toggle('error', !!isError);
  }
  function updateControls() {
    const b = state.busy, has = !!state.id;
    actionButtons.forEach((btn) => { btn.disabled = b || !has; });
    els.more.disabled = b || !state.hintShown || state.hintLevel >= 4;
    const n = state.solve && state.solve.steps ? state.solve.steps.length : 0;
    els.stepPrev.disabled = b || state.step <= 0;
    els.stepNext.disabled = b || state.step >= n - 1;
    els.input.disabled = b;
    els.photoLabel.classList.toggle('is-disabled', b);
    els.newBtn.hidden = !has;
    els.newBtn.disabled = b;
  }
  function setBusy(b) { state.busy = b; updateControls(); }

  /* ---------- talking to the server ---------- */
  class ApiError extends Error {
    constructor(status, body, retryAfter) {
      super(apiMessage(status, body || {}, retryAfter));
      this.status = status;
      this.body = body || {};
    }
  }
  function apiMessage(status, body, retryAfter) {
    const said = typeof body.error === 'string' ? body.error : '';
    if (status === 503) return `Busy, try again in ${parseInt(retryAfter, 10) || 5} s`;
    if (status === 404) return 'This photo has expired on the server: please take the photo again (New photo).';
    if (status === 504) return said || 'That took too long: please try again.';
    if (status === 413) return said || 'The photo is too large.';
    if (status === 415) return said || 'That file is not an image.';
    return said || `The server answered ${status}.`;
  }
  function parseJSON(text) { try { return JSON.parse(text); } catch { return null; } }

  // POST /api/solve with the person's corrected grid plus `fields`.
  async function solveRequest(fields) {
    const form = new FormData();
    form.append('id', state.id);
    form.append('givens', state.givens);
    form.append('entries', state.entries);
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    const res = await fetch('/api/solve', { method: 'POST', body: form });
    const body = parseJSON(await res.text());
    if (!res.ok || !body) throw new ApiError(res.status, body, res.headers.get('Retry-After'));
    return body;
  }

  // Run one request at a time: buttons disabled, errors shown in #status.
  async function run(label, job) {
    if (state.busy) return;
    setBusy(true);
    setStatus(label);
    try {
      setStatus(await job());
    } catch (err) {
      setStatus(err instanceof ApiError ? err.message : `Network error: ${err.message}`, true);
      const doubt = err.body && err.body.doubtful;
      if (Array.isArray(doubt) && doubt.length) markDoubtful(doubt);
    } finally {
      setBusy(false);
      if (state.recheckPending) { state.recheckPending = false; recheck(); }
    }
  }

  /* ---------- 1. reading a photo (XHR for upload progress) ---------- */
  function readPhoto(file) {
    if (state.busy || !file) return;
    const form = new FormData();
    form.append('photo', file, file.name || 'photo.jpg');
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/read');
    els.progress.hidden = false;
    els.progress.value = 0;
    setBusy(true);
    setStatus('Uploading…');
    xhr.upload.onprogress = (e) => { if (e.lengthComputable) els.progress.value = e.loaded / e.total; };
    xhr.upload.onload = () => { els.progress.removeAttribute('value'); setStatus('Reading…'); };
    const done = () => { els.progress.hidden = true; setBusy(false); };
    xhr.onload = () => {
      done();
      const body = parseJSON(xhr.responseText);
      if (xhr.status === 200 && body) showReading(body);
      else setStatus(new ApiError(xhr.status, body, xhr.getResponseHeader('Retry-After')).message, true);
    };
    xhr.onerror = () => { done(); setStatus('Upload failed: is the server still reachable?', true); };
    xhr.send(form);
  }

  function showReading(d) {
    clearResult();
    state = Object.assign(initial(), {
      id: d.id, width: Number(d.width) || 0, height: Number(d.height) || 0, info: d,
      lattice: validLattice(d.lattice) ? d.lattice : null,
      givens: digits81(d.givens), entries: digits81(d.entries),
      kinds: Array.isArray(d.kinds) ? d.kinds.slice() : [],
    });
    // Doubtful cells, and the person's entries the reader could not make out: a "?" to tap.
    // On a page read, only a doubt about a digit is asked about: a cell the rules settled
    // as empty or as candidate marks cannot change the answer of a puzzle that has one
    // solution without it (a moire photo read right had 41 such cells in doubt).
    const asDigit = (n) => ['given', 'entry'].includes(state.kinds[cellIndex(n)]);
    const settled = (n) => d.status === 'read' && !asDigit(n);
    [...(d.doubtful || []).filter((n) => !settled(n)), ...(d.unclear || [])].forEach((n) => {
      const i = cellIndex(n); if (i >= 0) state.doubtful.add(i);
    });
    els.photo.src = d.photo;
    els.start.hidden = true;
    els.reading.hidden = false;
    els.checkLine.textContent = '';
    els.corrections.replaceChildren(...(d.corrections || []).map((t) => {
      const li = document.createElement('li');
      li.textContent = t;
      return li;
    }));
    els.correctionsBox.hidden = !(d.corrections || []).length;
    drawOverlay();
    updateSummary();
    updateControls();
    const turned = d.mirrored ? ' It was mirrored: shown the right way round.' : '';
    setStatus((d.status === 'read' ? 'Photo read.' : 'Photo read, with problems: see below.') + turned, d.status !== 'read');
    els.reading.scrollIntoView({ block: 'start' });
  }

  // The reader's problem and hint are phrases: shown as sentences, one after the other.
  function sentence(text) {
    const t = String(text).trim();
    return t && t[0].toUpperCase() + t.slice(1) + (/[.!?]$/.test(t) ? '' : '.');
  }

  function updateSummary() {
    const info = state.info || {};
    const parts = [];
    if (info.status && info.status !== 'read' && (state.doubtful.size || !state.corrected.size)) {
      parts.push(sentence(info.problem || 'The photo was hard to read.'));
      if (info.hint) parts.push(sentence(info.hint));
    }
    parts.push(`Read: ${plural(countDigits(state.givens), 'printed digit')}, ${countDigits(state.entries)} of yours.`);
    if (state.doubtful.size) parts.push(`${state.doubtful.size} not sure (red "?"): tap to fix.`);
    else if (state.corrected.size) parts.push(`${state.corrected.size} corrected by you.`);
    if (!state.lattice) parts.push('(The grid lines were not found, so cells cannot be tapped.)');
    els.summary.textContent = parts.join(' ');
  }

  function markDoubtful(names) {
    names.forEach((n) => { const i = cellIndex(n); if (i >= 0) state.doubtful.add(i); });
    drawOverlay();
    updateSummary();
  }

  /* ---------- 2. the overlay ---------- */
  function svgEl(tag, attrs, cls) {
    const el = document.createElementNS(SVG_NS, tag);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
    if (cls) el.setAttribute('class', cls);
    return el;
  }
  const points = (poly) => poly.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(' ');

  function drawOverlay() {
    const svg = els.overlay;
    svg.replaceChildren();
    if (!state.lattice || !state.width || !state.height) return;
    svg.setAttribute('viewBox', `0 0 ${state.width} ${state.height}`);
    for (let i = 0; i < 81; i++) {
      const q = quad(i);
      const cx = (q[0][0] + q[1][0] + q[2][0] + q[3][0]) / 4;
      const cy = (q[0][1] + q[1][1] + q[2][1] + q[3][1]) / 4;
      const size = Math.min(Math.hypot(q[1][0] - q[0][0], q[1][1] - q[0][1]),
        Math.hypot(q[3][0] - q[0][0], q[3][1] - q[0][1]));
      const inset = q.map(([x, y]) => [cx + (x - cx) * 0.86, cy + (y - cy) * 0.86]);
      const g = state.givens[i], m = state.entries[i], doubt = state.doubtful.has(i);
      const cls = doubt ? 'cell-doubtful' : g !== '0' ? 'cell-given' : m !== '0' ? 'cell-entry' : '';
      if (cls) svg.append(svgEl('polygon', { points: points(inset), 'vector-effect': 'non-scaling-stroke' }, cls));
      if (state.corrected.has(i) && (g !== '0' || m !== '0')) { // the digit the person chose
        const t = svgEl('text', { x: cx.toFixed(1), y: cy.toFixed(1), dy: '0.35em',
          'font-size': (size * 0.62).toFixed(1), 'stroke-width': (size * 0.09).toFixed(1) },
        g !== '0' ? 'digit-printed' : 'digit-mine');
        t.textContent = g !== '0' ? g : m;
        svg.append(t);
      }
      if (doubt) { // a small "?" towards the top-right corner
        const t = svgEl('text', { x: (cx + (q[1][0] - cx) * 0.6).toFixed(1),
          y: (cy + (q[1][1] - cy) * 0.6).toFixed(1), dy: '0.35em',
          'font-size': (size * 0.4).toFixed(1), 'stroke-width': (size * 0.07).toFixed(1) }, 'cell-q');
        t.textContent = '?';
        svg.append(t);
      }
    }
    svg.append(svgEl('polygon', { points: points(quad(state.cursor)), 'vector-effect': 'non-scaling-stroke' }, 'cell-cursor'));
  }

  // A tap on the photo: client point -> photo pixels -> cell.
  els.photoWrap.addEventListener('click', (e) => {
    if (!state.lattice) return;
    const r = els.photo.getBoundingClientRect();
    if (!r.width || !r.height) return;
    const i = cellAt((e.clientX - r.left) * state.width / r.width, (e.clientY - r.top) * state.height / r.height);
    if (i >= 0) openPad(i);
  });
  // Keyboard: arrows move a cursor cell, Enter/Space opens the pad on it.
  els.photoWrap.addEventListener('keydown', (e) => {
    if (!state.lattice) return;
    const moves = { ArrowUp: -9, ArrowDown: 9, ArrowLeft: -1, ArrowRight: 1 };
    if (e.key in moves) {
      e.preventDefault();
      const r = Math.floor(state.cursor / 9), c = state.cursor % 9, d = moves[e.key];
      if ((d === -1 && c === 0) || (d === 1 && c === 8) || (d === -9 && r === 0) || (d === 9 && r === 8)) return;
      state.cursor += d;
      els.photoWrap.setAttribute('aria-label', `Puzzle photo, cell ${cellName(state.cursor)}: Enter corrects it, arrow keys move`);
      drawOverlay();
    } else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      openPad(state.cursor);
    }
  });

  /* ---------- the digit pad ---------- */
  function setPadKind(kind) {
    state.padKind = kind;
    els.kindPrinted.setAttribute('aria-pressed', String(kind === 'printed'));
    els.kindMine.setAttribute('aria-pressed', String(kind === 'mine'));
  }
  function openPad(i) {
    const name = cellName(i), g = state.givens[i], m = state.entries[i], doubt = state.doubtful.has(i);
    state.padCell = i;
    state.cursor = i;
    state.padReturn = document.activeElement;
    els.pad.setAttribute('aria-label', `Correct cell ${name}`);
    els.padTitle.textContent = `Cell ${name} (row ${Math.floor(i / 9) + 1}, column ${(i % 9) + 1})`;
    els.padNow.textContent = (g !== '0' ? `Now: printed ${g}` : m !== '0' ? `Now: yours, ${m}` : 'Now: empty') +
      (doubt ? ' (not sure)' : '');
    // A cell holding the person's digit stays theirs, doubtful or not (a doubtful
    // handwritten digit is to be read again, not made part of the print).
    setPadKind(m !== '0' && g === '0' ? 'mine' : 'printed');
    const cur = g !== '0' ? g : m;
    padDigits.forEach((b) => b.classList.toggle('current', b.dataset.digit === cur));
    els.padBackdrop.hidden = false;
    els.pad.hidden = false;
    document.body.classList.add('no-scroll');
    els.photoWrap.classList.add('pad-target');
    drawOverlay();
    (padDigits.find((b) => b.dataset.digit === cur && cur !== '0') || padDigits[0]).focus();
  }
  function closePad() {
    if (els.pad.hidden) return;
    els.pad.hidden = true;
    els.padBackdrop.hidden = true;
    document.body.classList.remove('no-scroll');
    els.photoWrap.classList.remove('pad-target');
    state.padCell = -1;
    const back = state.padReturn && state.padReturn.isConnected ? state.padReturn : els.photoWrap;
    back.focus({ preventScroll: true });
  }
  function chooseDigit(d) {
    const i = state.padCell;
    if (i < 0) return;
    const printed = state.padKind === 'printed';
    state.givens = setChar(state.givens, i, d !== '0' && printed ? d : '0');
    state.entries = setChar(state.entries, i, d !== '0' && !printed ? d : '0');
    state.kinds[i] = d === '0' ? 'empty' : printed ? 'given' : 'entry';
    state.corrected.add(i);
    state.doubtful.delete(i);
    closePad();
    drawOverlay();
    updateSummary();
    if (state.mode === 'solve' || state.mode === 'steps') clearResult(); // no longer this grid's solve
    recheck();
  }
  padDigits.forEach((b) => b.addEventListener('click', () => chooseDigit(b.dataset.digit)));
  els.kindPrinted.addEventListener('click', () => setPadKind('printed'));
  els.kindMine.addEventListener('click', () => setPadKind('mine'));
  els.padCancel.addEventListener('click', closePad);
  els.padBackdrop.addEventListener('click', closePad);
  els.pad.addEventListener('keydown', (e) => { // keep Tab inside the dialog
    if (e.key !== 'Tab') return;
    const f = [...els.pad.querySelectorAll('button:not([disabled])')];
    const first = f[0], last = f[f.length - 1];
    if (e.shiftKey && document.activeElement === first) { e.preventDefault(); last.focus(); }
    else if (!e.shiftKey && document.activeElement === last) { e.preventDefault(); first.focus(); }
  });
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && !els.pad.hidden) { e.preventDefault(); closePad(); }
  });

  /* ---------- check (after a correction, and the Check button) ---------- */
  const UNCHECKED = 'Entries: not checked: the printed puzzle has no single solution to compare them with.';
  function checkLine(d) {
    const wrong = d.mistakes || [], n = d.entries_checked || 0, unclear = d.unclear || [];
    const tail = unclear.length ? ` Not read, so not checked: ${unclear.join(', ')} (tap to type your digit).` : '';
    if (d.entries_status === 'unchecked') return `${UNCHECKED}${tail}`;
    if (!n) return 'Entries: none of yours to check.' + tail;
    return `Entries: ${n} checked, ` + (wrong.length ? `${wrong.length} wrong: ${wrong.join(', ')}.` : 'all right.') + tail;
  }
  // What the check's picture shows (the count stays in the check line under the grid).
  function checkPicture(d) {
    const wrong = d.mistakes || [], unclear = d.unclear || [];
    const parts = [];
    if (d.entries_status === 'unchecked') {
      parts.push('Nothing is marked on the picture: without one solution there is nothing to compare your entries with.');
    } else if (wrong.length) {
      parts.push(`A ring on the picture marks each wrong entry: ${wrong.join(', ')}. ` +
        'Your right entries are left as you wrote them; no right digit is given away.');
    } else if (d.entries_checked) {
      parts.push('Every entry read is right: the picture leaves them as they are.');
    }
    if (unclear.length) parts.push(`A dashed ring marks what could not be read: ${unclear.join(', ')}.`);
    return parts.join(' ') || 'There are no entries of yours on the picture to check.';
  }
  function recheck() {
    if (!state.id) return;
    if (state.busy) { state.recheckPending = true; return; }
    run('Checking your grid…', async () => {
      try {
        els.checkLine.textContent = checkLine(await solveRequest({ mode: 'check' }));
        els.checkLine.classList.remove('error');
      } catch (err) {
        els.checkLine.textContent = err.message;
        els.checkLine.classList.add('error');
        throw err;
      }
      return '';
    });
  }

  /* ---------- 3. results ---------- */
  function setMode(mode, title) {
    els.report.hidden = true; // a solve shows it again (showSolve)
    const changed = state.mode !== mode;
    state.mode = mode;
    els.result.hidden = false;
    els.resultTitle.textContent = title;
    els.hintTools.hidden = mode !== 'hint';
    els.stepNav.hidden = mode !== 'steps';
    els.resultWrap.classList.toggle('tappable', mode === 'solve');
    actionButtons.forEach((b) => b.classList.toggle('active', b.dataset.mode === mode));
    if (changed) els.result.scrollIntoView({ block: 'start' });
  }
  function clearResult() {
    state.mode = null;
    els.result.hidden = true;
    els.resultText.textContent = '';
    actionButtons.forEach((b) => b.classList.remove('active'));
    showImage(null, '');
  }
  // Show (or with no url, hide) the result image, its Download link and Share button.
  function showImage(url, name) {
    state.imageUrl = url || '';
    state.imageName = name;
    if (!url) els.resultImage.removeAttribute('src');
    els.resultWrap.hidden = !url;
    els.download.hidden = !url;
    if (url) { els.download.href = url; els.download.setAttribute('download', name); }
    els.share.hidden = !(url && canShare(name));
  }
  // Load a result image into #result-image; on failure fetch it again for the
  // server's {"error"} line (a 503 with Retry-After, an expired id...).
  function loadImage(url, name) {
    if (!url) { showImage(null, ''); return Promise.resolve(); }
    const img = els.resultImage;
    return new Promise((resolve, reject) => {
      img.onload = () => resolve();
      img.onerror = () => fetch(url).then(async (res) => {
        reject(new ApiError(res.ok ? 500 : res.status, parseJSON(await res.text()), res.headers.get('Retry-After')));
      }, reject);
      if (img.src === new URL(url, location.href).href && img.complete && img.naturalWidth) resolve();
      else img.src = url;
    }).then(() => showImage(url, name));
  }
  const fileOf = (blob, name) => new File([blob], name, { type: blob.type || 'image/png' });
  function canShare(name) {
    try {
      return !!(navigator.share && navigator.canShare &&
        navigator.canShare({ files: [fileOf(new Blob([], { type: 'image/png' }), name)] }));
    } catch { return false; }
  }
  els.share.addEventListener('click', async () => {
    if (!state.imageUrl) return;
    try {
      const blob = await (await fetch(state.imageUrl)).blob(); // usually from the cache
      await navigator.share({ files: [fileOf(blob, state.imageName)], title: 'Sudoku' });
    } catch (err) {
      if (err.name !== 'AbortError') setStatus(`Could not share: ${err.message}`, true);
    }
  });

  // Hint: level 1 first, "More" goes up to 4.
  function doHint(level) {
    run('Finding a hint…', async () => {
      const fields = { mode: 'hint', level: String(level) };
      if (els.reveal.checked) fields.reveal = '1';
      const d = await solveRequest(fields);
      state.hintLevel = level;
      state.hintShown = !!d.hint;
      setMode('hint', d.hint ? `Hint, level ${level} of 4` : 'Hint');
      let text = d.hint ? d.hint.text : d.message || 'No hint for this grid.';
      const right = d.right_digits ? Object.entries(d.right_digits) : [];
      if (right.length) text += `${/[.!?]$/.test(text) ? '' : '.'} Right digits: ${right.map(([c, v]) => `${c} = ${v}`).join(', ')}.`;
      els.resultText.textContent = text;
      els.more.textContent = level < 4 ? `More (level ${level + 1})` : 'More';
      await loadImage(d.hint ? d.image : null, `sudoku-hint-${level}.png`);
      return '';
    });
  }

  // Solve once per grid; Steps reuses it (same givens/entries for the step images).
  async function fetchSolve() {
    if (state.solve && state.solveGivens === state.givens && state.solveEntries === state.entries) return state.solve;
    const givens = state.givens, entries = state.entries;
    const d = await solveRequest({ mode: 'solve' });
    Object.assign(state, { solve: d, solveGivens: givens, solveEntries: entries, step: 0 });
    return d;
  }
  function solveLine(d) {
    const n = (d.steps || []).length, diff = d.difficulty;
    let t = d.status === 'solved' ? `Solved in ${plural(n, 'step')}` : `${d.status || 'Done'} after ${plural(n, 'step')}`;
    if (diff && diff.name) t += `, hardest: ${diff.name}`;
    t += '.';
    if (d.message) t += ` ${d.message}`;
    if ((d.mistakes || []).length) t += ` Wrong entries: ${d.mistakes.join(', ')}.`;
    if ((d.unclear || []).length) t += ` Not read, so not checked: ${d.unclear.join(', ')}.`;
    if ((d.placed || []).length) t += ' Tap a written digit to see why it goes there.';
    return t;
  }
  function showSolve(d) {
    setMode('solve', 'Solution');
    els.resultText.textContent = solveLine(d);
    const shown = loadImage(d.image, 'sudoku-solved.png');
    // The step-by-step report of this solve, to download (it is not shown in the app).
    els.report.hidden = !d.report;
    if (d.report) els.report.href = d.report;
    return shown;
  }
  async function showStep(k) {
    const steps = state.solve.steps, s = steps[k];
    state.step = k;
    els.stepLabel.textContent = `Step ${k + 1} of ${steps.length}`;
    els.resultText.textContent = (s.text || s.name || '') + (s.words ? `\n\nIn words: ${s.words}` : '');
    updateControls();
    const q = new URLSearchParams({ givens: state.solveGivens, entries: state.solveEntries });
    await loadImage(`/api/steps/${encodeURIComponent(state.id)}/${k}.png?${q}`, `sudoku-step-${k + 1}.png`);
  }

  // In the solved image, a tap on a written digit tells the step that placed it.
  els.resultWrap.addEventListener('click', (e) => {
    if (state.mode !== 'solve' || !state.solve || !state.lattice) return;
    const r = els.resultImage.getBoundingClientRect();
    if (!r.width) return;
    const s = state.width / r.width; // same width as the photo; a legend strip may follow below
    const x = (e.clientX - r.left) * s, y = (e.clientY - r.top) * s;
    if (y > state.height) return;
    const i = cellAt(x, y);
    if (i >= 0) els.resultText.textContent = explainCell(i);
  });
  function explainCell(i) {
    const name = cellName(i), d = state.solve, steps = d.steps || [];
    const p = (d.placed || []).find((x) => x.cell === name);
    if (!p) {
      const g = state.solveGivens[i], m = state.solveEntries[i];
      if (g !== '0') return `${name}: printed ${g}.`;
      if (m !== '0') return `${name}: your ${m}` + ((d.mistakes || []).includes(name) ? ', which is wrong.' : '.');
      if ((d.unclear || []).includes(name)) return `${name}: your digit here could not be read, so it was not checked.`;
      return `${name}: no digit was placed here.`;
    }
    const step = steps[p.step];
    let text = `${name} = ${p.digit}: ${step ? step.text : p.technique}`;
    const needed = (p.needed || []).map((n) => steps[n] && steps[n].name).filter(Boolean);
    if (needed.length) text += ` — after ${needed.join(', ')}`;
    return text;
  }

  /* ---------- buttons ---------- */
  els.hint.addEventListener('click', () => doHint(1));
  els.more.addEventListener('click', () => doHint(Math.min(state.hintLevel + 1, 4)));
  els.reveal.addEventListener('change', () => { if (state.mode === 'hint') doHint(state.hintLevel); });
  els.check.addEventListener('click', () => run('Checking your entries…', async () => {
    const d = await solveRequest({ mode: 'check' });
    setMode('check', 'Check of your entries');
    els.checkLine.textContent = checkLine(d);
    els.resultText.textContent = checkPicture(d);
    els.checkLine.classList.remove('error');
    await loadImage(d.image, 'sudoku-check.png');
    return '';
  }));
  els.solve.addEventListener('click', () => run('Solving…', async () => {
    await showSolve(await fetchSolve());
    return '';
  }));
  els.steps.addEventListener('click', () => run('Solving…', async () => {
    const d = await fetchSolve();
    if (!(d.steps || []).length) {
      await showSolve(d);
      return 'No steps to show.';
    }
    setMode('steps', 'Steps');
    await showStep(Math.min(state.step, d.steps.length - 1));
    return '';
  }));
  els.stepPrev.addEventListener('click', () => run('Drawing the step…', async () => {
    await showStep(Math.max(state.step - 1, 0));
    return '';
  }));
  els.stepNext.addEventListener('click', () => run('Drawing the step…', async () => {
    await showStep(Math.min(state.step + 1, state.solve.steps.length - 1));
    return '';
  }));

  els.input.addEventListener('change', () => {
    const file = els.input.files && els.input.files[0];
    els.input.value = ''; // so the same file can be chosen again
    readPhoto(file);
  });
  els.newBtn.addEventListener('click', () => { // start over
    if (state.busy) return;
    closePad();
    clearResult();
    state = initial();
    els.overlay.replaceChildren();
    els.photo.removeAttribute('src');
    els.reading.hidden = true;
    els.start.hidden = false;
    setStatus('');
    updateControls();
    window.scrollTo(0, 0);
    els.input.focus({ preventScroll: true });
  });

  updateControls();
})();
