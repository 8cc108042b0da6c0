// The 7×9 board: terrain, animals, selection, click-click and drag moves, keyboard navigation
// and screen-reader labels. It knows no rules: destinations come from the server's `legal` list.

import { FILES, RANK, sqName, terrain, DENS } from './jfen.js';
import { iconSvg, CHAR } from './pieces.js';
import { t, lang } from './i18n.js';

/** The character of an animal in the current language (simplified characters for English). */
export function animalChar(role) {
  return (CHAR[lang()] || CHAR['zh-Hans'])[role];
}

/** Markup of a piece (icon, character and rank) for use on and off the board. */
export function pieceHtml(p, showRank) {
  return `<span class="piece ${p.color}" data-role="${p.role}">${iconSvg(p.role)}`
    + `<span class="ch" lang="zh">${animalChar(p.role)}</span>`
    + `${showRank ? `<span class="rk">${RANK[p.role]}</span>` : ''}</span>`;
}

function terrainSvg(kind) {
  if (kind === 'water') {
    return '<svg class="terrain" viewBox="0 0 40 40" aria-hidden="true"><path d="M4 14q4-4 8 0t8 0 8 0 8 0M4 26q4-4 8 0t8 0 8 0 8 0" fill="none" stroke="rgba(255,255,255,.55)" stroke-width="2"/></svg>';
  }
  if (kind.startsWith('trap')) {
    return '<svg class="terrain" viewBox="0 0 40 40" aria-hidden="true"><path d="M13 6v28M27 6v28M6 13h28M6 27h28" stroke="rgba(90,50,20,.45)" stroke-width="2.5"/></svg>';
  }
  if (kind.startsWith('den')) {
    return '<svg class="terrain" viewBox="0 0 40 40" aria-hidden="true"><path d="M6 34 L20 8 L34 34Z" fill="rgba(90,50,20,.25)" stroke="rgba(90,50,20,.6)" stroke-width="2"/><path d="M16 34 Q20 22 24 34" fill="rgba(60,30,10,.5)"/></svg>';
  }
  return '';
}

/** An interactive board bound to a container element. */
export class Board {
  /**
   * @param {HTMLElement} el container
   * @param {{onMove?: (move: string) => void, onForbidden?: (why: object) => void,
   *   onRefused?: (move: string) => void}} opts
   *   `onForbidden` hears of a move tried that the game's history forbids (the server's
   *   `forbidden`: RULES §7), with why; `onRefused` of any other move tried that is not legal
   *   (the selected animal to a square that is not one of its destinations nor holds an animal
   *   of its own side), for the caller to have the server say why. `arrowKeys` says whether the
   *   arrow keys move the focus between squares now (always, unless it says otherwise): a
   *   finished game leaves them to its replay.
   */
  constructor(el, opts = {}) {
    this.el = el;
    this.onMove = opts.onMove || (() => {});
    this.onForbidden = opts.onForbidden || (() => {});
    this.onRefused = opts.onRefused || (() => {});
    this.arrowKeys = opts.arrowKeys || (() => true);
    this.state = { pos: null, legal: [], forbidden: {}, orientation: 'red', lastMove: null, movable: null, showRanks: false, hint: null };
    this.selected = null;
    this.focusSq = 'd1';
    this.drag = null;
    this.suppressClick = false;
    el.classList.add('board-wrap');
    el.innerHTML = '';
    this.grid = document.createElement('div');
    this.grid.className = 'board';
    this.grid.setAttribute('role', 'grid');
    el.appendChild(this.grid);
    this.grid.addEventListener('click', (e) => this.handleClick(e));
    this.grid.addEventListener('pointerdown', (e) => this.handleDown(e));
    this.grid.addEventListener('keydown', (e) => this.handleKey(e));
    this.moveListener = (e) => this.handlePointerMove(e);
    this.upListener = (e) => this.handleUp(e);
  }

  /** Updates what the board shows; `patch` holds any of the state fields. */
  set(patch) {
    const posChanged = 'pos' in patch && patch.pos !== this.state.pos;
    Object.assign(this.state, patch);
    if (posChanged) this.selected = null;
    if (this.selected && !this.destinations(this.selected).length) this.selected = null;
    this.render();
  }

  /** Legal destinations of the animal on `sq`. */
  destinations(sq) {
    if (!this.canMove()) return [];
    return this.state.legal.filter((m) => m.startsWith(sq) && m.length === 4).map((m) => m.slice(2, 4));
  }

  /**
   * Why the move that a click on `sq` asks for is forbidden by the game's history, if it is: the
   * selected animal to `sq`, or, for an animal of the side to move with no legal move at all, its
   * first forbidden one.
   */
  forbiddenWhy(sq) {
    const f = this.forbiddenMoves();
    if (this.selected && f[this.selected + sq]) return f[this.selected + sq];
    if (sq !== this.selected && !this.destinations(sq).length) {
      const m = Object.keys(f).find((k) => k.startsWith(sq));
      if (m) return f[m];
    }
    return null;
  }

  /**
   * The move from `from` to `to` when it is neither legal, nor forbidden by the history, nor a
   * click on an animal of the side to move (which selects it or its neighbour instead): a move the
   * server refuses and explains. Null otherwise.
   */
  refusedMove(from, to) {
    const { pos } = this.state;
    if (!from || !to || from === to || !this.canMove() || this.destinations(from).includes(to)) return null;
    const there = pos.board.get(to);
    if (there && there.color === pos.turn) return null;
    return this.forbiddenMoves()[from + to] ? null : from + to;
  }

  /** The moves the game's history forbids (the server's `forbidden`), while the board may move. */
  forbiddenMoves() {
    return (this.canMove() && this.state.forbidden) || {};
  }

  canMove() {
    const { pos, movable } = this.state;
    return Boolean(pos && movable && (movable === 'both' || movable === pos.turn));
  }

  squaresInOrder() {
    const out = [];
    const flip = this.state.orientation === 'blue';
    for (let r = 0; r < 9; r++) {
      const rank = flip ? r + 1 : 9 - r;
      for (let f = 0; f < 7; f++) out.push(sqName(flip ? 6 - f : f, rank));
    }
    return out;
  }

  squareLabel(sq, piece, terr) {
    const parts = [sq];
    if (piece) parts.push(t('piece_label', { side: t(piece.color), animal: t(`animal_${piece.role}`) }));
    if (terr !== 'land') parts.push(t(`terrain_${terr.replace('-', '_')}`));
    return parts.join(t('comma'));
  }

  /** Opponent animals next to a den: marked as den threats. */
  threats() {
    const { pos } = this.state;
    const out = new Set();
    if (!pos) return out;
    for (const color of ['red', 'blue']) {
      const den = DENS[color];
      const f = FILES.indexOf(den[0]);
      const r = Number(den[1]);
      for (const [df, dr] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
        if (f + df < 0 || f + df > 6 || r + dr < 1 || r + dr > 9) continue;
        const sq = sqName(f + df, r + dr);
        const p = pos.board.get(sq);
        if (p && p.color !== color) out.add(sq);
      }
    }
    return out;
  }

  render() {
    const { pos, lastMove, orientation, showRanks, hint } = this.state;
    const dests = this.selected ? new Set(this.destinations(this.selected)) : new Set();
    // Squares the game's history closes to the selected animal (RULES §7): marked, and a click
    // there says why.
    const closed = new Set(this.selected && !this.noHints
      ? Object.keys(this.forbiddenMoves()).filter((m) => m.startsWith(this.selected)).map((m) => m.slice(2, 4))
      : []);
    const threats = this.threats();
    const squares = this.squaresInOrder();
    if (!squares.includes(this.focusSq)) this.focusSq = squares[squares.length - 4];
    // A square keeps the keyboard's focus across a redraw (a move, the opponent's move, any
    // update): the new square in its place takes it, so the arrow keys go on working.
    const hadFocus = this.grid.contains(document.activeElement);
    const frag = document.createDocumentFragment();
    const movableFrom = new Set(this.canMove() ? this.state.legal.map((m) => m.slice(0, 2)) : []);
    for (let i = 0; i < 9; i++) {
      const row = document.createElement('div');
      row.className = 'row';
      row.setAttribute('role', 'row');
      for (let j = 0; j < 7; j++) {
        const sq = squares[i * 7 + j];
        const terr = terrain(sq);
        const piece = pos ? pos.board.get(sq) : null;
        const b = document.createElement('button');
        b.type = 'button';
        b.className = `sq ${terr}`;
        b.dataset.sq = sq;
        b.setAttribute('role', 'gridcell');
        b.tabIndex = sq === this.focusSq ? 0 : -1;
        if (lastMove && lastMove !== '--' && (lastMove.startsWith(sq) || lastMove.endsWith(sq))) b.classList.add('last');
        if (sq === this.selected) b.classList.add('selected');
        const hinted = hint && (hint.startsWith(sq) || hint.endsWith(sq));
        if (hinted) b.classList.add('hint');
        if (dests.has(sq) && !this.noHints) b.classList.add(piece ? 'dest-capture' : 'dest');
        if (closed.has(sq)) b.classList.add('closed');
        if (threats.has(sq)) b.classList.add('threat');
        if (movableFrom.has(sq)) b.classList.add('movable');
        const label = [this.squareLabel(sq, piece, terr)];
        if (dests.has(sq) && !this.noHints) label.push(t('legal_destination'));
        if (closed.has(sq)) label.push(t('closed_square'));
        if (sq === this.selected) label.push(t('selected'));
        if (hinted) label.push(t('hint_square'));
        b.setAttribute('aria-label', label.join(t('comma')));
        let html = terrainSvg(terr);
        if (piece) html += pieceHtml(piece, showRanks);
        if (j === 0) html += `<span class="coord rank-c" aria-hidden="true">${sq[1]}</span>`;
        if (i === 8) html += `<span class="coord file-c" aria-hidden="true">${sq[0]}</span>`;
        b.innerHTML = html;
        row.appendChild(b);
      }
      frag.appendChild(row);
    }
    this.grid.replaceChildren(frag);
    if (hadFocus) this.grid.querySelector(`[data-sq="${this.focusSq}"]`)?.focus({ preventScroll: true });
    this.grid.setAttribute('aria-label', t('board_label', { side: t(orientation) }));
    this.grid.classList.toggle('flipped', orientation === 'blue');
  }

  sqFromEvent(e) {
    const b = e.target.closest ? e.target.closest('.sq') : null;
    return b && this.grid.contains(b) ? b.dataset.sq : null;
  }

  /** Selects or moves as a click (or Enter/Space on a square) on `sq` asks. */
  activate(sq) {
    if (!sq) return;
    this.focusSq = sq;
    if (this.selected && this.destinations(this.selected).includes(sq)) {
      const m = this.selected + sq;
      this.selected = null;
      this.render();
      this.onMove(m);
      this.refocus();
      return;
    }
    const why = this.forbiddenWhy(sq);
    const refused = this.refusedMove(this.selected, sq);
    if (sq !== this.selected && this.destinations(sq).length) {
      this.selected = sq;
    } else {
      this.selected = null;
    }
    this.render();
    this.refocus();
    if (why) this.onForbidden(why);
    else if (refused) this.onRefused(refused);
  }

  refocus() {
    if (!this.grid.contains(document.activeElement) && document.activeElement !== document.body) return;
    const b = this.grid.querySelector(`[data-sq="${this.focusSq}"]`);
    if (b) b.focus({ preventScroll: true });
  }

  handleClick(e) {
    if (this.suppressClick) {
      this.suppressClick = false;
      return;
    }
    this.activate(this.sqFromEvent(e));
  }

  handleDown(e) {
    if (e.button !== 0) return;
    const sq = this.sqFromEvent(e);
    if (!sq || !this.destinations(sq).length) return;
    this.drag = { from: sq, x: e.clientX, y: e.clientY, ghost: null, id: e.pointerId };
    window.addEventListener('pointermove', this.moveListener);
    window.addEventListener('pointerup', this.upListener);
    window.addEventListener('pointercancel', this.upListener);
  }

  handlePointerMove(e) {
    const d = this.drag;
    if (!d || e.pointerId !== d.id) return;
    if (!d.ghost) {
      if (Math.hypot(e.clientX - d.x, e.clientY - d.y) < 6) return;
      this.selected = d.from;
      this.render();
      const src = this.grid.querySelector(`[data-sq="${d.from}"] .piece`);
      if (!src) return;
      const r = src.getBoundingClientRect();
      d.ghost = src.cloneNode(true);
      d.ghost.classList.add('ghost');
      d.ghost.style.width = `${r.width}px`;
      d.ghost.style.height = `${r.height}px`;
      document.body.appendChild(d.ghost);
      src.classList.add('dragging');
    }
    d.ghost.style.transform = `translate(${e.clientX - d.ghost.offsetWidth / 2}px, ${e.clientY - d.ghost.offsetHeight / 2}px)`;
  }

  handleUp(e) {
    const d = this.drag;
    window.removeEventListener('pointermove', this.moveListener);
    window.removeEventListener('pointerup', this.upListener);
    window.removeEventListener('pointercancel', this.upListener);
    this.drag = null;
    if (!d || !d.ghost) return;
    d.ghost.remove();
    this.suppressClick = true;
    setTimeout(() => { this.suppressClick = false; }, 0);
    const target = document.elementFromPoint(e.clientX, e.clientY);
    const b = target && target.closest ? target.closest('.sq') : null;
    const to = b && this.grid.contains(b) ? b.dataset.sq : null;
    if (to && this.destinations(d.from).includes(to)) {
      this.selected = null;
      this.render();
      this.onMove(d.from + to);
    } else {
      this.render();
      const why = to && this.forbiddenMoves()[d.from + to];
      const refused = this.refusedMove(d.from, to);
      if (why) this.onForbidden(why);
      else if (refused) this.onRefused(refused);
    }
  }

  handleKey(e) {
    const sq = this.sqFromEvent(e);
    if (!sq) return;
    const flip = this.state.orientation === 'blue' ? -1 : 1;
    const deltas = { ArrowUp: [0, 1], ArrowDown: [0, -1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };
    if (deltas[e.key]) {
      if (!this.arrowKeys()) return;
      e.preventDefault();
      const [df, dr] = deltas[e.key];
      const f = FILES.indexOf(sq[0]) + df * flip;
      const r = Number(sq[1]) + dr * flip;
      if (f < 0 || f > 6 || r < 1 || r > 9) return;
      this.focusSq = sqName(f, r);
      this.grid.querySelectorAll('.sq').forEach((b) => { b.tabIndex = b.dataset.sq === this.focusSq ? 0 : -1; });
      this.grid.querySelector(`[data-sq="${this.focusSq}"]`).focus();
    } else if (e.key === 'Escape') {
      this.selected = null;
      this.render();
      this.refocus();
    }
  }
}

