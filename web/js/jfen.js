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
 * entry says it to people, filled with `params`), `field` the field it is in and `position`
 * the character at fault (from 0); the message says it in English, as the rules library does
 * (`invalid JFEN (board field, at character 4): 2 ranks, expected 9`).
 */
export class JfenError extends Error {
  constructor(code, params, field, position, what) {
    super(`invalid JFEN (${field ? `${field} field, ` : ''}at character ${position + 1}): ${what}`);
    this.code = code;
    this.params = params;
    this.field = field;
    this.position = position;
  }
}

/**
 * Parses a JFEN string into `{board: Map(square -> {color, role}), turn, halfmoves, fullmove}`.
 * Throws a JfenError naming the field and the character at fault. As the rules library
 * (crates/jungle/src/jfen.rs) reads it: the fields left to right, each to its first fault, so
 * that a text whose board does not read is told what is wrong with its board whatever the
 * number of fields (`not a position`: an unknown character `n` on rank 9); after a board, a
 * missing or bad side to move; the number of fields only once the fields before are right.
 */
export function parseJfen(text) {
  const str = String(text);
  // As long a text as the rules library reads (MAX_JFEN_LEN, in UTF-8 bytes).
  if (new TextEncoder().encode(str).length > 256) throw new JfenError('too_long', { max: 256 }, null, 0, 'too long to be a JFEN (over 256 bytes)');
  // The fields, each with the position of its first character (in characters, as Rust counts).
  const chars = [...str];
  const fields = [];
  chars.forEach((ch, i) => {
    if (/\s/u.test(ch)) return;
    const last = fields[fields.length - 1];
    if (last && last.next === i) {
      last.text += ch;
      last.next += 1;
    } else {
      fields.push({ at: i, text: ch, next: i + 1 });
    }
  });
  const end = chars.length;
  if (!fields.length) throw new JfenError('fields', {}, null, 0, 'empty JFEN');
  const board = readBoard(fields[0]);
  if (fields.length === 1) throw new JfenError('fields', {}, 'side to move', end, 'missing the side to move (`r` or `b`)');
  const turn = readTurn(fields[1]);
  let halfmoves = 0;
  let fullmove = 1;
  if (fields.length > 2) {
    halfmoves = readCounter(fields[2], 'plies since capture');
    if (fields.length === 3) throw new JfenError('fields', {}, 'move number', end, 'missing the move number (give both counters or neither)');
    fullmove = readCounter(fields[3], 'move number');
    if (fullmove === 0) throw new JfenError('move_number_zero', {}, 'move number', fields[3].at, 'the move number starts at 1');
  }
  if (fields[4]) throw new JfenError('fields', {}, null, fields[4].at, `unexpected extra field \`${fields[4].text}\``);
  return { board, turn, halfmoves, fullmove };
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
function readTurn({ at, text }) {
  if (!/^[rbw]$/i.test(text)) throw new JfenError('turn', { found: text }, 'side to move', at, `expected \`r\` or \`b\` (or \`w\` for Red), found \`${text}\``);
  return /^b$/i.test(text) ? 'blue' : 'red';
}

/** A counter, as the rules library reads it: a whole number (a u32, a `+` allowed). */
function readCounter({ at, text }, field) {
  const n = /^\+?\d+$/.test(text) ? Number(text) : NaN;
  if (!(n <= 0xffffffff)) throw new JfenError('counters', {}, field, at, `expected a whole number, found \`${text}\``);
  return n;
}

/**
 * The board field, character by character as the rules library reads it: a map of square to
 * animal; throws a JfenError at the first character at fault (a rank short at its `/`, too long
 * at the square past its 7th, an unknown character, a 10th rank), else at the end (fewer than 9
 * ranks, the last one short).
 */
function readBoard({ at, text }) {
  const ranks = text.split('/').length;
  const board = new Map();
  const fail = (code, params, i, what) => new JfenError(code, params, 'board', at + i, what);
  let rank = 9;
  let file = 0;
  const chars = [...text];
  chars.forEach((ch, i) => {
    if (ch === '/') {
      if (file !== 7) throw fail('rank_files', { rank }, i, `rank ${rank} has ${file} squares, expected 7`);
      rank -= 1;
      file = 0;
      if (rank < 1) throw fail('ranks', { n: ranks }, i, `${ranks} ranks, expected 9`);
    } else if (ch >= '1' && ch <= '7') {
      file += Number(ch);
      if (file > 7) throw fail('rank_files', { rank }, i, `rank ${rank} has more than 7 squares`);
    } else {
      const up = ch.toUpperCase();
      if (!(up in RANK)) throw fail('char', { ch, rank }, i, `unexpected \`${ch}\`: expected an animal letter (ELTPDWCR, uppercase Red, lowercase Blue), a digit 1-7 or \`/\``);
      if (file >= 7) throw fail('rank_files', { rank }, i, `rank ${rank} has more than 7 squares`);
      board.set(sqName(file, rank), { color: ch === up ? 'red' : 'blue', role: up });
      file += 1;
    }
  });
  if (rank !== 1) throw fail('ranks', { n: ranks }, chars.length, `${ranks} ranks, expected 9`);
  if (file !== 7) throw fail('rank_files', { rank: 1 }, chars.length, `rank 1 has ${file} squares, expected 7`);
  return board;
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
 * Turns typed text (`g3g4`, `Rg4`, `Lxd5`, `Ld9#`, `鼠g4`, `--`) into one of the `legal`
 * coordinate moves of the position, or returns `{error: key}` with a message catalogue key (and
 * `params`, the animal as a letter), or with `why`, as the rules library says a move is wrong
 * (a capture marked where none is, a den entry marked where the enemy den is not).
 */
export function resolveTyped(text, pos, legal) {
  // As a Chinese input method may give it: full-width letters and digits (ｇ３ｇ４), and the
  // capture sign the move list shows (獅×d5).
  const s = String(text).normalize('NFKC').trim().replace(/\s+/g, '').replace(/×/g, 'x');
  if (!s) return { error: 'move_empty' };
  if (s === '--') return legal.includes('--') ? { move: '--' } : { error: 'move_illegal' };
  let from;
  let m = /^([a-g][1-9])-?(x?)([a-g][1-9])(#?)$/i.exec(s);
  if (m) {
    from = m[1].toLowerCase();
  } else {
    const role = ZH_ROLE[s[0]] || (/^[ELTPDWCR]$/i.test(s[0]) ? s[0].toUpperCase() : null);
    m = role && /^()(x?)([a-g][1-9])(#?)$/i.exec(s.slice(1));
    if (!m) return { error: 'move_syntax' };
    from = [...pos.board].find(([, p]) => p.color === pos.turn && p.role === role)?.[0];
    if (!from) return { error: 'move_no_piece' };
  }
  const to = m[3].toLowerCase();
  // The marks are checked as the rules library checks them: `x` takes an animal, `#` enters
  // the enemy den.
  if (m[2] && !pos.board.has(to)) return { error: 'move_illegal', why: { code: 'not_a_capture', to } };
  if (m[4] && to !== DENS[pos.turn === 'red' ? 'blue' : 'red']) return { error: 'move_illegal', why: { code: 'not_the_den', to } };
  if (from === to) {
    const p = pos.board.get(to);
    return p && p.color === pos.turn ? { error: 'move_same_square', params: { animal: p.role, sq: to } } : { error: 'move_no_change' };
  }
  const move = from + to;
  return legal.includes(move) ? { move } : { error: 'move_illegal', move };
}
