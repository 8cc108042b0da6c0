// JFEN and move notation (RULES.md §10). This is notation only: the client never decides
// legality; legal moves and results always come from the server.

/** Animal letters in rank order, weakest first. */
export const ROLES = ['R', 'C', 'W', 'D', 'P', 'T', 'L', 'E'];
/** Rank of each animal letter (RULES §2, standard rule set). */
export const RANK = { R: 1, C: 2, W: 3, D: 4, P: 5, T: 6, L: 7, E: 8 };
/** Role name keys for the message catalogue. */
export const ROLE_KEY = {
  E: 'elephant', L: 'lion', T: 'tiger', P: 'leopard', D: 'dog', W: 'wolf', C: 'cat', R: 'rat',
};
export const FILES = 'abcdefg';
export const START_JFEN = 'l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r 0 1';

export const WATER = new Set(['b4', 'c4', 'b5', 'c5', 'b6', 'c6', 'e4', 'f4', 'e5', 'f5', 'e6', 'f6']);
export const TRAPS = { red: new Set(['c1', 'e1', 'd2']), blue: new Set(['c9', 'e9', 'd8']) };
export const DENS = { red: 'd1', blue: 'd9' };

/** Square name from file index 0..6 and rank 1..9. */
export function sqName(file, rank) {
  return FILES[file] + rank;
}

/** Terrain of a square: 'water', 'trap-red', 'trap-blue', 'den-red', 'den-blue' or 'land'. */
export function terrain(sq) {
  if (WATER.has(sq)) return 'water';
  if (TRAPS.red.has(sq)) return 'trap-red';
  if (TRAPS.blue.has(sq)) return 'trap-blue';
  if (sq === DENS.red) return 'den-red';
  if (sq === DENS.blue) return 'den-blue';
  return 'land';
}

/**
 * A JFEN the browser cannot read: `code` names what is wrong (the catalogue's `jfen_<code>`
 * entry says it to people, filled with `params`); the message says it in English.
 */
export class JfenError extends Error {
  constructor(code, params, message) {
    super(message);
    this.code = code;
    this.params = params;
  }
}

/**
 * Parses a JFEN string into `{board: Map(square -> {color, role}), turn, halfmoves, fullmove}`.
 * Throws a JfenError naming the field at fault.
 */
export function parseJfen(text) {
  // As long a text as the rules library reads (MAX_JFEN_LEN, in UTF-8 bytes).
  if (new TextEncoder().encode(String(text)).length > 256) throw new JfenError('too_long', { max: 256 }, 'JFEN: too long');
  const fields = String(text).trim().split(/\s+/);
  if (fields.length !== 2 && fields.length !== 4) {
    // A wrong number of fields after a board: a bad side to move explains it best (`<board> 0 1`
    // lacks it), as the rules library says.
    if (fields.length > 2 && boardReads(fields[0])) readTurn(fields[1]);
    throw new JfenError('fields', {}, 'JFEN: expected 2 or 4 fields');
  }
  const board = readBoard(fields[0]);
  const t = readTurn(fields[1]);
  // The counters, as the rules library reads them: whole numbers, the move number from 1.
  const counters = fields.slice(2);
  if (!counters.every((c) => /^\d+$/.test(c) && Number(c) <= 0xffffffff)) throw new JfenError('counters', {}, 'JFEN counters: expected whole numbers');
  const [halfmoves, fullmove] = counters.length ? counters.map(Number) : [0, 1];
  if (fullmove === 0) throw new JfenError('move_number_zero', {}, 'JFEN move number: starts at 1');
  return { board, turn: t === 'b' ? 'blue' : 'red', halfmoves, fullmove };
}

/**
 * What makes a read JFEN no position (RULES §1–§3), as the server's `bad_position` lists it
 * (doc/protocol.md): `[{code, ...facts}]`, empty when it is one. Checked here so that the
 * analysis board need not send a position the server would refuse.
 */
export function positionProblems(pos) {
  const out = [];
  // Squares in the rules library's order: by rank, then by file.
  const squares = [...pos.board.keys()].sort((a, b) => a[1] - b[1] || a.charCodeAt(0) - b.charCodeAt(0));
  for (const color of ['red', 'blue']) {
    for (const role of ROLES) {
      const on = squares.filter((sq) => pos.board.get(sq).color === color && pos.board.get(sq).role === role);
      if (on.length > 1) out.push({ code: 'duplicate', color, animal: role, n: String(on.length), squares: on.join(', ') });
    }
  }
  for (const sq of squares) {
    const { color, role } = pos.board.get(sq);
    const facts = { color, animal: role, square: sq };
    if (DENS[color] === sq) out.push({ code: 'own_den', ...facts });
    if (WATER.has(sq) && role !== 'R') out.push({ code: 'in_water', ...facts });
  }
  const has = (c) => squares.some((sq) => pos.board.get(sq).color === c);
  const other = { red: 'blue', blue: 'red' };
  const won = (c) => pos.board.get(DENS[other[c]])?.color === c || (has(c) && !has(other[c]));
  if (!squares.length) out.push({ code: 'empty' });
  else if (won('red') && won('blue')) out.push({ code: 'both_won' });
  return out;
}

/** The side to move, as the rules library reads it: `r` or `b`, either case, and `w` for Red. */
function readTurn(field) {
  const t = field.toLowerCase();
  if (!['r', 'b', 'w'].includes(t)) throw new JfenError('turn', { found: field }, 'JFEN side to move: expected r or b');
  return t;
}

/** The board field: a map of square to animal; throws a JfenError naming the rank at fault. */
function readBoard(field) {
  const rows = field.split('/');
  if (rows.length !== 9) throw new JfenError('ranks', { n: rows.length }, 'JFEN placement: expected 9 ranks');
  const board = new Map();
  rows.forEach((row, i) => {
    const rank = 9 - i;
    let file = 0;
    for (const ch of row) {
      if (ch >= '1' && ch <= '7') {
        file += Number(ch);
      } else {
        const up = ch.toUpperCase();
        if (!(up in RANK)) throw new JfenError('char', { ch, rank }, `JFEN placement: bad character '${ch}' on rank ${rank}`);
        if (file > 6) throw new JfenError('rank_files', { rank }, `JFEN placement: rank ${rank} too long`);
        board.set(sqName(file, rank), { color: ch === up ? 'red' : 'blue', role: up });
        file += 1;
      }
    }
    if (file !== 7) throw new JfenError('rank_files', { rank }, `JFEN placement: rank ${rank} has ${file} files`);
  });
  return board;
}

function boardReads(field) {
  try {
    readBoard(field);
    return true;
  } catch {
    return false;
  }
}

/** Prints a position object back to JFEN. */
export function printJfen(pos) {
  const rows = [];
  for (let rank = 9; rank >= 1; rank--) {
    let row = '';
    let empty = 0;
    for (let f = 0; f < 7; f++) {
      const p = pos.board.get(sqName(f, rank));
      if (!p) { empty++; continue; }
      if (empty) { row += empty; empty = 0; }
      row += p.color === 'red' ? p.role : p.role.toLowerCase();
    }
    if (empty) row += empty;
    rows.push(row);
  }
  return `${rows.join('/')} ${pos.turn === 'red' ? 'r' : 'b'} ${pos.halfmoves} ${pos.fullmove}`;
}

/**
 * Applies a coordinate move mechanically (for replaying moves the server already accepted):
 * the piece moves, whatever stood on the destination is removed. `--` passes.
 * Returns a new position; `captured` is the removed piece or null.
 */
export function applyMove(pos, move) {
  const board = new Map(pos.board);
  let captured = null;
  if (move !== '--') {
    const from = move.slice(0, 2);
    const to = move.slice(2, 4);
    const piece = board.get(from);
    captured = board.get(to) || null;
    board.delete(from);
    if (piece) board.set(to, piece);
  }
  const turn = pos.turn === 'red' ? 'blue' : 'red';
  return {
    board,
    turn,
    halfmoves: captured ? 0 : pos.halfmoves + 1,
    fullmove: pos.turn === 'blue' ? pos.fullmove + 1 : pos.fullmove,
    captured,
  };
}

/** Pieces missing from a position compared with a full set: `{red: [roles], blue: [roles]}`. */
export function capturedPieces(pos) {
  const out = { red: [], blue: [] };
  for (const color of ['red', 'blue']) {
    for (const role of [...ROLES].reverse()) {
      let present = false;
      for (const p of pos.board.values()) if (p.color === color && p.role === role) present = true;
      if (!present) out[color].push(role);
    }
  }
  return out;
}

const ZH_ROLE = { '象': 'E', '狮': 'L', '獅': 'L', '虎': 'T', '豹': 'P', '狗': 'D', '狼': 'W', '猫': 'C', '貓': 'C', '鼠': 'R' };

/**
 * Turns typed text (`g3g4`, `Rg4`, `Lxd5`, `鼠g4`, `--`) into one of the `legal` coordinate
 * moves of the position, or returns `{error: key}` with a message catalogue key.
 */
export function resolveTyped(text, pos, legal) {
  // As a Chinese input method may give it: full-width letters and digits (ｇ３ｇ４), and the
  // capture sign the move list shows (獅×d5).
  let s = String(text).normalize('NFKC').trim().replace(/\s+/g, '').replace(/×/g, 'x');
  if (!s) return { error: 'move_empty' };
  if (s === '--') return legal.includes('--') ? { move: '--' } : { error: 'move_illegal' };
  const coord = /^([a-g][1-9])-?x?([a-g][1-9])$/i.exec(s);
  if (coord) {
    const m = (coord[1] + coord[2]).toLowerCase();
    return legal.includes(m) ? { move: m } : { error: 'move_illegal', move: m };
  }
  const first = s[0];
  let role = ZH_ROLE[first];
  if (!role && /^[ELTPDWCR]$/i.test(first)) role = first.toUpperCase();
  if (!role) return { error: 'move_syntax' };
  const rest = /^x?([a-g][1-9])#?$/i.exec(s.slice(1));
  if (!rest) return { error: 'move_syntax' };
  const to = rest[1].toLowerCase();
  for (const [sq, p] of pos.board) {
    if (p.color === pos.turn && p.role === role) {
      const m = sq + to;
      return legal.includes(m) ? { move: m } : { error: 'move_illegal', move: m };
    }
  }
  return { error: 'move_no_piece' };
}
