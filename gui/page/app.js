// Catena's page. It holds no rules: legal moves, chains, switches and the
// move list come from the server (see src/gui/), which keeps the game.
import { Chessground } from '/vendor/chessground.min.js';

const $ = id => document.getElementById(id);

let state = null;          // the server's last picture of the game
let cg = null;             // the board
let orientation = 'white';
let busy = false;          // a move is being chosen (promotion, switch question)
let withdraw = null;       // withdraws the open question, if the game moves on
let lastThinking = { player: null, analysis: null };

// ---- settings kept in the browser -------------------------------------------

const settings = {
  get(name, fallback) {
    try { return localStorage.getItem(`catena.${name}`) ?? fallback; } catch { return fallback; }
  },
  set(name, value) {
    try { localStorage.setItem(`catena.${name}`, value); } catch { /* private mode: for this visit only */ }
  },
};
let autoFlip = settings.get('autoFlip', 'on') === 'on';
// Flip pressed: the board turned from where it would face.
let flipped = settings.get('flipped', 'no') === 'yes';

let muted = settings.get('muted', 'no') === 'yes';

// The panels stay open or folded as the person left them, across visits.
function keepPanels() {
  for (const panel of document.querySelectorAll('details[id]')) {
    const kept = settings.get(`panel.${panel.id}`, null);
    if (kept !== null) panel.open = kept === 'open';
    panel.addEventListener('toggle', () => settings.set(`panel.${panel.id}`, panel.open ? 'open' : 'folded'));
  }
}

// ---- talking to the server -------------------------------------------------

async function api(method, path, body) {
  let response;
  try {
    response = await fetch(path, {
      method,
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    say(`The server cannot be reached: ${error}`, true);
    return null;
  }
  let data = null;
  const text = await response.text();
  try { data = JSON.parse(text); } catch { data = null; }
  if (!response.ok) {
    say(data && data.error ? data.error : `${response.status}: ${text.trim()}`, true);
    if (data && data.state) render(data.state);
    else if (state) render(state);
    return null;
  }
  return data;
}

// A change's reply is a picture of the game like any other: it may reach the
// page after the event stream has brought a newer one, and then it is old.
async function change(path, body = {}) {
  const next = await api('POST', path, body);
  if (next) render(next);
  return next;
}

// ---- messages ---------------------------------------------------------------

function say(text, error = false) {
  const item = document.createElement('li');
  item.textContent = text;
  if (error) item.className = 'error';
  const list = $('messages');
  list.prepend(item);
  while (list.children.length > 30) list.lastChild.remove();
  if (error) banner(text, true);
}

let bannerTimer = null;
function banner(text, error = false) {
  const el = $('banner');
  el.textContent = text;
  el.className = error ? 'error' : 'note';
  el.hidden = false;
  clearTimeout(bannerTimer);
  bannerTimer = setTimeout(hideBanner, 6000);
}

function hideBanner() {
  clearTimeout(bannerTimer);
  $('banner').hidden = true;
}

// ---- sounds ------------------------------------------------------------------

// Each sound is a few tones (Hz, start and length in s), made on the spot.
const SOUNDS = {
  move: [[440, 0, 0.06]],
  capture: [[220, 0, 0.09]],
  check: [[880, 0, 0.07], [880, 0.1, 0.07]],
  switch: [[392, 0, 0.08], [523, 0.08, 0.08], [659, 0.16, 0.1]],
  end: [[523, 0, 0.25], [659, 0, 0.25], [784, 0, 0.35]],
};
let audio = null;

function sound(name, ply) {
  if (muted) return;
  $('sound').dataset.played = `${name} ${ply}`;
  try {
    audio ??= new AudioContext();
    for (const [frequency, start, length] of SOUNDS[name]) {
      const at = audio.currentTime + start;
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      tone.frequency.value = frequency;
      gain.gain.setValueAtTime(0.15, at);
      gain.gain.exponentialRampToValueAtTime(0.001, at + length);
      tone.connect(gain).connect(audio.destination);
      tone.start(at);
      tone.stop(at + length);
    }
  } catch { /* no sound here: the game goes on */ }
}

// The sound of what changed from `before` to `s`: the game's end, or the
// move just played (a switch, a check, a capture, or a plain move).
function soundOf(before, s) {
  if (!before || s.game !== before.game) return;
  if (s.ending && !before.ending) { sound('end', s.history.length); return; }
  if (s.history.length !== before.history.length + 1) return;
  const ply = s.history[s.history.length - 1];
  const name = ply.switched ? 'switch' : s.check ? 'check' : ply.san.includes('x') ? 'capture' : 'move';
  sound(name, s.history.length);
}

function showMute() {
  const button = $('sound');
  button.setAttribute('aria-pressed', String(muted));
  button.textContent = muted ? '♪ off' : '♪ on';
  button.title = muted ? 'Let the sounds play' : 'Mute the sounds';
}

// ---- the board ---------------------------------------------------------------

const cap = color => color[0].toUpperCase() + color.slice(1);
const other = color => color === 'white' ? 'black' : 'white';

function chainShapes(chain) {
  if (!chain) return [];
  const loop = chain.loop;
  return loop.map((square, i) => ({ orig: square, dest: loop[(i + 1) % loop.length], brush: 'chain' }));
}

function chainSquares(chain) {
  const classes = new Map();
  if (!chain) return classes;
  for (const square of chain.loop) classes.set(square, 'chain-link');
  for (const square of chain.enclosed) classes.set(square, 'enclosed');
  return classes;
}

let drawnChain = null;     // the chain drawn on the board
let bestArrow = null;      // the analysis's best move, drawn as an arrow
let refuteArrow = null;    // the answer to a wrong puzzle action, while it is on the board

function showChain(chain) {
  drawnChain = chain;
  cg.set({ highlight: { custom: chainSquares(chain) } });
  drawShapes();
  const wrap = $('board');
  wrap.dataset.loop = chain ? chain.loop.join(' ') : '';
  wrap.dataset.enclosed = chain ? chain.enclosed.join(' ') : '';
}

function drawShapes() {
  const arrow = bestArrow ? [{ orig: bestArrow.slice(0, 2), dest: bestArrow.slice(2, 4), brush: 'best' }] : [];
  const refute = refuteArrow ? [{ orig: refuteArrow.slice(0, 2), dest: refuteArrow.slice(2, 4), brush: 'refute' }] : [];
  cg.setAutoShapes([...chainShapes(drawnChain), ...arrow, ...refute]);
  $('board').dataset.refutation = refuteArrow ?? '';
}

// Whose pieces the person may move now: against an engine, only the army
// the person holds, also while looking back at moves taken back (a move
// played there replaces them).
function movableColor(s) {
  if (s.ending || s.engine_to_move || busy || (trainer && trainer.refuting)) return undefined;
  if (s.opponent.engine && s.turn !== s.human.now) return undefined;
  return s.turn;
}

// The board faces the army the person holds against an engine (which a
// switch changes), unless that is turned off; else White. Flip turns it.
function facing(s) {
  const base = autoFlip && s.opponent.engine ? s.human.now : 'white';
  return flipped ? other(base) : base;
}

// Shows `s` unless the page already shows a newer picture of the game (the
// server's generation grows with every change); `s` of the same generation
// is shown again, which puts back a piece dragged to no legal square.
function render(s) {
  if (state && s.generation < state.generation) return;
  const before = state;
  state = s;
  // A question asked of an older position (the game moved on in another
  // page, or by the engine) has no answer any more.
  if (withdraw && before && s.generation !== before.generation) withdraw();
  orientation = facing(s);
  soundOf(before, s);
  queueMicrotask(() => followPuzzle(s));
  // A new game starts with a log of its own.
  if (before && s.game !== before.game) $('messages').innerHTML = '';
  // The end of the game replaces whatever the banner said of its last moves.
  if (s.ending && !(before && before.ending)) hideBanner();
  const dests = new Map(Object.entries(s.dests));
  cg.set({
    fen: s.fen,
    orientation,
    turnColor: s.turn,
    lastMove: s.last_move || undefined,
    check: s.check ? s.turn : false,
    movable: { color: movableColor(s), dests },
  });
  // The best move's arrow belongs to the position it was found in.
  if (!before || s.generation !== before.generation || !s.analysis.on) bestArrow = null;
  if (!before || s.generation !== before.generation) refuteArrow = null;
  showChain(s.last_chain);
  renderPanels(s);
}

// ---- panels -------------------------------------------------------------------

function renderPanels(s) {
  const humanNow = s.human.now;
  const top = orientation === 'white' ? 'black' : 'white';
  const bottom = orientation;
  for (const [id, color] of [['player-top', top], ['player-bottom', bottom]]) {
    const el = $(id);
    el.dataset.color = color;
    el.innerHTML = '';
    const name = document.createElement('span');
    name.className = 'name';
    name.textContent = `${s.players[color]} plays ${cap(color)}`;
    el.append(name);
    const clock = document.createElement('span');
    clock.className = 'clock';
    clock.id = `clock-${color}`;
    el.append(clock);
    el.classList.toggle('to-move', s.turn === color && !s.ending);
  }
  updateClocks();

  let status;
  if (s.ending) status = `Game over: ${s.ending.result} (${s.ending.reason})`;
  else if (s.engine_failure) status = s.engine_failure;
  else if (s.engine_to_move) status = `${s.players[s.turn]} is thinking (${cap(s.turn)} to move)`;
  else if (s.opponent.engine && s.future.length) status = `Looking at move ${s.history.length}: › or » to go on, or play a move here`;
  else status = `${cap(s.turn)} to move` + (s.opponent.engine ? ` — you play ${cap(humanNow)}` : '');
  $('status').textContent = status;
  const theory = s.theory;
  $('theory').textContent = !theory || s.ending ? ''
    : theory.win_in !== undefined ? `Proven win in ${theory.win_in} plies for ${cap(s.turn)} (opening book: ${theory.first})`
    : `No forced win within ${theory.none_within} plies (opening book)`;

  const rule = s.mode === 'chess' ? 'chess: no switching' : `SSCC, switch rule ${s.rules.switch_rule}, MinEnclosed ${s.rules.min_enclosed}`;
  const run = s.run.switches > 0
    ? `; run: ${s.run.switches} switch${s.run.switches > 1 ? 'es' : ''} in a row, limit ${s.run.limit ?? 'none'}`
    : '';
  $('run-info').textContent = rule + run;
  const chain = s.last_chain;
  $('chain-info').textContent = chain
    ? `Last move closed a chain of size ${chain.size}: ${chain.loop.join('-')} around ${chain.enclosed.join(', ')}`
    : '';

  renderMoves(s);
  renderResult(s);
  $('fen').textContent = s.fen;

  const engines = s.engines;
  fillSelect($('opponent-engine'), [['', 'nobody (both sides by hand)'], ...engines.map(e => [e, e])], s.opponent.engine ?? '');
  fillSelect($('analysis-engine'), engines.map(e => [e, e]), s.analysis.engine);
  fillSelect($('match-first'), engines.map(e => [e, e]), $('match-first').value || engines[0]);
  fillSelect($('match-second'), engines.map(e => [e, e]), $('match-second').value || engines[0]);
  $('opponent-color').value = s.opponent.human;
  if (document.activeElement !== $('opponent-tc')) $('opponent-tc').value = s.opponent.tc;
  $('analysis-on').checked = s.analysis.on;
  $('multipv').value = String(s.analysis.multipv);
  if (!s.analysis.on) { $('analysis-lines').innerHTML = ''; $('analysis-head').textContent = ''; }
  if (!s.engine_to_move) $('engine-thinking').textContent = '';
  if (!s.analysis.on && !s.engine_to_move) resetEvalBar();
  $('prev').disabled = $('first').disabled = s.history.length === 0;
  $('next').disabled = $('last').disabled = s.future.length === 0;
}

function fillSelect(select, options, value) {
  const key = JSON.stringify(options);
  if (select.dataset.key !== key) {
    select.innerHTML = '';
    for (const [v, label] of options) {
      const option = document.createElement('option');
      option.value = v;
      option.textContent = label;
      select.append(option);
    }
    select.dataset.key = key;
  }
  if (document.activeElement !== select) select.value = value;
}

const resultText = result => result === '1/2-1/2' ? '½-½' : result;

// The move list in two columns, White's move and Black's, whoever played
// them; a switch is marked after its move, and the result ends the list.
function renderMoves(s) {
  const list = $('moves');
  list.innerHTML = '';
  const cell = (className, text = '') => {
    const item = document.createElement('li');
    item.className = className;
    item.textContent = text;
    list.append(item);
    return item;
  };
  const plies = [...s.history, ...s.future.map(p => ({ ...p, future: true }))];
  for (const ply of plies) {
    if (ply.color === 'white' || ply === plies[0]) cell('num', `${ply.number}.`);
    if (ply.color === 'black' && ply === plies[0]) cell('empty', '…');
    const item = cell('ply' + (ply.future ? ' future' : '') + (ply.ply === s.history.length ? ' current' : ''));
    item.dataset.ply = ply.ply;
    item.dataset.number = ply.number;
    item.dataset.color = ply.color;
    const san = document.createElement('span');
    san.className = 'san';
    san.textContent = ply.san;
    item.append(san);
    if (ply.chain) item.classList.add('closed-chain');
    if (ply.switched) {
      const mark = document.createElement('span');
      mark.className = 'switch-mark';
      mark.textContent = '{switch}';
      mark.title = 'the player switched sides after this move';
      item.append(mark);
    }
    item.addEventListener('click', () => change('/api/goto', { ply: ply.ply }));
  }
  if (s.ending) cell('result', `${resultText(s.ending.result)} ${s.ending.reason}`);
  const current = list.querySelector('.current');
  if (current) current.scrollIntoView({ block: 'nearest' });
}

// The end of the game, said to the person: who won, as players (you, the
// engine, Player 1 or 2), how, and which army each held at the end.
function renderResult(s) {
  const ending = s.ending;
  const shown = !$('result').hidden;
  $('result').hidden = !ending;
  if (!ending) return;
  const { winner, how } = ending;
  const engine = s.opponent.engine;
  $('result-head').textContent = !winner ? 'Draw'
    : winner.you ? 'You won'
    : `${winner.name} won` + (engine ? ': you lost' : '');
  const held = engine
    ? `you held ${cap(s.human.now)}, ${engine} ${cap(other(s.human.now))}`
    : `${s.players.white} held White, ${s.players.black} Black`;
  $('result-how').textContent =
    `${cap(how)} (${resultText(ending.result)}: ${ending.reason}); at the end ${held}.`;
  // The final position, small, as the board faces.
  resultBoard ??= Chessground($('result-board'), {
    viewOnly: true, coordinates: false, animation: { enabled: false }, drawable: { enabled: false, visible: true },
  });
  resultBoard.set({
    fen: s.fen, orientation, lastMove: s.last_move || undefined, check: s.check ? s.turn : false,
  });
  // Hidden, it had no size: drawn again at its own.
  if (!shown) resultBoard.redrawAll();
  $('result-board').dataset.fen = s.fen;
}
let resultBoard = null;    // the result panel's small board of the final position

let clockBase = { at: performance.now(), clocks: null };
function updateClocks() {
  if (!state) return;
  if (clockBase.clocks !== state.clocks) clockBase = { at: performance.now(), clocks: state.clocks };
  for (const color of ['white', 'black']) {
    const el = $(`clock-${color}`);
    if (!el) continue;
    const clocks = state.clocks;
    if (!clocks) { el.textContent = ''; continue; }
    let ms = clocks[`${color}_ms`];
    if (clocks.running === color) ms = Math.max(0, ms - (performance.now() - clockBase.at));
    const tenths = Math.floor(ms / 100);
    el.textContent = `${Math.floor(tenths / 600)}:${String(Math.floor(tenths / 10) % 60).padStart(2, '0')}.${tenths % 10}`;
  }
}
setInterval(updateClocks, 200);

// ---- a move of the person's ------------------------------------------------------

async function onBoardMove(orig, dest) {
  const candidates = state.moves.filter(m => m.from === orig && m.to === dest);
  if (!candidates.length) { render(state); return; }
  let chosen = candidates[0];
  if (candidates.length > 1 || chosen.promotion) {
    const piece = await askPromotion();
    if (!piece) { render(state); return; }
    chosen = candidates.find(m => m.promotion === piece) || chosen;
  }
  await playMove(chosen.uci);
}

// Plays `uci`, asking first whether to switch if it closes a chain (with
// `preview`, the server's answer about the move, if the page has it); the
// new state, or null if it was not played.
async function playMove(uci, preview = null) {
  const legal = state.moves.find(m => m.uci === uci);
  let doSwitch = false;
  if (legal && legal.chain) {
    preview ??= await api('GET', `/api/chain?move=${encodeURIComponent(uci)}`);
    if (!preview) return null;
    showChain(preview.chain);
    if (preview.switch_allowed) {
      doSwitch = await askSwitch(preview);
      if (doSwitch === null) return null;
    } else if (preview.why_not) {
      say(`${preview.san} closes a chain, but no switch: ${preview.why_not}`);
    }
  }
  // The server refuses the move if the game changed since this page showed it.
  return change('/api/move', { move: uci, switch: doSwitch, generation: state.generation });
}

// Shows `dialog` until one of `answers` (button → answer) is clicked, or
// the game moves on, which withdraws it: then the answer is null.
function ask(dialog, answers) {
  busy = true;
  cg.set({ movable: { color: undefined } });
  dialog.hidden = false;
  return new Promise(resolve => {
    const done = answer => {
      dialog.hidden = true;
      busy = false;
      withdraw = null;
      resolve(answer);
    };
    for (const [button, answer] of answers) button.onclick = () => done(answer);
    withdraw = () => {
      say('The game changed (in another page, or by the engine) while you chose: that move was not played.', true);
      done(null);
    };
  });
}

function askPromotion() {
  const dialog = $('promotion');
  return ask(dialog, [...dialog.querySelectorAll('button')].map(button => [button, button.dataset.piece]));
}

function askSwitch(preview) {
  const chain = preview.chain;
  $('switch-text').textContent =
    `${preview.san} closes a chain of size ${chain.size}: ${chain.loop.join('-')} around ${chain.enclosed.join(', ')}. ` +
    `Switch sides and move on at once with ${preview.next_army}, leaving your army to the opponent?`;
  const limit = preview.limit === null ? 'no limit' : `limit ${preview.limit}`;
  $('switch-run').textContent = `This would be switch ${preview.switches_if_switched} of this run (${limit}, rule ${preview.switch_rule}).`;
  const answer = ask($('switch-dialog'), [[$('switch-yes'), true], [$('switch-no'), false]]);
  $('switch-yes').focus();
  return answer;
}

// ---- engine output -------------------------------------------------------------------

// A line's score for the player who holds `army` (the engine's lines carry
// it for White's army).
function scoreText(line, army = 'white') {
  const sign = army === 'white' ? 1 : -1;
  if (line.white_mate !== null && line.white_mate !== undefined) {
    const mate = sign * line.white_mate;
    return mate > 0 ? `#${mate}` : `#-${-mate}`;
  }
  const pawns = sign * line.white_cp / 100;
  return (pawns > 0 ? '+' : '') + pawns.toFixed(2);
}

// The player who holds `army` now, as the page names them.
function holder(s, army) {
  return s.opponent.engine && s.human.now === army ? 'you' : s.players[army];
}

// Plays a line's first move (with its switch), if the person may move now.
async function playLine(line) {
  const first = line.pv[0];
  if (!first) return;
  if (movableColor(state) !== state.turn) {
    say('A line can be played when it is your move.', true);
    return;
  }
  await change('/api/move', { move: first.uci, switch: first.switch, generation: state.generation });
}

function evalShare(line) {
  if (line.white_mate !== null && line.white_mate !== undefined) return line.white_mate > 0 ? 100 : 0;
  return 100 / (1 + Math.exp(-line.white_cp / 250));
}

function setEvalBar(line) {
  const share = evalShare(line);
  $('evalbar-white').style.height = `${share}%`;
  $('evalbar-text').textContent = scoreText(line);
  $('evalbar').dataset.score = scoreText(line);
}

function resetEvalBar() {
  $('evalbar-white').style.height = '50%';
  $('evalbar-text').textContent = '';
  delete $('evalbar').dataset.score;
}

function onThinking(t) {
  if (!state || t.generation !== state.generation) return;
  lastThinking[t.role] = t;
  const best = t.lines[0];
  if (best) setEvalBar(best);
  // Scores are said for the player to move, named, with the army they hold.
  const army = state.turn;
  const whose = `for ${holder(state, army)} (${cap(army)})`;
  if (t.role === 'analysis') {
    $('analysis-head').textContent =
      `${t.engine}: depth ${t.depth ?? 0}, ${(t.elapsed_ms / 1000).toFixed(1)} s` + (t.done ? ' (stopped)' : '') +
      '; click a line to play its first move';
    const list = $('analysis-lines');
    list.innerHTML = '';
    for (const line of t.lines) {
      const item = document.createElement('li');
      item.title = 'Play this line\'s first move';
      if (line.pv[0]) item.dataset.move = line.pv[0].uci;
      const score = document.createElement('b');
      score.textContent = scoreText(line, army);
      const label = document.createElement('span');
      label.className = 'whose';
      label.textContent = ` ${whose}`;
      const pv = document.createElement('span');
      pv.className = 'pv';
      pv.textContent = ` d${line.depth} ${line.text}`;
      item.append(score, label, pv);
      item.addEventListener('click', () => playLine(line));
      list.append(item);
    }
    bestArrow = best && best.pv[0] ? best.pv[0].uci : null;
    drawShapes();
  } else if (!t.done) {
    $('engine-thinking').textContent = best
      ? `${t.engine} thinks: depth ${best.depth}, ${scoreText(best, army)} ${whose}, ${best.text}`
      : `${t.engine} thinks…`;
  }
}

// ---- the puzzle trainer ----------------------------------------------------------------------

// The puzzles of perft/puzzles.epd, each proven by the solver: the person
// plays the attacker's actions, switches included; the defender's replies
// come from the solver's line. Progress is kept in the browser.
let puzzles = [];
let trainer = null;        // the puzzle on the board: { puzzle, game, seen, done }
const progress = JSON.parse(settings.get('puzzles', '{"solved":[],"streak":0,"best":0}'));

function saveProgress() {
  settings.set('puzzles', JSON.stringify(progress));
  $('puzzle-score').textContent =
    `Solved ${progress.solved.length} of ${puzzles.length}; streak ${progress.streak} (best ${progress.best})`;
}

async function loadPuzzles() {
  const list = await api('GET', '/api/puzzles');
  if (!list) return;
  puzzles = list.puzzles;
  const depths = [...new Set(puzzles.map(p => p.plies))].sort((a, b) => a - b);
  fillSelect($('puzzle-plies'), depths.map(d => [String(d), String(d)]), String(depths[0]));
  saveProgress();
}

// The first puzzle of the chosen D and rule not solved yet, in the file's order.
async function nextPuzzle() {
  const plies = Number($('puzzle-plies').value);
  const rule = $('puzzle-rule').value;
  const fitting = puzzles.filter(p => p.plies === plies && p.rule === rule);
  const puzzle = fitting.find(p => !progress.solved.includes(p.id)) ?? fitting[0];
  if (!puzzle) {
    say(`There is no puzzle with D ${plies} under rule ${rule}.`, true);
    return;
  }
  trainer = null;
  const human = puzzle.fen.split(' ')[1] === 'w' ? 'white' : 'black';
  if (!await change('/api/opponent', { engine: null, human })) return;
  const started = await change('/api/new', {
    mode: 'sscc', rule: puzzle.rule, min_enclosed: puzzle.min_enclosed, fen: puzzle.fen,
  });
  if (!started) return;
  trainer = { puzzle, game: started.game, seen: null, done: false };
  $('puzzle-status').textContent =
    `Puzzle ${puzzle.id}: ${cap(human)} to play and win, the shortest win ${puzzle.plies} plies (rule ${rule}).`;
  followPuzzle(state);
}

// Holds the game on the board to the puzzle's line: a wrong action is shown
// with its refutation and taken back, the defender's replies are played
// from the line, and the line's last action solves the puzzle.
function followPuzzle(s) {
  if (!trainer || trainer.done || trainer.refuting || s.game !== trainer.game || trainer.seen === s.generation) return;
  trainer.seen = s.generation;
  const line = trainer.puzzle.line;
  const played = s.history.map(ply => ply.uci + (ply.switched ? ' switch' : ''));
  const wrong = played.findIndex((action, i) => action !== line[i]);
  if (wrong >= 0) {
    refute(trainer, s, played.slice(0, wrong + 1));
    return;
  }
  if (played.length === line.length) {
    trainer.done = true;
    if (!progress.solved.includes(trainer.puzzle.id)) progress.solved.push(trainer.puzzle.id);
    progress.streak += 1;
    progress.best = Math.max(progress.best, progress.streak);
    saveProgress();
    $('puzzle-status').textContent = `Solved: puzzle ${trainer.puzzle.id}.`;
    return;
  }
  if (s.turn !== s.human.now && !s.future.length) {
    // The defender's reply, from the solver's line.
    const [move, token] = line[played.length].split(' ');
    trainer.reply = played.length + 1;
    change('/api/move', { move, switch: token === 'switch', generation: s.generation });
    return;
  }
  if (trainer.reply === played.length) {
    const ply = s.history[played.length - 1];
    $('puzzle-status').textContent =
      `${s.players[other(s.human.now)]} (${cap(ply.color)}) answers ${ply.san}${ply.switched ? ' {switch}' : ''}, ` +
      `as the solver's line goes. Your move, with ${cap(s.human.now)}.`;
  }
}

// Pauses on a wrong action: the server's solver says whether it still
// wins within the plies left and, if not, how the defender answers it;
// the answer is said and drawn, then the action is taken back.
async function refute(puzzle, s, actions) {
  const ply = s.history[actions.length - 1];
  const said = `${ply.san}${ply.switched ? ' {switch}' : ''}`;
  puzzle.refuting = true;
  render(s);
  $('puzzle-status').textContent = `Wrong: ${said}. Asking the solver why…`;
  const query = new URLSearchParams({ id: puzzle.puzzle.id, after: actions.join(' ') });
  const found = await api('GET', `/api/puzzles/refutation?${query}`);
  const left = found ? found.plies_left : 0;
  const within = `within the ${left === 1 ? 'ply' : `${left} plies`} left`;
  let text;
  if (!found || !found.settled) text = `Wrong: ${said}; the solver could not say why in time.`;
  else if (found.wins) text = `${said} wins too, ${within}, but the puzzle follows the solver's line.`;
  else if (found.over) text = `Wrong: after ${said} the game is over, without a win.`;
  else if (found.reply) {
    const reply = found.reply;
    text = `Wrong: after ${said}, ${s.players[reply.army]} (${cap(reply.army)}) answers ` +
      `${reply.san}${reply.switch ? ' {switch}' : ''} and there is no forced win ${within}.`;
    refuteArrow = reply.uci;
    drawShapes();
  } else text = `Wrong: after ${said}, you have no forced win ${within}.`;
  if (!found || !found.wins) {
    progress.streak = 0;
    saveProgress();
  }
  $('puzzle-status').textContent = `${text} Try again.`;
  // The answer stays on the board a moment, then the action is taken back.
  await new Promise(resolve => setTimeout(resolve, 1500));
  puzzle.refuting = false;
  if (trainer === puzzle) {
    puzzle.seen = null;
    await change('/api/goto', { ply: actions.length - 1 });
  }
}

function puzzleHint() {
  if (!trainer || trainer.done) return;
  const next = trainer.puzzle.line[state.history.length];
  if (!next) return;
  const [move, token] = next.split(' ');
  say(`Hint: move the piece on ${move.slice(0, 2)}` + (token === 'switch' ? ', then switch sides.' : '.'));
  cg.selectSquare(move.slice(0, 2));
}

// ---- a match ------------------------------------------------------------------------------

const matchBoards = new Map();

// A match game's result, said of its engines: the winner is the one that
// held the winning army at the end, whichever colour it started with.
function matchResult(game, live) {
  const comment = game.comment ? `, ${game.comment}` : '';
  if (game.result === '*') return live ? `playing, ${cap(game.turn)} to move` : 'stopped';
  if (!game.winner) return `draw (½-½${comment})`;
  return `${game.winner} won, holding ${cap(game.winning_army)} at the end (${game.result}${comment})`;
}

function renderMatch(m) {
  if (!m || !m.active) return;
  $('match-panel').open = true;
  const engines = m.engines || ['?', '?'];
  const score = m.score || { wins: 0, draws: 0, losses: 0, games: 0 };
  // A match the page started runs while its process does; one followed, until its file says it finished.
  const live = m.started ? m.running : !m.finished;
  const phase = m.finished ? 'finished' : live ? 'running' : 'stopped';
  $('match-head').textContent = m.error || m.waiting ||
    `${engines[0]} vs ${engines[1]}: ${m.variant}, ${m.time_control}; ${score.games} of ${m.games_total} games, ${phase}`;
  $('match-head').dataset.state = phase;
  const table = $('match-table');
  table.innerHTML = '<tr><th>engine</th><th>games</th><th>W</th><th>D</th><th>L</th><th>score</th><th>Elo</th></tr>';
  const rows = [
    [engines[0], score.wins, score.draws, score.losses, score.score, score.elo, score.elo_margin],
    [engines[1], score.losses, score.draws, score.wins, score.score == null ? null : 1 - score.score,
      score.elo == null ? null : -score.elo, score.elo_margin],
  ];
  for (const [name, w, d, l, points, elo, margin] of rows) {
    const row = document.createElement('tr');
    const cells = [name, score.games, w, d, l,
      points == null ? '–' : `${(points * 100).toFixed(1)}%`,
      elo == null ? '–' : `${elo > 0 ? '+' : ''}${elo.toFixed(1)}${margin == null ? '' : ` ± ${margin.toFixed(1)}`}`];
    for (const cell of cells) {
      const td = document.createElement('td');
      td.textContent = String(cell);
      row.append(td);
    }
    table.append(row);
  }
  $('match-sprt').textContent = m.sprt ? `SPRT: ${m.sprt}` : '';
  const holder = $('match-games');
  for (const game of m.games || []) {
    let box = holder.querySelector(`[data-number="${game.number}"]`);
    if (!box) {
      box = document.createElement('div');
      box.className = 'match-game';
      box.dataset.number = game.number;
      box.innerHTML = '<div class="match-title"></div><div class="mini-wrap"><div class="mini cg-wrap"></div></div><div class="match-moves"></div>';
      holder.append(box);
      matchBoards.set(game.number, Chessground(box.querySelector('.mini'), {
        viewOnly: true, coordinates: false, animation: { enabled: false },
        drawable: { enabled: false, visible: true, brushes: { chain: { key: 'chain', color: '#d9480f', opacity: 0.85, lineWidth: 9 } } },
      }));
    }
    box.dataset.result = game.result;
    box.querySelector('.match-title').textContent =
      `Game ${game.number}: ${game.white} – ${game.black}: ${matchResult(game, live)}; ` +
      `${game.plies} plies, ${game.switches} switch${game.switches === 1 ? '' : 'es'}`;
    box.querySelector('.match-moves').textContent = game.text;
    const board = matchBoards.get(game.number);
    board.set({ fen: game.fen, lastMove: game.last_move || undefined, highlight: { custom: chainSquares(game.last_chain) } });
    board.setAutoShapes(chainShapes(game.last_chain));
  }
  $('match-log').textContent = (m.log || []).join('\n');
}

// ---- wiring ------------------------------------------------------------------------------

function wire() {
  $('first').onclick = () => change('/api/goto', { ply: 0 });
  $('prev').onclick = () => state.history.length && change('/api/goto', { ply: state.history.length - 1 });
  $('next').onclick = () => change('/api/redo');
  $('last').onclick = () => change('/api/goto', { ply: state.history.length + state.future.length });
  $('undo').onclick = () => change('/api/undo');
  $('flip').onclick = () => {
    flipped = !flipped;
    settings.set('flipped', flipped ? 'yes' : 'no');
    render(state);
  };
  showMute();
  $('sound').onclick = () => {
    muted = !muted;
    settings.set('muted', muted ? 'yes' : 'no');
    showMute();
  };
  $('auto-flip').checked = autoFlip;
  $('auto-flip').onchange = () => {
    autoFlip = $('auto-flip').checked;
    settings.set('autoFlip', autoFlip ? 'on' : 'off');
    flipped = false;
    settings.set('flipped', 'no');
    render(state);
  };
  $('move-form').onsubmit = async event => {
    event.preventDefault();
    const input = $('move-input');
    const text = input.value.trim();
    if (!text) return;
    // The server reads SAN and UCI alike, and says in the notation typed why
    // a move cannot be played; its preview gives the move in UCI. A refused
    // move stays in the box, to be corrected.
    const preview = await api('GET', `/api/chain?move=${encodeURIComponent(text)}`);
    if (preview && await playMove(preview.move, preview)) input.value = '';
  };
  $('new-game').onclick = () => change('/api/new', {
    mode: $('new-mode').value,
    rule: $('new-rule').value,
    min_enclosed: Number($('new-min').value),
    fen: $('new-fen').value.trim() || null,
  });
  $('opponent-apply').onclick = () => change('/api/opponent', {
    engine: $('opponent-engine').value || null,
    human: $('opponent-color').value,
    tc: $('opponent-tc').value.trim() || null,
  });
  const analysis = () => change('/api/analysis', {
    on: $('analysis-on').checked,
    multipv: Number($('multipv').value),
    engine: $('analysis-engine').value || null,
  });
  $('analysis-on').onchange = analysis;
  $('multipv').onchange = analysis;
  $('analysis-engine').onchange = analysis;
  $('match-start').onclick = async () => {
    for (const [number, board] of matchBoards) { board.destroy(); matchBoards.delete(number); }
    $('match-games').innerHTML = '';
    const max = $('match-max').value.trim();
    const started = await api('POST', '/api/match/start', {
      first: $('match-first').value,
      second: $('match-second').value,
      games: Number($('match-count').value) || 2,
      tc: $('match-tc').value.trim() || null,
      max_moves: max ? Number(max) : null,
      sprt: $('match-sprt-args').value.trim() || null,
    });
    if (started) say('The match has started.');
  };
  $('puzzle-next').onclick = nextPuzzle;
  $('puzzle-hint').onclick = puzzleHint;
  $('match-stop').onclick = () => api('POST', '/api/match/stop');
  $('pgn-save').onclick = async () => {
    const saved = await api('GET', '/api/pgn');
    if (!saved) return;
    $('pgn-text').value = saved.pgn;
    const link = $('pgn-download');
    link.href = URL.createObjectURL(new Blob([saved.pgn], { type: 'application/x-chess-pgn' }));
    link.hidden = false;
    say('The game is in the PGN box (and behind the download link).');
  };
  $('pgn-load').onclick = async () => {
    const loaded = await change('/api/load', { text: $('pgn-text').value });
    if (loaded) say(`Loaded ${loaded.history.length} moves.`);
  };
}

// Arrow keys step through the game, as the buttons do.
document.addEventListener('keydown', event => {
  if (!state || event.target.closest('input, textarea, select') || busy) return;
  if (event.key === 'ArrowLeft' && state.history.length) change('/api/goto', { ply: state.history.length - 1 });
  else if (event.key === 'ArrowRight' && state.future.length) change('/api/redo');
  else return;
  event.preventDefault();
});

function listen() {
  const events = new EventSource('/api/events');
  events.addEventListener('state', event => render(JSON.parse(event.data)));
  events.addEventListener('thinking', event => onThinking(JSON.parse(event.data)));
  events.addEventListener('match', event => renderMatch(JSON.parse(event.data)));
  events.addEventListener('message', event => {
    const message = JSON.parse(event.data);
    say(message.text, message.error);
    if (!message.error && /switches sides/.test(message.text)) banner(message.text);
  });
  let lost = false;
  events.onerror = () => {
    lost = true;
    $('status').textContent = 'Lost the server; retrying…';
  };
  events.onopen = async () => {
    const fresh = await api('GET', '/api/state');
    if (!fresh) return;
    // Back after losing the server, which may have restarted and counts
    // generations afresh: its picture replaces the page's.
    if (lost) state = null;
    lost = false;
    render(fresh);
  };
}

async function start() {
  cg = Chessground($('board'), {
    orientation,
    movable: { free: false, color: undefined, showDests: true, events: { after: onBoardMove } },
    premovable: { enabled: false },
    draggable: { showGhost: true },
    highlight: { lastMove: true, check: true },
    animation: { duration: 150 },
    drawable: {
      enabled: true,
      visible: true,
      brushes: {
        chain: { key: 'chain', color: '#d9480f', opacity: 0.85, lineWidth: 9 },
        best: { key: 'best', color: '#1864ab', opacity: 0.7, lineWidth: 12 },
        refute: { key: 'refute', color: '#c92a2a', opacity: 0.8, lineWidth: 12 },
      },
    },
  });
  wire();
  keepPanels();
  const first = await api('GET', '/api/state');
  if (first) render(first);
  await loadPuzzles();
  const watched = await api('GET', '/api/match');
  if (watched) renderMatch(watched);
  listen();
  document.body.dataset.readyMs = String(Math.round(performance.now()));
  document.body.dataset.ready = 'true';
}

start();
