// The game screen (play, hotseat, watch, replay) and the analysis board.

import { Board, animalChar, pieceHtml } from './board.js';
import { parseJfen, applyMove, capturedPieces, resolveTyped, START_JFEN, printJfen, JfenError, positionProblems } from './jfen.js';
import { t, lang, illegalText, errText, jfenText, shownName, endText } from './i18n.js';
import { h, toast, announce, confirmDialog, modal, fmtClock, fmtTc, copyText, downloadText } from './ui.js';
import { api } from './net.js';
import * as sound from './sound.js';

const OTHER = { red: 'blue', blue: 'red' };
// Move timeouts a player may have (RULES §8.2): the next one ends the game, and the box of the
// player it ended the game of says so instead of a count.
const MAX_TIMEOUTS = 3;
const svg = (d) => `<svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true"><path d="${d}" fill="currentColor"/></svg>`;
const ICON = {
  first: svg('M5 5h2v14H5zM19 5v14L8 12z'),
  prev: svg('M17 5v14L6 12z'),
  next: svg('M7 5v14l11-7z'),
  last: svg('M17 5h2v14h-2zM5 5v14l11-7z'),
};

/** SAN as shown to people: Chinese characters for the animal in the Chinese UIs. */
export function displaySan(san) {
  if (!san) return '';
  if (san === '--') return t('pass_short');
  if (lang() === 'en') return san;
  const role = san[0];
  if (!/[ELTPDWCR]/.test(role)) return san;
  return animalChar(role) + san.slice(1).replace('x', '×');
}

/**
 * The words for a result: `{title, reason, line}`, the line being both in one ("Red wins
 * (entered the den)"); an aborted game's line is its title alone.
 */
export function resultText(result) {
  if (!result) return { title: '', reason: '', line: '' };
  if (result.reason === 'aborted') {
    const title = t('result_aborted');
    return { title, reason: t('reason_aborted'), line: title };
  }
  const title = result.winner ? t('result_wins', { side: t(result.winner) }) : t('result_draw');
  const reason = t(`reason_${String(result.reason).replace('-', '_')}`);
  return { title, reason, line: t('parenthesized', { text: title, note: reason }) };
}

/** What is wrong with a typed move (resolveTyped's answer), in the player's language. */
function typedErrorText(r) {
  if (r.why) return illegalText(r.why);
  const p = r.params || {};
  return t(r.error, p.animal ? { ...p, animal: t(`animal_${p.animal}`) } : p);
}

/** A seat's player as shown: the AI by its level, a guest in the page's language. */
export function playerName(p) {
  if (!p) return '?';
  if (p.ai_level) return t('ai_name', { level: p.ai_level });
  return shownName(p.name);
}

/** Positions after each ply, rebuilt from the start position and the accepted moves. */
function positionsOf(startFen, moves) {
  let pos = parseJfen(startFen || START_JFEN);
  const out = [pos];
  for (const m of moves) {
    pos = applyMove(pos, m.move);
    out.push(pos);
  }
  return out;
}

/**
 * Mounts the game screen for game `id` into `root`. `ctx` gives the socket and the shared store.
 * Returns a cleanup function.
 */
export function mountGame(root, id, ctx) {
  const { socket, store } = ctx;
  let g = store.games.get(id) || null;
  let positions = [];
  let viewPly = null; // null = follow the live position
  let clockBase = null;
  // The reconnect grace of each away seat (`away_ms`, doc/protocol.md), counted down from receipt.
  let awayBase = null;
  let orientation = null;
  let showRanks = localStorage.getItem('jungle.ranks') === '1';
  let lastLowBeep = 0;
  let rematchBy = null;
  let analysisOn = false;
  // The engine's suggestion for the live position: { ply, move }, shown while the game is there.
  let hint = null;
  let hintBusy = false;
  let ended = null;
  // The result dialog's part that says what the game changed (a `changes` message redraws it).
  let endingChanges = null;
  let destroyed = false;
  // The open confirmations (abort, resign): each closed once what it asks is no longer possible.
  const asking = new Map();
  // This tab asked for the game's abort (after a reload, the game's state does not say who did).
  let abortedHere = false;
  // The side that aborted the game, as its `ended` said.
  let abortedBy = null;
  // The toast of the other side's draw offer: it goes when the offer does.
  let drawToast = null;

  const boardEl = h('div', { class: 'board-host' });
  const board = new Board(boardEl, {
    onMove: (m) => sendMove(m),
    // A move the rules' §7 forbids: say why rather than ignoring the click.
    onForbidden: (why) => toast(illegalText(why), 'error'),
    // Any other move that is not legal: the server refuses it and says why (its `illegal_move`
    // error, shown in the player's language like every refusal).
    onRefused: (m) => sendMove(m),
    // Once the game is over the arrow keys step through its moves, the board focused or not.
    arrowKeys: () => isLive(),
  });
  const top = h('div', { class: 'player top' });
  const bottom = h('div', { class: 'player bottom' });
  const status = h('div', { class: 'status', 'data-test': 'status', role: 'status' });
  // The same words above the board on narrow screens, where the side panel is below it.
  const statusMini = h('div', { class: 'status status-mini', 'aria-hidden': 'true' });
  const controls = h('div', { class: 'controls' });
  const offerBar = h('div', { class: 'offer-bar', hidden: true });
  const moveList = h('ol', { class: 'moves', 'aria-label': t('moves') });
  const replayBar = h('div', { class: 'replay-bar', hidden: true });
  const evalBox = h('div', { class: 'eval', hidden: true, 'aria-live': 'polite' });
  const input = h('input', {
    id: 'move-input', autocomplete: 'off', autocapitalize: 'off', spellcheck: false, placeholder: 'g3g4 / Rg4',
  });
  const inputForm = h('form', { class: 'move-form', onsubmit: (e) => { e.preventDefault(); typedMove(); } },
    h('label', { for: 'move-input' }, t('type_move')), input, h('button', { type: 'submit' }, t('play_move')));

  // The screen's heading names the players (for screen readers; the player boxes show them).
  const heading = h('h1', { class: 'sr-only', 'data-test': 'game-heading' }, t('loading'));
  // On a phone the stage (status, both players and the board between them) fills the screen
  // below the header, the board as large as the rest leaves room for (web/app.css).
  root.replaceChildren(heading, h('div', { class: 'game-layout' },
    h('section', { class: 'board-col', 'aria-label': t('board') },
      h('div', { class: 'board-stage' }, statusMini, top, h('div', { class: 'board-fit' }, boardEl), bottom), inputForm),
    h('aside', { class: 'side-col' }, status, offerBar, controls, replayBar, evalBox,
      h('h2', { class: 'sub' }, t('moves')), moveList)));

  function myColor() {
    return g && (g.you === 'red' || g.you === 'blue') ? g.you : null;
  }
  function isLive() {
    return g && g.status === 'live';
  }
  function opponentIsAi() {
    const me = myColor();
    return Boolean(me && g[OTHER[me]] && g[OTHER[me]].ai_level);
  }

  /**
   * Whether the viewer may ask for a hint: on their turn in a live game against the computer,
   * or at one device (a hint against a person would be the engine playing for you).
   */
  function canHint() {
    if (!isLive() || viewPly !== null) return false;
    if (g.you === 'both') return true;
    return opponentIsAi() && g.turn === myColor();
  }

  /** Asks the engine for the best move of the live position (a second) and marks it. */
  async function askHint() {
    if (!canHint() || hintBusy) return;
    const ply = g.moves.length;
    hintBusy = true;
    const focus = focusedButton();
    renderControls();
    refocus(focus);
    try {
      const r = await api('POST', '/api/analyze', {
        fen: g.start_fen || START_JFEN, moves: g.moves.map((m) => m.move), rules: g.rules || undefined, ms: 1000,
      });
      const move = r.pv && r.pv[0];
      if (!destroyed && g && g.moves.length === ply && move) {
        hint = { ply, move };
        toast(t('hint_is', { move: lineText([move], currentPos()) }));
      }
    } catch (e) {
      toast(errText(e), 'error');
    } finally {
      hintBusy = false;
      render();
    }
  }

  function setGame(state) {
    // The server says which seat is the viewer's (`you`), live or finished.
    g = state;
    store.games.set(id, g);
    // A pending rematch offer is part of the state (a screen opened after it was made sees it).
    if ('rematch_offer' in g) rematchBy = g.rematch_offer || null;
    applyChanges(g.changes);
    positions = positionsOf(g.start_fen, g.moves || []);
    clockBase = g.clocks ? { ...g.clocks, at: performance.now() } : null;
    awayBase = g.away_ms ? { ...g.away_ms, at: performance.now() } : null;
    if (orientation === null) orientation = g.you === 'blue' ? 'blue' : 'red';
    if (g.status !== 'live') viewPly = viewPly === null ? positions.length - 1 : viewPly;
    else viewPly = null;
    render();
  }

  /** The player boxes show the ratings and levels a finished game left (a rated game's changes). */
  function applyChanges(changes) {
    for (const c of ['red', 'blue']) {
      const ch = changes && changes[c];
      if (!ch || !g[c]) continue;
      if (ch.rating_after != null) g[c].rating = ch.rating_after;
      if (ch.level_after != null) g[c].level = ch.level_after;
    }
  }

  function currentPos() {
    if (!positions.length) return null;
    const i = viewPly === null ? positions.length - 1 : viewPly;
    return positions[Math.max(0, Math.min(i, positions.length - 1))];
  }

  function sendMove(m) {
    if (!isLive()) return;
    // Without a connection the move waits to be sent (for this ply only: the server refuses it
    // if a pass came first); the player is told, the board showing nothing played meanwhile.
    if (socket.state !== 'open') toast(t('move_waits_for_connection'));
    socket.send({ t: 'move', game: id, ply: g.moves.length, move: m });
  }

  function typedMove() {
    if (!isLive() || !board.canMove()) {
      toast(t('not_your_turn'), 'error');
      return;
    }
    const r = resolveTyped(input.value, positions[positions.length - 1], g.legal || []);
    const why = r.move && (g.forbidden || {})[r.move];
    if (r.error) {
      input.setAttribute('aria-invalid', 'true');
      // A readable move that is not legal goes to the server, which says why; a move §7
      // forbids is explained at once.
      if (r.error === 'move_illegal' && r.move && !why) sendMove(r.move);
      else toast(why ? illegalText(why) : typedErrorText(r), 'error');
      return;
    }
    input.removeAttribute('aria-invalid');
    input.value = '';
    sendMove(r.move);
  }

  function clockNow() {
    if (!clockBase) return null;
    const el = performance.now() - clockBase.at;
    const live = isLive() && clockBase.running;
    const c = { red_ms: clockBase.red_ms, blue_ms: clockBase.blue_ms, move_ms: clockBase.move_ms, running: live ? clockBase.running : null };
    if (live) {
      c[`${clockBase.running}_ms`] = Math.max(0, c[`${clockBase.running}_ms`] - el);
      if (c.move_ms != null) c.move_ms = Math.max(0, c.move_ms - el);
    }
    return c;
  }

  /** The ms left before `color`, away, loses by disconnect; null when it is not away. The grace
   * is cut to that side's clock if it runs out first (doc/protocol.md): the smaller is the end. */
  function awayLeft(color) {
    if (!awayBase || awayBase[color] == null || !isLive()) return null;
    let left = Math.max(0, awayBase[color] - (performance.now() - awayBase.at));
    const c = clockNow();
    if (c && c.running === color && c[`${color}_ms`] != null) left = Math.min(left, c[`${color}_ms`]);
    return left;
  }
  function offlineText(color) {
    const left = awayLeft(color);
    return left == null ? t('offline') : t('offline_left', { n: Math.ceil(left / 1000) });
  }

  function playerBox(color) {
    const p = g[color];
    const c = clockNow();
    const tc = g.tc || {};
    const online = g.presence ? g.presence[color] : true;
    const box = h('div', { class: `pinfo ${color}`, 'data-color': color },
      h('span', { class: `swatch ${color}`, 'aria-hidden': 'true' }),
      h('span', { class: 'pname' },
        p && !p.ai_level && !p.guest ? h('a', { href: `#/u/${encodeURIComponent(p.name)}` }, playerName(p)) : playerName(p)),
      p && !p.ai_level ? h('span', { class: 'prating', title: t('prating_title') }, p.level ? t('level_n', { n: p.level }) : '', p.rating ? ` · ${Math.round(p.rating)}` : '') : null,
      // The other player's presence (one's own goes without saying: the header tells a lost connection).
      p && !p.ai_level && isLive() && g.you !== 'both' && g.you !== color ? h('span', {
        class: `presence ${online ? 'on' : 'off'}`, 'data-test': `presence-${color}`, title: online ? t('online') : t('offline'),
      }, online ? t('online') : offlineText(color)) : null,
      g.you === color ? h('span', { class: 'you-tag' }, t('you')) : null);
    const captured = h('div', { class: 'captured', 'aria-label': t('captured_by', { side: t(color) }) });
    const pos = currentPos();
    if (pos) {
      for (const role of capturedPieces(pos)[OTHER[color]]) {
        captured.insertAdjacentHTML('beforeend', pieceHtml({ color: OTHER[color], role }, false));
      }
    }
    const clocks = h('div', { class: 'clocks' });
    if (c) {
      const low = (ms) => ms < 10000;
      if (tc.clock_s) {
        const ms = c[`${color}_ms`];
        clocks.append(h('span', {
          class: `clock ${c.running === color ? 'running' : ''} ${low(ms) ? 'low' : ''}`, 'data-test': `clock-${color}`, 'aria-label': t('clock_of', { side: t(color) }),
        }, fmtClock(ms)));
      }
      if (tc.move_s && c.running === color && c.move_ms != null) {
        clocks.append(h('span', { class: `movetime ${low(c.move_ms) ? 'low' : ''}`, 'data-test': `movetime-${color}`, title: t('move_timer') },
          `${t('move_timer')} ${fmtClock(c.move_ms)}`));
      } else if (tc.move_s && isLive()) {
        // The other side's move timer keeps its place, unseen: on a phone the rows (and so the
        // board between them) keep their size from move to move (web/app.css).
        clocks.append(h('span', { class: 'movetime idle', 'aria-hidden': 'true' }, `${t('move_timer')} ${fmtClock(tc.move_s * 1000)}`));
      }
      // The computer answers well within the move limit: no timeouts count beside it.
      if (tc.move_s && !(g[color] && g[color].ai_level)) {
        const n = g.timeouts ? g.timeouts[color] || 0 : 0;
        const out = g.result && g.result.reason === 'timeouts' && g.result.winner === OTHER[color];
        clocks.append(h('span', { class: `timeouts ${n ? 'some' : ''} ${out ? 'out' : ''}`, 'data-test': `timeouts-${color}` },
          out ? t('timeouts_out', { n: Math.max(n, MAX_TIMEOUTS + 1) }) : t('timeouts_n', { n: Math.min(MAX_TIMEOUTS, n) })));
      }
    }
    return [box, clocks, captured];
  }

  function renderPlayers() {
    if (!g) return;
    const bottomColor = orientation;
    bottom.replaceChildren(...playerBox(bottomColor));
    top.replaceChildren(...playerBox(OTHER[bottomColor]));
    bottom.classList.toggle('to-move', isLive() && g.turn === bottomColor);
    top.classList.toggle('to-move', isLive() && g.turn === OTHER[bottomColor]);
  }

  function tickClocks() {
    if (destroyed || !g) return;
    for (const color of ['red', 'blue']) {
      const el = g.presence && g.presence[color] === false && root.querySelector(`[data-test=presence-${color}]`);
      if (el) el.textContent = offlineText(color);
    }
    const c = clockNow();
    if (!c || !c.running) return;
    // Only the running clock and the move timer change between messages: update them in place.
    const clock = root.querySelector(`[data-test=clock-${c.running}]`);
    if (clock) {
      const ms = c[`${c.running}_ms`];
      clock.textContent = fmtClock(ms);
      clock.classList.toggle('low', ms < 10000);
    }
    const mt = root.querySelector(`[data-test=movetime-${c.running}]`);
    if (mt && c.move_ms != null) {
      mt.textContent = `${t('move_timer')} ${fmtClock(c.move_ms)}`;
      mt.classList.toggle('low', c.move_ms < 10000);
    }
    const me = myColor() || (g.you === 'both' && c ? c.running : null);
    if (c && c.running && me === c.running && !sound.isMuted()) {
      const left = Math.min(g.tc && g.tc.clock_s ? c[`${me}_ms`] : Infinity, g.tc && g.tc.move_s ? c.move_ms : Infinity);
      if (left < 10000 && performance.now() - lastLowBeep > 1000) {
        lastLowBeep = performance.now();
        sound.play('low');
      }
    }
  }

  function statusText() {
    if (!g) return t('loading');
    if (g.status !== 'live') {
      // Who won, and what happened, with its subject: "Blue wins: Blue's rat entered your den".
      const r = resultText(g.result);
      if (!g.result) return r.line;
      // An aborted game: who called it off where known (`ended`, this tab, or the result after a
      // reload), else its title alone.
      if (g.result.reason === 'aborted') return abortedHere || abortedBy || g.result.by ? endingSentence(g.result) : r.line;
      // After the colon, English goes on in lower case (but for the sides' names): "Blue wins: you resigned".
      const said = endingSentence(g.result);
      return t('labelled', { label: r.title, text: lang() === 'en' && !/^(Red|Blue)\b/.test(said) ? said[0].toLowerCase() + said.slice(1) : said });
    }
    const me = myColor();
    if (g.you === 'both') return t('turn_of', { side: t(g.turn) });
    if (!me) return t('watching_turn', { side: t(g.turn) });
    return g.turn === me ? t('your_turn') : t('their_turn');
  }

  /** What ended the game, said from the viewer's side, the den's animal named (i18n endText). */
  function endingSentence(result) {
    // The animal on the den it entered, in the final position.
    const end = positions[positions.length - 1];
    const inDen = end && result && result.winner && end.board.get(result.winner === 'red' ? 'd9' : 'd1');
    return endText(result, { you: myColor(), animal: inDen ? inDen.role : null, rules: g && g.rules, abortedByYou: abortedHere, abortedBy: abortedBy || (result && result.by) || null });
  }

  function btn(label, onclick, test, extra = {}) {
    return h('button', { type: 'button', onclick, 'data-test': test, ...extra }, label);
  }

  function renderControls() {
    const me = myColor();
    const live = isLive();
    const n = g ? g.moves.length : 0;
    const items = [
      btn(t('flip'), () => { orientation = OTHER[orientation]; render(); }, 'flip'),
      btn(showRanks ? t('hide_ranks') : t('show_ranks'), () => {
        showRanks = !showRanks;
        localStorage.setItem('jungle.ranks', showRanks ? '1' : '0');
        render();
      }, 'ranks', { 'aria-pressed': String(showRanks) }),
    ];
    if (live && g.you) {
      // The dialogs' buttons say what they do: "Cancel" would be unclear beside 取消对局.
      if (canAbort()) items.push(btn(t('abort'), () => ask('abort', canAbort, t('confirm_abort'), { yes: t('abort_game'), no: t('keep_playing') }), 'abort'));
      items.push(btn(t('resign'), () => ask('resign', isLive, t('confirm_resign'), { yes: t('resign'), no: t('keep_playing') }), 'resign'));
      if (me) {
        // Waiting for the answer, it stays focusable (as Hint does): the keyboard's focus stays on it.
        const offered = g.draw_offer === me;
        items.push(btn(offered ? t('draw_offered_wait') : t('offer_draw'),
          () => { if (g.draw_offer !== me) socket.send({ t: 'draw_offer', game: id }); }, 'draw-offer', { 'aria-disabled': offered ? 'true' : false }));
      }
      // Takeback only once the player has a move of its own to take back (the AI may open).
      // Against the computer the player's last move (and its reply); at one device the last move.
      const canTakeBack = (me && opponentIsAi() && positions.some((p, i) => i < n && p.turn === me)) || (g.you === 'both' && n > 0);
      if (canTakeBack) items.push(btn(t('takeback'), () => socket.send({ t: 'takeback', game: id }), 'takeback'));
    }
    if (g && canHint()) {
      // Busy, it stays focusable (askHint ignores a second press), so the focus stays on it.
      items.push(btn(t('hint'), askHint, 'hint', { 'aria-disabled': hintBusy ? 'true' : false, title: t('hint_title'), 'aria-keyshortcuts': 'H' }));
    }
    if (canRematch()) {
      // The player's own offer waits for the other's answer: asking again would change nothing;
      // nor can an opponent who is away take it up (the server refuses it).
      const waiting = rematchBy === g.you && g.you !== 'both';
      const away = !rematchBy && opponentAway();
      // Waiting, it stays focusable (as Hint does): a keyboard press keeps the focus on it.
      items.push(btn(waiting ? t('rematch_waiting') : away ? t('rematch_offline') : rematchBy ? t('accept_rematch') : t('rematch'),
        () => { if (!waiting && !away) socket.send({ t: 'rematch', game: id }); }, 'rematch', { 'aria-disabled': waiting || away ? 'true' : false }));
    }
    if (g) {
      items.push(btn(t('copy_fen'), () => copyText(printJfen(currentPos()), t('position_jfen')), 'copy-fen'));
      items.push(btn(t('copy_record'), async () => {
        try {
          copyText(await api('GET', `/api/games/${encodeURIComponent(id)}/record`), t('game_record'));
        } catch (e) {
          toast(errText(e), 'error');
        }
      }, 'copy-record'));
      items.push(btn(t('download_record'), async () => {
        try {
          downloadText(await api('GET', `/api/games/${encodeURIComponent(id)}/record`), `jungle-${id.replace(/[^\w-]/g, '_')}.pgn`);
        } catch (e) {
          toast(errText(e), 'error');
        }
      }, 'download-record'));
      if (!live) items.push(btn(t('analysis'), () => { analysisOn = !analysisOn; render(); }, 'analysis', { 'aria-pressed': String(analysisOn) }));
      if (!live || !g.you) {
        items.push(h('a', { class: 'button', href: `#/analysis?fen=${encodeURIComponent(printJfen(currentPos()))}`, 'data-test': 'open-analysis' }, t('open_analysis_board')));
      }
    }
    controls.replaceChildren(...items);
  }

  /**
   * Whether the viewer may ask for (or accept) a rematch: a finished game of theirs that the
   * server says can still have one (in its memory, none started yet: `rematch_open`).
   */
  function canRematch() {
    // An aborted game has none: a new game is the way on.
    return Boolean(g && !isLive() && g.you && g.status === 'finished' && g.rematch_open && !g.rematched
      && !(g.result && g.result.reason === 'aborted'));
  }

  /**
   * Whether the opponent (a person) was away when the game ended: a finished game hears no
   * more presence, and the server refuses a rematch with `opponent_offline` while they are.
   */
  function opponentAway() {
    const me = myColor();
    return Boolean(me && g.presence && g.presence[OTHER[me]] === false && !opponentIsAi());
  }

  /** Abort is possible while either side has not moved yet (a server pass is no move). */
  function canAbort() {
    if (!isLive()) return false;
    const first = g.start_fen.split(' ')[1] === 'b' ? 'blue' : 'red';
    const moved = new Set();
    g.moves.forEach((m, i) => { if (m.move !== '--') moved.add(i % 2 === 0 ? first : OTHER[first]); });
    return moved.size < 2;
  }

  /**
   * Asks to confirm the game action `what` (abort, resign), sent only if it is still possible
   * (`possible()`) when confirmed; render() closes the question once it is not.
   */
  async function ask(what, possible, text, labels) {
    const handle = { possible };
    asking.set(what, handle);
    const yes = await confirmDialog(t(what), text, labels, { handle, safe: true, fallback: ['[data-test=resign]', '.side-col .controls button'] });
    if (asking.get(what) === handle) asking.delete(what);
    if (yes && possible()) {
      if (what === 'abort') abortedHere = true;
      socket.send({ t: what, game: id });
    }
  }

  /** Closes the confirmations of actions no longer possible (both sides moved: no abort). */
  function closeStaleQuestions() {
    for (const [what, handle] of asking) {
      if (handle.possible()) continue;
      asking.delete(what);
      handle.close(null);
      if (what === 'abort' && isLive()) toast(t('err_abort_too_late'), 'error');
    }
  }

  function renderOffer() {
    const me = myColor();
    if (g && isLive() && me && g.draw_offer && g.draw_offer !== me) {
      offerBar.hidden = false;
      offerBar.replaceChildren(h('span', {}, t('draw_offered_by', { side: t(g.draw_offer) })),
        btn(t('accept'), () => socket.send({ t: 'draw_accept', game: id }), 'draw-accept', { class: 'primary' }),
        btn(t('decline'), () => socket.send({ t: 'draw_decline', game: id }), 'draw-decline'));
    } else if (canRematch() && rematchBy && rematchBy !== g.you) {
      offerBar.hidden = false;
      offerBar.replaceChildren(h('span', {}, t('rematch_offered')),
        btn(t('accept_rematch'), () => socket.send({ t: 'rematch', game: id }), 'rematch-accept', { class: 'primary' }));
    } else {
      offerBar.hidden = true;
      offerBar.replaceChildren();
    }
  }

  function renderMoves() {
    const items = [];
    const moves = g ? g.moves : [];
    const startTurn = positions[0] ? positions[0].turn : 'red';
    const startNo = positions[0] ? positions[0].fullmove : 1;
    const shown = viewPly === null ? moves.length : viewPly;
    let li = null;
    moves.forEach((m, i) => {
      const color = (i % 2 === 0) === (startTurn === 'red') ? 'red' : 'blue';
      if (!li || color === 'red') {
        const no = startNo + Math.floor((i + (startTurn === 'blue' ? 1 : 0)) / 2);
        li = h('li', { value: no }, h('span', { class: 'mno', 'aria-hidden': 'true' }, `${no}.`));
        if (color === 'blue') li.append(h('span', { class: 'mv empty' }, '…'));
        items.push(li);
      }
      li.append(h('button', {
        type: 'button', class: `mv ${color} ${i + 1 === shown ? 'current' : ''}`, 'data-ply': String(i),
        'aria-label': `${t(color)} ${displaySan(m.san)}`, 'aria-current': i + 1 === shown ? 'step' : false,
        onclick: () => { if (!isLive()) { viewPly = i + 1; render(); } },
      }, displaySan(m.san)));
    });
    moveList.replaceChildren(...items);
    // Only the list scrolls to the move shown (scrollIntoView would scroll the page too, and on
    // a phone take the opponent's clock off the screen at every move).
    const cur = moveList.querySelector('.current');
    if (!cur) moveList.scrollTop = moveList.scrollHeight;
    else if (cur.offsetTop < moveList.scrollTop) moveList.scrollTop = cur.offsetTop;
    else if (cur.offsetTop + cur.offsetHeight > moveList.scrollTop + moveList.clientHeight) {
      moveList.scrollTop = cur.offsetTop + cur.offsetHeight - moveList.clientHeight;
    }
  }

  function renderReplayBar() {
    // Nothing to step through in a live game, or in one that ended before any move.
    if (!g || isLive() || positions.length < 2) {
      replayBar.hidden = true;
      return;
    }
    replayBar.hidden = false;
    const last = positions.length - 1;
    const go = (p) => { viewPly = Math.max(0, Math.min(last, p)); render(); };
    const atStart = viewPly <= 0;
    const atEnd = viewPly >= last;
    replayBar.replaceChildren(
      btn('', () => go(0), 'first', { 'aria-label': t('first_move'), html: ICON.first, disabled: atStart }),
      btn('', () => go(viewPly - 1), 'prev', { 'aria-label': t('prev_move'), html: ICON.prev, disabled: atStart }),
      h('span', { class: 'ply', 'data-test': 'ply' }, t('ply_of', { n: viewPly, total: last })),
      btn('', () => go(viewPly + 1), 'next', { 'aria-label': t('next_move'), html: ICON.next, disabled: atEnd }),
      btn('', () => go(last), 'last', { 'aria-label': t('last_move'), html: ICON.last, disabled: atEnd }),
    );
  }

  let analysisSeq = 0;
  let analysedPly = null;
  async function renderAnalysis() {
    if (!analysisOn || !g || isLive()) {
      evalBox.hidden = true;
      analysedPly = null;
      return;
    }
    evalBox.hidden = false;
    if (analysedPly === viewPly) return;
    analysedPly = viewPly;
    const seq = ++analysisSeq;
    const ply = viewPly;
    evalBox.replaceChildren(h('span', {}, t('thinking')));
    try {
      const r = await api('POST', '/api/analyze', {
        fen: g.start_fen || START_JFEN, moves: g.moves.slice(0, ply).map((m) => m.move), rules: g.rules || undefined, ms: 800, lines: 3,
      });
      if (seq !== analysisSeq) return;
      evalBox.replaceChildren(...(r.result ? resultView(r.result) : evalView(r, positions[ply])));
    } catch (e) {
      if (seq !== analysisSeq) return;
      // A finished position is answered with its result, so only a failure comes here.
      evalBox.replaceChildren(h('span', { class: 'error' }, errText(e)));
    }
  }

  /** "Red's name (Red) vs Blue's name (Blue)": the heading, and the window's title with it. */
  function renderHeading() {
    const text = t('game_heading', { red: playerName(g.red), blue: playerName(g.blue) });
    if (heading.textContent === text) return;
    heading.textContent = text;
    document.title = `${text} · ${t('app_name')}`;
  }

  /**
   * Where the keyboard's focus is among the side panel's buttons, which render() builds anew:
   * a selector of the same button in the new ones (its data-test, a move's ply), or null.
   */
  function focusedButton() {
    const el = document.activeElement;
    const seat = el && root.contains(el) && el.closest('.pinfo');
    // A player's name (a link to the profile), drawn anew with the player boxes.
    if (seat && el.matches('a')) return `.pinfo[data-color="${seat.dataset.color}"] a`;
    if (!el || !root.contains(el) || !el.closest('.controls, .replay-bar, .moves, .offer-bar')) return null;
    if (el.dataset.ply !== undefined) return `.moves [data-ply="${el.dataset.ply}"]`;
    if (el.dataset.test) return `[data-test="${el.dataset.test}"]`;
    return null;
  }

  // A replay button that the step it made disabled (Next at the end) hands the focus on to the
  // one that goes back the other way.
  const FOCUS_INSTEAD = { next: 'prev', last: 'first', prev: 'next', first: 'last' };

  /** Focuses the button `sel` of the new side panel again (or the nearest one that works). */
  function refocus(sel) {
    if (!sel || (document.activeElement && document.activeElement !== document.body && root.contains(document.activeElement))) return;
    let el = root.querySelector(sel);
    const usable = (x) => x && !x.disabled && !x.closest('[hidden]');
    if (!usable(el)) {
      const test = /^\[data-test="(\w+)"\]$/.exec(sel);
      const other = test && FOCUS_INSTEAD[test[1]];
      el = other ? root.querySelector(`[data-test="${other}"]`) : null;
      if (!usable(el)) el = [...controls.querySelectorAll('button')].find(usable);
    }
    if (usable(el)) el.focus({ preventScroll: true });
  }

  function render() {
    if (destroyed) return;
    if (!g) {
      status.textContent = t('loading');
      return;
    }
    const focus = focusedButton();
    renderAll();
    refocus(focus);
    closeStaleQuestions();
    // The offer answered, lapsed or ended with the game: its toast goes too.
    if (drawToast && !(isLive() && g.draw_offer)) {
      drawToast.remove();
      drawToast = null;
    }
  }

  function renderAll() {
    const pos = currentPos();
    const followLive = viewPly === null || !isLive();
    const lastIdx = (viewPly === null ? g.moves.length : viewPly) - 1;
    board.set({
      pos,
      legal: isLive() && followLive ? g.legal || [] : [],
      forbidden: isLive() && followLive ? g.forbidden || {} : {},
      movable: isLive() ? (g.you === 'both' ? 'both' : myColor()) : null,
      orientation,
      lastMove: lastIdx >= 0 ? g.moves[lastIdx].move : null,
      showRanks,
      hint: hint && canHint() && hint.ply === g.moves.length ? hint.move : null,
    });
    renderHeading();
    status.textContent = statusText();
    status.classList.toggle('over', !isLive());
    statusMini.textContent = status.textContent;
    statusMini.classList.toggle('over', !isLive());
    inputForm.hidden = !(isLive() && g.you);
    renderPlayers();
    renderControls();
    renderOffer();
    renderMoves();
    renderReplayBar();
    renderAnalysis();
  }

  function showEnding(result, changes) {
    const r = resultText(result);
    const me = myColor();
    const body = h('div', { class: 'ending' }, h('p', { class: 'reason', 'data-test': 'end-reason' }, endingSentence(result)));
    if (me && result.winner) body.prepend(h('p', { class: `verdict ${result.winner === me ? 'win' : 'loss'}` }, result.winner === me ? t('you_won') : t('you_lost')));
    endingChanges = h('div', { 'data-test': 'ending-changes', 'aria-live': 'polite' }, changesPart(result, changes));
    body.append(endingChanges);
    if (g && !g.rated && result.reason !== 'aborted') body.append(h('p', { class: 'note', 'data-test': 'casual-note' }, t('casual_note')));
    const buttons = [{ label: t('close'), value: 'close', primary: true }];
    if (canRematch() && !(!rematchBy && opponentAway())) buttons.unshift({ label: rematchBy && rematchBy !== g.you ? t('accept_rematch') : t('rematch'), value: 'rematch' });
    if (g && g.you) buttons.unshift({ label: t('new_game'), value: 'new' });
    // Back to where the focus was, or (that gone with the game's end) to the buttons beside the board.
    modal(r.title, body, buttons, { fallback: ['[data-test=rematch]', '.side-col .controls button'] }).then((v) => {
      if (v === 'rematch') socket.send({ t: 'rematch', game: id });
      if (v === 'new') location.hash = '#/';
    });
  }

  /**
   * What a game changed, for the result dialog: a table for each seat shown where something
   * changed, the note of a rated game too short to count, or, while the result is not stored
   * yet (both seats of a game between people without changes), that they will follow.
   */
  function changesPart(result, changes) {
    const me = myColor();
    // An aborted game changes nothing: no table of changes.
    const seats = result.reason === 'aborted' ? [] : me ? [me] : ['red', 'blue'];
    const people = g && g.you !== 'both' && !(g.red && g.red.ai_level) && !(g.blue && g.blue.ai_level);
    if (seats.length && people && !(changes && (changes.red || changes.blue))) {
      return [h('p', { class: 'note', 'data-test': 'changes-pending' }, t('changes_pending'))];
    }
    // Nor one where nothing changed (a casual or a guest's game, one too short to count): its
    // note says why.
    const FIELDS = ['score', 'level', 'coins', 'rating'];
    const changed = (ch) => FIELDS.some((f) => ch[`${f}_before`] != null && Math.round(ch[`${f}_after`]) !== Math.round(ch[`${f}_before`]));
    const out = [];
    for (const c of seats) {
      const ch = changes && changes[c];
      if (!ch || !changed(ch)) continue;
      const row = (label, a, b) => (a === undefined || a === null ? null
        : h('tr', {}, h('th', { scope: 'row' }, label), h('td', {}, String(Math.round(a))), h('td', {}, '→'), h('td', {}, String(Math.round(b))),
          h('td', { class: b > a ? 'up' : b < a ? 'down' : '' }, b === a ? '±0' : `${b > a ? '+' : ''}${Math.round(b - a)}`)));
      out.push(h('table', { class: 'changes', 'data-test': `changes-${c}` },
        h('caption', {}, seats.length > 1 ? t(c) : t('your_changes')),
        h('tbody', {}, row(t('score'), ch.score_before, ch.score_after), row(t('level'), ch.level_before, ch.level_after),
          row(t('coins'), ch.coins_before, ch.coins_after), row(t('rating'), ch.rating_before, ch.rating_after))));
    }
    const unchanged = changes && seats.every((c) => !changes[c] || changes[c].score_after === changes[c].score_before);
    // A rated game too short to count, won or drawn (an aborted one has its own reason).
    if (result.reason !== 'aborted' && unchanged && g && g.moves.length <= 20 && g.rated) {
      out.push(h('p', { class: 'note', 'data-test': 'short-game-note' }, t('short_game_note')));
    } else if (!result.winner && result.reason !== 'aborted' && g && g.rated) {
      // A rated draw that counts: its rating may move (the table), its score never (RULES §8.5).
      out.push(h('p', { class: 'note', 'data-test': 'draw-note' }, t('draw_note')));
    }
    return out;
  }

  function onMessage(msg) {
    if (msg.t === 'error' && msg.re === 'move') {
      // A refused move: make sure the board shows the server's position again.
      socket.send({ t: 'watch', game: id });
      return;
    }
    // An abort refused: the game's end, if another brings it, is not this tab's doing.
    if (msg.t === 'error' && msg.re === 'abort') abortedHere = false;
    if (msg.t === 'error' && msg.re === 'rematch' && g && !isLive()) {
      // A rematch refused (started already, or the game gone from the server's memory): the
      // state says whether one can still be asked for.
      api('GET', `/api/games/${encodeURIComponent(id)}`).then((r) => { if (!destroyed && r && r.game && !isLive()) setGame(r.game); }, () => {});
      return;
    }
    if (msg.t === 'welcome') {
      socket.send({ t: 'watch', game: id });
      return;
    }
    if (msg.game !== id && !(msg.t === 'game' && msg.game && msg.game.id === id)) {
      if (msg.t === 'game' && msg.game && msg.game.you && msg.game.status === 'live' && rematchBy !== undefined && g && g.status !== 'live') {
        // A rematch (or any new own game) started: follow it.
        location.hash = `#/g/${msg.game.id}`;
      }
      return;
    }
    switch (msg.t) {
      case 'game':
        setGame(msg.game);
        break;
      case 'moved': {
        if (!g) return;
        if (msg.ply < g.moves.length) return;
        if (msg.ply > g.moves.length) {
          socket.send({ t: 'watch', game: id });
          return;
        }
        const before = positions[positions.length - 1];
        g.moves.push({ move: msg.move, san: msg.san });
        positions.push(msg.fen ? { ...parseJfen(msg.fen), captured: before.board.get(msg.move.slice(2, 4)) || null } : applyMove(before, msg.move));
        g.fen = msg.fen;
        g.legal = msg.legal || [];
        g.forbidden = msg.forbidden || {};
        g.turn = positions[positions.length - 1].turn;
        g.ply = g.moves.length;
        g.draw_offer = null;
        if (msg.timeouts) g.timeouts = msg.timeouts;
        if (msg.clocks) {
          g.clocks = msg.clocks;
          clockBase = { ...msg.clocks, at: performance.now() };
        }
        const captured = msg.move !== '--' && before.board.get(msg.move.slice(2, 4));
        sound.play(captured ? 'capture' : 'move');
        const mover = before.turn;
        announce(msg.move === '--' ? t('announce_pass', { side: t(mover) })
          : t('announce_move', { side: t(mover), san: displaySan(msg.san), from: msg.move.slice(0, 2), to: msg.move.slice(2, 4) }));
        render();
        break;
      }
      case 'draw_offered':
        if (!g) return;
        g.draw_offer = msg.by;
        if (msg.by !== myColor()) {
          drawToast = toast(t('draw_offered_by', { side: t(msg.by) }));
          announce(t('draw_offered_by', { side: t(msg.by) }));
        }
        render();
        break;
      case 'draw_declined':
        if (!g) return;
        g.draw_offer = null;
        if (!msg.by || msg.by !== myColor()) toast(opponentIsAi() ? t('draw_declined_ai') : t('draw_declined'));
        render();
        break;
      case 'draw_lapsed':
        // After the ply's `moved` (which cleared the offer): said once, to the player whose
        // offer it was, unless that ply ended the game (its `ended` follows and says more).
        if (!g) return;
        g.draw_offer = null;
        if (msg.by === myColor() && isLive() && (g.legal || []).length) toast(t('draw_lapsed'));
        render();
        break;
      case 'changes':
        // The result was stored after `ended`: what it changed, in the players' boxes and in
        // the result dialog if it is still open.
        if (!g) return;
        g.changes = msg.changes || null;
        applyChanges(g.changes);
        render();
        if (endingChanges && endingChanges.isConnected && g.result) endingChanges.replaceChildren(...changesPart(g.result, g.changes));
        break;
      case 'presence':
        if (!g) return;
        {
          // To the player left at the board: the opponent dropped, or came back.
          const me = myColor();
          const was = g.presence ? g.presence[OTHER[me]] : true;
          const now = me ? msg[OTHER[me]] : null;
          g.presence = { red: msg.red, blue: msg.blue };
          g.away_ms = msg.away_ms || null;
          awayBase = g.away_ms ? { ...g.away_ms, at: performance.now() } : null;
          if (me && isLive() && !opponentIsAi() && was !== now) toast(t(now ? 'opponent_back' : 'opponent_away'));
        }
        render();
        break;
      case 'ended':
        if (!g) return;
        // The clocks stop where they were counted down to (read while the game is still live:
        // `ended` carries no clocks, and the last report would give back the time used since).
        if (clockBase) clockBase = { ...clockNow(), running: null, move_ms: null, at: performance.now() };
        g.status = 'finished';
        g.result = msg.result;
        if (msg.timeouts) g.timeouts = msg.timeouts;
        g.changes = msg.changes || null;
        applyChanges(g.changes);
        // Just ended, in the server's memory: a rematch can be asked for (doc/protocol.md),
        // unless the game was aborted.
        g.rematch_open = msg.result.reason !== 'aborted';
        g.legal = [];
        g.forbidden = {};
        viewPly = positions.length - 1;
        ended = msg;
        abortedBy = msg.by || null;
        sound.play('end');
        announce(statusText());
        render();
        showEnding(msg.result, msg.changes);
        break;
      case 'rematch_offered':
        rematchBy = msg.by;
        if (g) g.rematch_offer = msg.by;
        // Said to the players only (spectators hear the offer too).
        if (myColor()) toast(msg.by === myColor() ? t('rematch_sent') : t('rematch_offered'));
        render();
        // On a phone the offer's bar may be below the board, off the screen: brought into view.
        if (msg.by !== g?.you && !offerBar.hidden) offerBar.scrollIntoView({ block: 'nearest' });
        break;
      case 'rematch_closed':
        // The game left the server's memory: no rematch from now on; an offer is told gone.
        if (g) {
          if (myColor() && rematchBy) toast(t('rematch_closed'));
          g.rematch_open = false;
          g.rematch_offer = null;
          rematchBy = null;
          render();
          // The result dialog, if still open, offers it no more either (the focus, if it was
          // there, goes to the dialog's main button).
          const stale = document.querySelector('dialog.modal[open] button[data-value=rematch]');
          if (stale) {
            const dlg = stale.closest('dialog');
            const focused = document.activeElement === stale;
            stale.remove();
            if (focused) dlg.querySelector('button.primary')?.focus();
          }
        }
        break;
      default:
        break;
    }
  }

  function onKey(e) {
    if (!g || e.target.closest('input, textarea, select, dialog')) return;
    if (isLive()) {
      // H asks for a hint where the Hint button is offered (the terminal client's key is i).
      if ((e.key === 'h' || e.key === 'H') && !e.ctrlKey && !e.metaKey && !e.altKey && canHint()) {
        e.preventDefault();
        askHint();
      }
      return;
    }
    const last = positions.length - 1;
    const map = { ArrowLeft: viewPly - 1, ArrowRight: viewPly + 1, Home: 0, End: last };
    // From a square of the board as well (where Esc on the result dialog leaves the focus).
    if (e.key in map && !e.ctrlKey && !e.metaKey && !e.altKey) {
      e.preventDefault();
      viewPly = Math.max(0, Math.min(last, map[e.key]));
      render();
    }
  }

  const offMsg = socket.on(onMessage);
  const timer = setInterval(tickClocks, 100);
  document.addEventListener('keydown', onKey);
  if (g) setGame(g);
  else render();

  // Load the game: the socket for live games (state now and every update), HTTP as well so
  // finished games and spectators get a state even before the socket answers.
  socket.send({ t: 'watch', game: id });
  api('GET', `/api/games/${encodeURIComponent(id)}`).then((r) => {
    if (!destroyed && r && r.game && (!g || (r.game.status !== 'live' && g.status === 'live' && !ended) || !g.moves)) {
      setGame(r.game);
    }
  }).catch((e) => {
    if (destroyed || g) return;
    // No such game: say so instead of an empty board.
    if (e.status === 404) {
      root.replaceChildren(h('p', { class: 'error', 'data-test': 'status' }, t('err_not_found')));
      document.title = t('app_name');
    } else {
      status.textContent = errText(e);
    }
  });

  return () => {
    destroyed = true;
    offMsg();
    clearInterval(timer);
    document.removeEventListener('keydown', onKey);
    if (g && !g.you) socket.send({ t: 'unwatch', game: id });
  };
}

/** The result of a finished analysed position, as elements. */
function resultView(result) {
  return [h('div', { class: 'eval-score', 'data-test': 'eval-result' }, t('labelled', { label: t('game_over_position'), text: resultText(result).line }))];
}

/** A score as text for the side to move in `pos`: `+1.25`, or who wins in how many. */
function scoreText(score, pos) {
  score = score || {};
  if (score.den !== undefined && score.den !== null) return t('eval_den', { n: Math.abs(score.den), side: t(score.den > 0 ? pos.turn : OTHER[pos.turn]) });
  return `${score.cp > 0 ? '+' : ''}${((score.cp || 0) / 100).toFixed(2)}`;
}

/**
 * A line of moves from `pos` as the animals and squares, the animal named as the move list
 * names it: its character in Chinese (`鼠g3-g4`), its letter in English (`Rg3-g4`).
 */
function lineText(pv, pos) {
  let p = pos;
  return (pv || []).map((m) => {
    const piece = m !== '--' ? p.board.get(m.slice(0, 2)) : null;
    p = applyMove(p, m);
    if (!piece) return t('pass_short');
    return `${lang() === 'en' ? piece.role : animalChar(piece.role)}${m.slice(0, 2)}-${m.slice(2)}`;
  }).join(' ');
}

/** Moves of a line shown for each of several best moves (the rest is cut to `…`). */
const LINE_MOVES = 8;

/**
 * The evaluation and depth of an analysis answer, as elements, with its best line, or with its
 * best moves when it has several.
 */
function evalView(r, pos) {
  const about = [t('eval_for', { side: t(pos.turn) }), t('depth_n', { n: r.depth || 0 })].join(t('comma'));
  const head = h('div', { class: 'eval-score', 'data-test': 'eval' }, t('labelled', { label: t('evaluation'), text: scoreText(r.score, pos) }),
    h('small', {}, t('parenthesized', { text: '', note: about })));
  // What the numbers mean, in plain words, for the side they are counted for.
  const legend = h('p', { class: 'note legend', 'data-test': 'eval-legend' }, t('legend_eval', { side: t(pos.turn) }));
  const lines = r.lines || [];
  if (lines.length <= 1) return [head, legend, h('div', { class: 'pv', 'data-test': 'pv' }, t('labelled', { label: t('best_line'), text: lineText(r.pv, pos) || '—' }))];
  // Several lines asked for: the best moves (the first is the best line), each with its score
  // and the start of its line.
  return [head, legend, h('div', { class: 'lines-head' }, t('best_moves')),
    h('ol', { class: 'lines', 'data-test': 'lines' }, ...lines.map((l) => h('li', {},
      h('b', {}, scoreText(l.score, pos)), ' ',
      h('span', { class: 'pv' }, lineText(l.pv.slice(0, LINE_MOVES), pos) + (l.pv.length > LINE_MOVES ? ' …' : '')))))];
}

/**
 * The free analysis board (`#/analysis`): set up a position by JFEN, move animals (the legal
 * moves come from the server's analysis endpoint, which also checks every move), see the
 * evaluation and the best line, or the result once the position is over.
 */
export function mountAnalysis(root, params) {
  let startFen = params.get('fen') || START_JFEN;
  let moves = [];
  let positions = [];
  // The legal moves of the last position, from the server (empty until it answers).
  let legal = [];
  let seq = 0;
  const boardEl = h('div', { class: 'board-host' });
  const board = new Board(boardEl, {});
  const evalBox = h('div', { class: 'eval', 'aria-live': 'polite' });
  const fenInput = h('input', { id: 'fen-input', value: startFen, spellcheck: false, autocomplete: 'off' });
  const moveInput = h('input', { id: 'an-move', spellcheck: false, autocomplete: 'off', placeholder: 'g3g4 / Rg4' });
  const list = h('ol', { class: 'moves' });

  // `played`: moves from `fen` to replay at once (from the address: a reload or a change of
  // language redraws the screen from it).
  function reset(fen, played = []) {
    try {
      const start = parseJfen(fen);
      // Not a position (a lion in the water): said here, as the server would (no refused request).
      const problems = positionProblems(start);
      if (problems.length) throw Object.assign(new Error('bad position'), { problems });
      positions = [start];
      startFen = fen;
      moves = [];
      for (const m of played) {
        if (!/^([a-g][1-9]){2}$|^--$/.test(m)) break;
        positions.push(applyMove(positions[positions.length - 1], m));
        moves.push(m);
      }
      run();
    } catch (e) {
      const why = e.problems ? errText({ code: 'bad_position', problems: e.problems })
        : t('bad_fen_detail', { msg: (e instanceof JfenError && jfenText({ code: e.code, ...e.params })) || e.message });
      toast(why, 'error');
      // The evaluation shown was the last position's: it goes (an answer still on its way is
      // dropped), and the reason stands in its place.
      seq += 1;
      evalBox.replaceChildren(h('span', { class: 'error', 'data-test': 'analysis-error' }, why));
    }
  }

  async function tryMove(m) {
    const next = [...moves, m];
    let r;
    try {
      // The server checks the move and answers the legal moves after it.
      r = await api('POST', '/api/analyze', { fen: startFen, moves: next, ms: 10 });
    } catch (e) {
      toast(errText(e), 'error');
      return;
    }
    moves = next;
    positions.push(applyMove(positions[positions.length - 1], m));
    run(r.legal || []);
  }

  board.onMove = (m) => tryMove(m);
  // A move that is not legal goes to the server too, which says why.
  board.onRefused = (m) => tryMove(m);

  function showLegal(list) {
    legal = list;
    board.set({ legal });
  }

  // `known`: the legal moves when the caller already has them from the server.
  async function run(known) {
    const pos = positions[positions.length - 1];
    legal = known || [];
    // The address keeps the position and the moves (without a new history entry).
    const query = new URLSearchParams({ fen: startFen });
    if (moves.length) query.set('moves', moves.join(','));
    history.replaceState(null, '', `#/analysis?${query}`);
    board.set({ pos, legal, movable: pos.turn, orientation: 'red', lastMove: moves[moves.length - 1] || null });
    list.replaceChildren(...moves.map((m, i) => h('li', {}, lineText([m], positions[i]))));
    fenInput.value = printJfen(pos);
    const my = ++seq;
    evalBox.replaceChildren(h('span', {}, t('thinking')));
    try {
      if (!known) {
        // A quick answer first, so that the animals can be moved while the engine thinks.
        const q = await api('POST', '/api/analyze', { fen: startFen, moves, ms: 10 });
        if (my !== seq) return;
        showLegal(q.legal || []);
      }
      const r = await api('POST', '/api/analyze', { fen: startFen, moves, ms: 1000, lines: 3 });
      if (my !== seq) return;
      showLegal(r.legal || []);
      evalBox.replaceChildren(...(r.result ? resultView(r.result) : evalView(r, pos)));
    } catch (e) {
      // A position the server refuses (the browser only checks the JFEN's syntax) says why:
      // `bad_position` with its problems in the player's language (errText).
      if (my === seq) {
        const why = errText(e);
        evalBox.replaceChildren(h('span', { class: 'error', 'data-test': 'analysis-error' }, why));
      }
    }
  }

  root.replaceChildren(h('div', { class: 'game-layout' },
    h('section', { class: 'board-col', 'aria-label': t('board') }, boardEl,
      h('form', { class: 'move-form', onsubmit: (e) => {
        e.preventDefault();
        // Matched against the server's legal moves; a readable move that is not among them goes
        // to the server, which explains the refusal.
        const r = resolveTyped(moveInput.value, positions[positions.length - 1], legal);
        if (r.error && !(r.error === 'move_illegal' && r.move)) { toast(typedErrorText(r), 'error'); return; }
        moveInput.value = '';
        tryMove(r.move);
      } }, h('label', { for: 'an-move' }, t('type_move')), moveInput, h('button', { type: 'submit' }, t('play_move')))),
    h('aside', { class: 'side-col' },
      h('h1', {}, t('analysis_board')),
      evalBox,
      h('div', { class: 'controls' },
        h('button', { type: 'button', onclick: () => { if (moves.length) { moves.pop(); positions.pop(); run(); } } }, t('undo')),
        h('button', { type: 'button', onclick: () => reset(START_JFEN) }, t('start_position')),
        h('button', { type: 'button', onclick: () => copyText(fenInput.value, t('position_jfen')) }, t('copy_fen'))),
      h('form', { class: 'fen-form', onsubmit: (e) => { e.preventDefault(); reset(fenInput.value.trim()); } },
        h('label', { for: 'fen-input' }, t('position_jfen')), fenInput, h('button', { type: 'submit' }, t('load'))),
      h('h2', { class: 'sub' }, t('moves')), list)));
  reset(startFen, (params.get('moves') || '').split(',').filter(Boolean));
  return () => { seq = -1; };
}
