// Veillée's phone page: holds one seat of a game opened to the room.
//
// It draws the seat's scene (the same scene JSON the launcher's window draws: boards as SVG,
// card zones, scores), lets the player walk the legal moves' click paths by tapping — the
// same rules as the window: a tap starts or continues a path, a complete path plays its
// move, several moves on one path are offered as buttons — and sends the chosen action id.
// After a drop (screen locked, Wi-Fi lost) it reconnects to the same seat with the claim the
// room gave this phone.
'use strict';

const WORDS = {
  fr: {
    yourTurn: 'À vous de jouer',
    waiting: (names) => `En attente de ${names}`,
    over: 'Partie terminée',
    winners: (names) => `Gagnant : ${names}`,
    draw: 'Égalité',
    chooseAmong: 'Choisissez :',
    clear: 'Annuler la sélection',
    reconnecting: 'Connexion perdue — reconnexion…',
    connecting: 'Connexion…',
    log: 'Journal',
    refused: 'Place refusée',
    noLink: 'Scannez le code QR de votre place sur le grand écran pour rejoindre la partie.',
    you: 'vous',
    dieFaces: (faces) => `faces : ${faces}`,
  },
  en: {
    yourTurn: 'Your turn',
    waiting: (names) => `Waiting for ${names}`,
    over: 'Game over',
    winners: (names) => `Winner: ${names}`,
    draw: 'Draw',
    chooseAmong: 'Choose:',
    clear: 'Clear the selection',
    reconnecting: 'Connection lost — reconnecting…',
    connecting: 'Connecting…',
    log: 'Log',
    refused: 'Seat refused',
    noLink: "Scan your seat's QR code on the big screen to join the game.",
    you: 'you',
    dieFaces: (faces) => `faces: ${faces}`,
  },
};

const SVG = 'http://www.w3.org/2000/svg';
const token = location.pathname.startsWith('/s/') ? decodeURIComponent(location.pathname.slice(3)) : '';
const claimKey = `veillee-claim:${token}`;

let lang = pickLanguage();
let socket = null;
let state = null;      // the latest state message
let seatName = '';
let selected = [];     // the click path chosen so far
let sending = false;   // a move is on its way
let refusedMessage = null;
let retries = 0;
let retryTimer = null;
let turnBefore = false;
let lastHeard = 0;     // when the room last said something (it says "alive" every 5 s)

// A connection that hears nothing for this long died without closing (Wi-Fi lost, a
// locked screen): the page drops it and connects again.
const SILENCE_MS = 15000;

function pickLanguage() {
  const saved = storage('get', 'veillee-lang');
  if (saved === 'fr' || saved === 'en') return saved;
  return (navigator.language || 'en').toLowerCase().startsWith('fr') ? 'fr' : 'en';
}

// localStorage where the browser allows it (a private window may not).
function storage(op, key, value) {
  try {
    if (op === 'get') return window.localStorage.getItem(key);
    window.localStorage.setItem(key, value);
  } catch (e) {
    return null;
  }
  return null;
}

const w = (key, ...args) => {
  const word = WORDS[lang][key];
  return typeof word === 'function' ? word(...args) : word;
};
const tr = (text) => (text ? (text[lang] || text.en || '') : '');
const $ = (id) => document.getElementById(id);

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') node.className = v;
    else if (k === 'text') node.textContent = v;
    else if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  children.forEach((c) => node.append(c));
  return node;
}

function svg(tag, attrs = {}) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

// ---- The connection -------------------------------------------------------------------

function connect() {
  if (!token) {
    showRefused(w('noLink'));
    return;
  }
  clearTimeout(retryTimer);
  const scheme = location.protocol === 'https:' ? 'wss://' : 'ws://';
  const ws = new WebSocket(`${scheme}${location.host}/ws`);
  socket = ws;
  banner(retries === 0 && !state ? w('connecting') : w('reconnecting'));
  ws.onopen = () => {
    const hello = { type: 'hello', token };
    const claim = storage('get', claimKey);
    if (claim) hello.claim = claim;
    ws.send(JSON.stringify(hello));
  };
  lastHeard = Date.now();
  ws.onmessage = (event) => {
    lastHeard = Date.now();
    let message;
    try {
      message = JSON.parse(event.data);
    } catch (e) {
      return;
    }
    receive(message);
  };
  ws.onclose = () => {
    if (socket !== ws) return;
    socket = null;
    sending = false;
    if (refusedMessage) return;
    banner(w('reconnecting'));
    retries += 1;
    retryTimer = setTimeout(connect, Math.min(5000, 500 * retries));
  };
}

// Gives up a connection that went silent and connects again at once.
function abandon() {
  const dead = socket;
  socket = null;
  sending = false;
  if (dead) dead.close();
  banner(w('reconnecting'));
  retries += 1;
  connect();
}

function silent() {
  return socket && socket.readyState !== WebSocket.CONNECTING && Date.now() - lastHeard > SILENCE_MS;
}
setInterval(() => { if (!refusedMessage && silent()) abandon(); }, 1000);

// Back from a locked screen or a lost network: try at once rather than wait for the timer.
function wake() {
  if (refusedMessage || document.visibilityState !== 'visible') return;
  if (!socket) {
    retries = 0;
    connect();
  } else if (silent()) {
    retries = 0;
    abandon();
  }
}
document.addEventListener('visibilitychange', wake);
window.addEventListener('online', wake);

function receive(message) {
  switch (message.type) {
    case 'welcome':
      retries = 0;
      seatName = message.name;
      if (message.claim) storage('set', claimKey, message.claim);
      banner('');
      render();
      break;
    case 'state':
      if (!state || state.version !== message.version) {
        selected = [];
        sending = false;
      }
      state = message;
      render();
      break;
    case 'error':
      sending = false;
      selected = [];
      toast(tr(message.message));
      render();
      break;
    case 'alive':
      break;
    case 'refused':
      refusedMessage = message;
      showEnd();
      break;
    default:
      break;
  }
}

function play(action) {
  if (!socket || socket.readyState !== WebSocket.OPEN || !state) return;
  sending = true;
  selected = [];
  socket.send(JSON.stringify({ type: 'act', action: action.id, version: state.version }));
  render();
}

// ---- Click paths (the window's rules, scene/mod.rs) -----------------------------------

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const key = (t) => JSON.stringify(t);
const startsWith = (path, prefix) => prefix.every((t, i) => path[i] && same(path[i], t));

function candidates() {
  return state.actions.filter((a) => a.path.length > 0 && startsWith(a.path, selected));
}

function nextTargets() {
  const next = new Set();
  candidates().forEach((a) => {
    if (a.path[selected.length]) next.add(key(a.path[selected.length]));
  });
  return next;
}

function firstTargets() {
  return new Set(state.actions.filter((a) => a.path.length).map((a) => key(a.path[0])));
}

function complete() {
  if (!selected.length) return [];
  return state.actions.filter((a) => a.path.length === selected.length && startsWith(a.path, selected));
}

// A tap on something that may stand for several targets (a stack of pieces and its cell).
function tap(targets) {
  if (sending) return;
  const next = nextTargets();
  const hit = targets.find((t) => next.has(key(t)));
  if (!hit) {
    if (selected.length) {
      selected = [];
      tap(targets);
    }
    render();
    return;
  }
  selected.push(hit);
  const done = complete();
  const longer = candidates().some((a) => a.path.length > selected.length);
  if (done.length === 1 && !longer) {
    play(done[0]);
    return;
  }
  render();
}

// ---- Drawing --------------------------------------------------------------------------

function render() {
  document.documentElement.lang = lang;
  $('lang').textContent = lang === 'fr' ? 'EN' : 'FR';
  $('log-title').textContent = w('log');
  document.body.classList.toggle('sending', sending);
  if (!state) {
    $('seat-name').textContent = seatName;
    return;
  }
  $('seat-name').textContent = seatName || state.players[state.seat] || '';
  $('game-name').textContent = tr(state.game);
  renderStatus();
  $('message').textContent = tr(state.scene.message);
  const lit = {
    first: firstTargets(),
    next: nextTargets(),
    selected: new Set(selected.map(key)),
  };
  renderChoices();
  renderZones(lit);
  renderBoards(lit);
  renderScores();
  renderLog();
}

function renderStatus() {
  const status = $('status');
  const mine = state.actions.length > 0;
  status.classList.toggle('turn', mine);
  if (state.status.state === 'finished') {
    const outcome = state.status.outcome;
    const names = outcome.winners.map((s) => state.players[s]).join(', ');
    status.textContent = `${w('over')} — ${names ? w('winners', names) : w('draw')} — ${tr(outcome.reason)}`;
  } else if (mine) {
    status.textContent = w('yourTurn');
  } else {
    const names = state.status.seats.map((s) => state.players[s] || `#${s + 1}`).join(', ');
    status.textContent = w('waiting', names);
  }
  if (mine && !turnBefore && navigator.vibrate) navigator.vibrate(60);
  turnBefore = mine;
}

function renderChoices() {
  const box = $('choices');
  box.replaceChildren();
  const done = complete();
  if (done.length > 1 || (done.length && selected.length)) {
    box.append(el('span', { text: w('chooseAmong') }));
    done.forEach((a) => box.append(choiceButton(a, true)));
  }
  state.actions.filter((a) => a.path.length === 0).forEach((a) => box.append(choiceButton(a)));
  if (selected.length) {
    box.append(el('button', {
      class: 'choice secondary', type: 'button', text: w('clear'),
      onclick: () => { selected = []; render(); },
    }));
  }
}

// A move's button; `among`: one of the moves that share the path tapped so far.
function choiceButton(action, among = false) {
  const button = el('button', {
    class: 'choice', type: 'button', text: tr(action.label), 'data-action': action.id,
    onclick: () => play(action),
  });
  if (among) button.dataset.among = 'true';
  return button;
}

function highlightOf(targets) {
  const kinds = state.scene.highlights
    .filter((h) => targets.some((t) => same(t, h.target)))
    .map((h) => h.kind);
  for (const k of ['danger', 'selected', 'last_move', 'info']) if (kinds.includes(k)) return k;
  return null;
}

function renderZones(lit) {
  const box = $('zones');
  box.replaceChildren();
  const zones = [...state.scene.zones].sort((a, b) => (b.owner === state.seat) - (a.owner === state.seat));
  zones.forEach((zone) => {
    const mine = zone.owner === state.seat;
    const cards = el('div', { class: 'cards' });
    zone.cards.forEach((card) => cards.append(cardButton(card, lit)));
    box.append(el('div', { class: mine ? 'zone mine' : 'zone' }, el('h2', { text: tr(zone.title) }), cards));
  });
}

function cardButton(card, lit) {
  const target = { kind: 'card', id: card.id };
  const k = key(target);
  const classes = ['card'];
  if (!card.face_up) classes.push('back');
  if (lit.selected.has(k)) classes.push('selected');
  else if (lit.next.has(k) && selected.length) classes.push('next');
  else if (lit.first.has(k) && !selected.length) classes.push('first');
  const highlight = highlightOf([target]);
  if (highlight) classes.push(highlight);
  const tappable = lit.next.has(k) || lit.first.has(k);
  const button = el('button', { class: classes.join(' '), type: 'button', 'data-card': card.id });
  button.style.background = card.colour;
  button.style.color = inkOn(card.colour);
  if (card.die) {
    // A die (ABI 1.11): its face on top, drawn, and the face's name.
    button.classList.add('die');
    button.style.background = 'transparent';
    button.style.color = '';
    button.append(dieFace(card.die), el('small', { text: tr(card.title) }));
    const faces = card.die.faces.map((f) => tr(f.name)).join(', ');
    button.setAttribute('aria-label', `${tr(card.title)} — ${w('dieFaces', faces)}`);
  } else if (card.face_up) {
    button.append(el('b', { text: tr(card.title) }), el('small', { text: tr(card.text) }));
    button.setAttribute('aria-label', `${tr(card.title)} — ${tr(card.text)}`);
  } else {
    button.setAttribute('aria-label', '?');
  }
  if (tappable) {
    button.dataset.tappable = 'true';
    if (selected.length && lit.next.has(k)) button.dataset.next = 'true';
    button.addEventListener('click', () => tap([target]));
  } else {
    button.disabled = true;
  }
  return button;
}

// Where a face's pips go on a 3×3 grid (-1 to 1), by their number (as the window draws them).
const PIPS = {
  1: [[0, 0]], 2: [[1, -1], [-1, 1]], 3: [[1, -1], [0, 0], [-1, 1]],
  4: [[-1, -1], [1, -1], [-1, 1], [1, 1]], 5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]],
  6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]],
  7: [[-1, -1], [1, -1], [-1, 0], [0, 0], [1, 0], [-1, 1], [1, 1]],
  8: [[-1, -1], [0, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [0, 1], [1, 1]],
  9: [[-1, -1], [0, -1], [1, -1], [-1, 0], [0, 0], [1, 0], [-1, 1], [0, 1], [1, 1]],
};

// A die's face on top as a small picture: its colour, pips and mark.
function dieFace(die) {
  const face = die.faces[die.up];
  const root = svg('svg', { viewBox: '0 0 100 100', width: 64, height: 64, role: 'img' });
  if (!face) return root;
  const ink = inkOn(face.colour);
  root.append(svg('rect', { x: 4, y: 4, width: 92, height: 92, rx: 18, fill: face.colour, stroke: ink, 'stroke-opacity': 0.6, 'stroke-width': 3 }));
  (PIPS[face.pips] || []).forEach(([x, y]) => root.append(svg('circle', { cx: 50 + x * 27, cy: 50 + y * 27, r: 8, fill: ink })));
  if (face.mark) root.append(text(50, 52, face.mark, 50, ink, 0.5));
  return root;
}

// Black or white, whichever reads on a colour.
function inkOn(hex) {
  const n = parseInt((hex || '#000000').slice(1), 16);
  const [r, g, b] = [(n >> 16) & 255, (n >> 8) & 255, n & 255];
  return 0.299 * r + 0.587 * g + 0.114 * b > 150 ? '#1a1a1a' : '#ffffff';
}

// Where logical cell (col, row) is drawn after the scene's quarter turns clockwise.
function rotate(board, rotation, col, row) {
  switch (rotation % 4) {
    case 1: return [board.rows - 1 - row, col];
    case 2: return [board.cols - 1 - col, board.rows - 1 - row];
    case 3: return [row, board.cols - 1 - col];
    default: return [col, row];
  }
}

function renderBoards(lit) {
  const box = $('boards');
  box.replaceChildren();
  state.scene.boards.forEach((board) => box.append(drawBoard(board, state.scene.rotation || 0, lit)));
}

function drawBoard(board, rotation, lit) {
  const cell = 40;
  const margin = 16;
  const [dcols, drows] = rotation % 2 ? [board.rows, board.cols] : [board.cols, board.rows];
  const width = dcols * cell + margin;
  const height = drows * cell + margin;
  const root = svg('svg', { viewBox: `0 0 ${width} ${height}`, role: 'group', 'aria-label': tr(board.title) || board.id });
  const stacks = new Map();
  board.pieces.forEach((p) => {
    const k = `${p.col},${p.row}`;
    if (!stacks.has(k)) stacks.set(k, []);
    stacks.get(k).push(p);
  });
  const place = (col, row) => {
    const [dc, dr] = rotate(board, rotation, col, row);
    return [margin + dc * cell, dr * cell];
  };
  for (let row = 0; row < board.rows; row += 1) {
    for (let col = 0; col < board.cols; col += 1) {
      const c = board.cells[row * board.cols + col];
      if (!c || c.kind === 'void') continue;
      const [x, y] = place(col, row);
      root.append(svg('rect', { x, y, width: cell, height: cell, fill: c.colour, stroke: 'rgba(0,0,0,0.35)', 'stroke-width': 0.6 }));
      if (c.label) root.append(text(x + cell / 2, y + cell / 2, c.label, cell * 0.4, inkOn(c.colour), 0.5));
    }
  }
  drawLabels(root, board, rotation, place, cell, margin);
  for (let row = 0; row < board.rows; row += 1) {
    for (let col = 0; col < board.cols; col += 1) {
      const c = board.cells[row * board.cols + col];
      if (!c || c.kind === 'void') continue;
      const [x, y] = place(col, row);
      const stack = stacks.get(`${col},${row}`) || [];
      drawStack(root, x, y, cell, stack);
      const targets = [...stack].reverse().map((p) => ({ kind: 'piece', id: p.id }));
      targets.push({ kind: 'cell', board: board.id, col, row });
      markCell(root, x, y, cell, targets, lit, stack.length > 0);
      const tappable = targets.some((t) => lit.next.has(key(t)) || lit.first.has(key(t)));
      const names = [...stack].reverse().filter((p) => p.name).map((p) => tr(p.name));
      const square = squareName(board, col, row);
      const hit = svg('rect', {
        x, y, width: cell, height: cell, class: tappable ? 'hit tappable' : 'hit',
        'data-cell': `${board.id}:${col},${row}`, 'aria-label': names.length ? `${square} — ${names.join(', ')}` : square,
      });
      if (tappable) {
        hit.setAttribute('role', 'button');
        hit.dataset.tappable = 'true';
        if (selected.length && targets.some((t) => lit.next.has(key(t)))) hit.dataset.next = 'true';
        hit.addEventListener('click', () => tap(targets));
      }
      root.append(hit);
    }
  }
  const title = tr(board.title);
  const wrap = el('div', { class: 'board' });
  if (title) wrap.append(el('h2', { text: title }));
  wrap.append(root);
  return wrap;
}

function squareName(board, col, row) {
  const c = board.col_labels[col];
  const r = board.row_labels[row];
  if (c && r) return `${c}${r}`;
  const kind = board.cells[row * board.cols + col]?.kind;
  return kind ? `${kind} ${col},${row}` : `${board.id}:${col},${row}`;
}

function drawLabels(root, board, rotation, place, cell, margin) {
  if (rotation % 2) return; // Rotated by a quarter: the labels no longer run along the edges.
  board.col_labels.forEach((label, col) => {
    if (!label) return;
    const [x] = place(col, 0);
    root.append(text(x + cell / 2, board.rows * cell + margin / 2, label, 9, '#aaa3b5', 0.5));
  });
  board.row_labels.forEach((label, row) => {
    if (!label) return;
    const [, y] = place(0, row);
    root.append(text(margin / 2, y + cell / 2, label, 9, '#aaa3b5', 0.5));
  });
}

function text(x, y, content, size, fill, anchor) {
  const node = svg('text', {
    x, y, fill, 'font-size': size, 'text-anchor': anchor === 0.5 ? 'middle' : 'start',
    'dominant-baseline': 'central', 'font-family': 'system-ui, sans-serif',
  });
  node.textContent = content;
  return node;
}

function markCell(root, x, y, cell, targets, lit, hasPiece) {
  const highlight = highlightOf(targets);
  if (highlight) {
    const colours = { last_move: '#ffd86b', selected: '#f2b34f', danger: '#e53e3e', info: '#5cb8ff' };
    root.append(svg('rect', { x: x + 2, y: y + 2, width: cell - 4, height: cell - 4, fill: 'none', stroke: colours[highlight], 'stroke-width': 2.4, rx: 3 }));
  }
  const isSelected = targets.some((t) => lit.selected.has(key(t)));
  const isNext = targets.some((t) => lit.next.has(key(t)));
  const isFirst = targets.some((t) => lit.first.has(key(t)));
  if (isSelected) {
    root.append(svg('rect', { x: x + 1.5, y: y + 1.5, width: cell - 3, height: cell - 3, fill: 'none', stroke: '#f2b34f', 'stroke-width': 3, rx: 3 }));
  } else if (isNext && selected.length) {
    if (hasPiece) root.append(svg('circle', { cx: x + cell / 2, cy: y + cell / 2, r: cell * 0.44, fill: 'none', stroke: '#f2b34f', 'stroke-width': 3 }));
    else root.append(svg('circle', { cx: x + cell / 2, cy: y + cell / 2, r: cell * 0.17, fill: '#f2b34f', stroke: '#3a2605', 'stroke-width': 1.5 }));
  } else if (isFirst && !selected.length && !hasPiece) {
    root.append(svg('circle', { cx: x + cell / 2, cy: y + cell / 2, r: cell * 0.2, fill: 'none', stroke: '#f2b34f', 'stroke-width': 2 }));
  }
}

// One piece fills its cell; a stack is drawn smaller, each piece offset.
function drawStack(root, x, y, cell, stack) {
  if (stack.length === 1) {
    drawPiece(root, x + cell / 2, y + cell / 2, cell, stack[0]);
    return;
  }
  const size = cell * 0.62;
  stack.forEach((piece, i) => {
    const shift = (i - (stack.length - 1) / 2) * (cell * 0.3) / Math.max(1, stack.length - 1);
    drawPiece(root, x + cell / 2 + shift, y + cell / 2 - shift, size, piece);
  });
}

// A piece by its shape (as the window draws it, in SVG).
function drawPiece(root, cx, cy, s, piece) {
  const fill = piece.colour;
  const ink = inkOn(fill);
  const line = { fill, stroke: ink, 'stroke-opacity': 0.85, 'stroke-width': Math.max(1, s * 0.035) };
  const at = (dx, dy) => `${cx + dx * s},${cy + dy * s}`;
  switch (piece.shape) {
    case 'square':
      root.append(svg('rect', { x: cx - 0.31 * s, y: cy - 0.31 * s, width: 0.62 * s, height: 0.62 * s, rx: 4, ...line }));
      break;
    case 'wall':
      root.append(svg('rect', { x: cx - 0.4 * s, y: cy - 0.17 * s, width: 0.8 * s, height: 0.34 * s, rx: 2, ...line }));
      break;
    case 'knight':
      root.append(svg('polygon', { points: [at(-0.32, -0.32), at(0.32, -0.32), at(0.3, 0.05), at(0, 0.36), at(-0.3, 0.05)].join(' '), ...line }));
      break;
    case 'lord':
      root.append(svg('circle', { cx, cy: cy + 0.06 * s, r: 0.3 * s, ...line }));
      root.append(svg('polygon', { points: [at(-0.22, -0.02), at(-0.24, -0.3), at(-0.11, -0.16), at(0, -0.34), at(0.11, -0.16), at(0.24, -0.3), at(0.22, -0.02)].join(' '), ...line, fill: '#f2c23c' }));
      break;
    case 'tower':
      root.append(svg('rect', { x: cx - 0.25 * s, y: cy - 0.2 * s, width: 0.5 * s, height: 0.5 * s, ...line }));
      for (let i = 0; i < 3; i += 1) {
        root.append(svg('rect', { x: cx - 0.25 * s + (i * 0.2 + 0.025) * s, y: cy - 0.32 * s, width: 0.1 * s, height: 0.12 * s, ...line }));
      }
      break;
    default: {
      const radius = { token: 0.22, soldier: 0.3 }[piece.shape] || 0.34;
      root.append(svg('circle', { cx, cy, r: radius * s, ...line }));
      if (piece.shape === 'soldier') {
        root.append(svg('circle', { cx, cy, r: radius * 0.55 * s, fill: 'none', stroke: ink, 'stroke-opacity': 0.5, 'stroke-width': line['stroke-width'] }));
      }
    }
  }
  if (piece.label) root.append(text(cx, cy, piece.label, Math.max(8, s * 0.3), ink, 0.5));
}

// The score lines as the window lays them out: figures about the whole game as label and
// value, figures about seats as a table with one row per seat and one column per figure.
function renderScores() {
  const box = $('scores');
  box.replaceChildren();
  const lines = state.scene.scores;
  const general = lines.filter((l) => l.seat === null || l.seat === undefined);
  if (general.length) {
    const table = el('table');
    general.forEach((line) => {
      table.append(el('tr', {}, el('td', { text: tr(line.label) }), el('td', { text: line.value })));
    });
    box.append(table);
  }
  const bySeat = lines.filter((l) => !general.includes(l));
  if (!bySeat.length) return;
  const seats = [...new Set(bySeat.map((l) => l.seat))];
  const labels = [];
  bySeat.forEach((l) => { if (!labels.some((k) => same(k, l.label))) labels.push(l.label); });
  const head = el('tr', {}, el('th'));
  labels.forEach((label) => head.append(el('th', { text: tr(label) })));
  const table = el('table', { class: 'by-seat' }, head);
  seats.forEach((seat) => {
    const name = state.players[seat] || `#${seat + 1}`;
    const row = el('tr', seat === state.seat ? { class: 'mine' } : {}, el('th', { text: name }));
    labels.forEach((label) => {
      const line = bySeat.find((l) => l.seat === seat && same(l.label, label));
      row.append(el('td', { text: line ? line.value : '' }));
    });
    table.append(row);
  });
  box.append(table);
}

function renderLog() {
  const list = $('log');
  list.replaceChildren();
  [...state.log].reverse().forEach((line) => {
    const item = el('li');
    if (line.who) item.append(el('b', { text: `${line.who} ` }));
    item.append(tr(line.text));
    list.append(item);
  });
}

// ---- Messages -------------------------------------------------------------------------

function banner(message) {
  const node = $('banner');
  node.textContent = message;
  node.hidden = !message;
}

let toastTimer = null;
function toast(message) {
  const node = $('toast');
  node.textContent = message;
  node.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { node.hidden = true; }, 4000);
}

// The room let this phone go. When the host closed the room (the game over, or the
// launcher quit), the game stays on the screen as it last stood, with the reason above it.
function showEnd() {
  const why = tr(refusedMessage.message);
  if (refusedMessage.code === 'closed' && state) {
    banner(why);
    render();
  } else {
    showRefused(why);
  }
}

function showRefused(message) {
  banner('');
  $('play').hidden = true;
  $('refused').hidden = false;
  $('refused-title').textContent = w('refused');
  $('refused-text').textContent = message;
}

$('lang').addEventListener('click', () => {
  lang = lang === 'fr' ? 'en' : 'fr';
  storage('set', 'veillee-lang', lang);
  if (refusedMessage) showEnd();
  else if (!token) showRefused(w('noLink'));
  render();
});

render();
connect();
