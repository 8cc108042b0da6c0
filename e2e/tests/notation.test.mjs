// The client's notation helpers (JFEN printing/parsing, typed moves): notation only, no rules.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseJfen, printJfen, applyMove, resolveTyped, capturedPieces, positionProblems, START_JFEN } from '../../web/js/jfen.js';

test('JFEN round-trips and reads the start position', () => {
  const pos = parseJfen(START_JFEN);
  assert.equal(printJfen(pos), START_JFEN);
  assert.deepEqual(pos.board.get('a1'), { color: 'red', role: 'T' });
  assert.deepEqual(pos.board.get('g7'), { color: 'blue', role: 'E' });
  assert.equal(pos.board.size, 16);
  assert.equal(pos.turn, 'red');
  assert.equal(printJfen(parseJfen('l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w')), START_JFEN);
});

test('bad JFEN is refused with the field and the character named, as the rules library does', () => {
  // Its English words are the library's (`jungle moves --fen …` prints the same).
  assert.throws(() => parseJfen('l5t/1d3c1 r 0 1'), { message: 'invalid JFEN (board field, at character 10): 2 ranks, expected 9' });
  assert.throws(() => parseJfen('x5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r 0 1'), /^Error: invalid JFEN \(board field, at character 1\): unexpected `x`/);
  assert.throws(() => parseJfen('l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L q 0 1'),
    { message: 'invalid JFEN (side to move field, at character 43): expected `r` or `b` (or `w` for Red), found `q`' });
  assert.throws(() => parseJfen('  7/7/7/7/7/7/7/7/7  r  x 1'), { message: 'invalid JFEN (plies since capture field, at character 25): expected a whole number, found `x`' });
  assert.throws(() => parseJfen('77x/7/7/7/7/7/7/7/7 r'), { message: 'invalid JFEN (board field, at character 2): rank 9 has more than 7 squares' });
  // Each refusal also names its problem by code, for the catalogue's jfen_… text.
  const code = (text) => { try { parseJfen(text); } catch (e) { return [e.code, e.params]; } return null; };
  // The fields are read left to right, each to its first fault: a board that does not read is
  // what is wrong, whatever the number of fields.
  assert.deepEqual(code('l5t'), ['ranks', { n: 1 }]);
  assert.deepEqual(code('not a position'), ['char', { ch: 'n', rank: 9 }]);
  assert.deepEqual(code('xyz'), ['char', { ch: 'x', rank: 9 }]);
  assert.deepEqual(code('7/7/7/7/7/7/7/7/7/7 r'), ['ranks', { n: 10 }]);
  assert.deepEqual(code(''), ['fields', {}]);
  // A board, then counters without the side to move: that field is named, as the server does.
  assert.deepEqual(code('l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L 0 1'), ['turn', { found: '0' }]);
  assert.deepEqual(code('l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L x 0'), ['turn', { found: 'x' }]);
  // The number of fields, once the fields before the missing or extra one are right.
  assert.deepEqual(code('l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L'), ['fields', {}]);
  assert.deepEqual(code('l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r 0'), ['fields', {}]);
  assert.deepEqual(code('l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r 0 1 x'), ['fields', {}]);
  assert.deepEqual(code('l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r x 1 2 3'), ['counters', {}]);
  assert.deepEqual(code('l5t/1d3c1 r'), ['ranks', { n: 2 }]);
  assert.deepEqual(code('x5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r'), ['char', { ch: 'x', rank: 9 }]);
  assert.deepEqual(code('l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5 r'), ['rank_files', { rank: 1 }]);
  assert.deepEqual(code('l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5LL r'), ['rank_files', { rank: 1 }]);
  assert.deepEqual(code('l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L Q'), ['turn', { found: 'Q' }]);
  assert.deepEqual(code('l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r x 1'), ['counters', {}]);
  // As the rules library: whole numbers only, the move number from 1, at most 256 bytes.
  assert.deepEqual(code('l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r -1 1'), ['counters', {}]);
  assert.deepEqual(code('l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r 1.5 1'), ['counters', {}]);
  assert.deepEqual(code('l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r 0 0'), ['move_number_zero', {}]);
  assert.equal(parseJfen('l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r +3 1').halfmoves, 3);
  assert.deepEqual(code('7/'.repeat(200)), ['too_long', { max: 256 }]);
  assert.deepEqual(parseJfen('l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b 17 9').fullmove, 9);
  // The side to move is read as the rules library reads it: either case.
  assert.equal(parseJfen('l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L B').turn, 'blue');
});

test('applying accepted moves matches the server\'s JFEN', () => {
  let pos = parseJfen(START_JFEN);
  pos = applyMove(pos, 'g3g4');
  assert.equal(printJfen(pos), 'l5t/1d3c1/r1p1w1e/7/7/6R/E1W1P2/1C3D1/T5L b 1 1');
  pos = applyMove(pos, '--');
  assert.equal(pos.turn, 'red');
  assert.equal(pos.fullmove, 2);
});

test('typed moves resolve against the legal list', () => {
  const pos = parseJfen(START_JFEN);
  const legal = ['g3g4', 'g3f3', 'e3e4', 'a3a4'];
  assert.deepEqual(resolveTyped('g3g4', pos, legal), { move: 'g3g4' });
  assert.deepEqual(resolveTyped('G3-G4', pos, legal), { move: 'g3g4' });
  assert.deepEqual(resolveTyped('Rg4', pos, legal), { move: 'g3g4' });
  assert.deepEqual(resolveTyped('鼠f3', pos, legal), { move: 'g3f3' });
  assert.deepEqual(resolveTyped('Ea4', pos, legal), { move: 'a3a4' });
  // As a Chinese input method gives it: full-width, and the capture sign the move list shows.
  assert.deepEqual(resolveTyped('ｇ３ｇ４', pos, legal), { move: 'g3g4' });
  assert.deepEqual(resolveTyped('鼠ｆ３', pos, legal), { move: 'g3f3' });
  const prey = parseJfen('l5t/1d3c1/2p1w1e/7/7/7/E1W1PrR/1C3D1/T5L r 0 1');
  assert.deepEqual(resolveTyped('鼠×f3', prey, legal), { move: 'g3f3' });
  // Not legal: the move meant comes back too, so that a reason the server gave can be shown.
  assert.deepEqual(resolveTyped('Lg5', pos, legal), { error: 'move_illegal', move: 'g1g5' });
  assert.deepEqual(resolveTyped('g3g2', pos, legal), { error: 'move_illegal', move: 'g3g2' });
  assert.deepEqual(resolveTyped('hello', pos, legal), { error: 'move_syntax' });
  // A move to the square the animal stands on: said here, not sent to the server.
  assert.deepEqual(resolveTyped('Lg1', pos, legal), { error: 'move_same_square', params: { animal: 'L', sq: 'g1' } });
  assert.deepEqual(resolveTyped('狮g1', pos, legal), { error: 'move_same_square', params: { animal: 'L', sq: 'g1' } });
  assert.deepEqual(resolveTyped('g1g1', pos, legal), { error: 'move_same_square', params: { animal: 'L', sq: 'g1' } });
  assert.deepEqual(resolveTyped('d5d5', pos, legal), { error: 'move_no_change' });
  // The marks are checked: x must take an animal, # must enter the enemy den.
  assert.deepEqual(resolveTyped('Rxg4', pos, legal), { error: 'move_illegal', why: { code: 'not_a_capture', to: 'g4' } });
  assert.deepEqual(resolveTyped('g3xg4', pos, legal), { error: 'move_illegal', why: { code: 'not_a_capture', to: 'g4' } });
  assert.deepEqual(resolveTyped('Rg4#', pos, legal), { error: 'move_illegal', why: { code: 'not_the_den', to: 'g4' } });
  assert.deepEqual(resolveTyped('Ed1#', pos, legal), { error: 'move_illegal', why: { code: 'not_the_den', to: 'd1' } });
  const nearDen = parseJfen('7/3R3/7/7/7/7/7/7/7 r 0 1');
  assert.deepEqual(resolveTyped('Rd9#', nearDen, ['d8d9', 'd8c8']), { move: 'd8d9' });
  assert.deepEqual(resolveTyped('d8d9#', nearDen, ['d8d9', 'd8c8']), { move: 'd8d9' });
  assert.deepEqual(resolveTyped('Rxd9#', nearDen, ['d8d9']), { error: 'move_illegal', why: { code: 'not_a_capture', to: 'd9' } });
  assert.deepEqual(resolveTyped('Rc8#', nearDen, ['d8d9', 'd8c8']), { error: 'move_illegal', why: { code: 'not_the_den', to: 'c8' } });
  // Blue's den entry is into Red's den.
  const blueNearDen = parseJfen('7/3r3/7/7/7/7/7/7/7 b 0 1');
  assert.deepEqual(resolveTyped('Rd9#', blueNearDen, ['d8d9']), { error: 'move_illegal', why: { code: 'not_the_den', to: 'd9' } });
  assert.deepEqual(resolveTyped('', pos, legal), { error: 'move_empty' });
  const noRat = parseJfen('l5t/1d3c1/r1p1w1e/7/7/7/E1W1P2/1C3D1/T5L r 0 1');
  assert.deepEqual(resolveTyped('Rg4', noRat, legal), { error: 'move_no_piece' });
  assert.deepEqual(capturedPieces(noRat), { red: ['R'], blue: [] });
});

test('a readable JFEN that is no position is refused as the server would (its bad_position problems)', () => {
  const problems = (text) => positionProblems(parseJfen(text));
  assert.deepEqual(problems(START_JFEN), []);
  assert.deepEqual(problems('l5t/1d3c1/r1p1w1e/7/7/1L5/7/7/7 r'), [{ code: 'in_water', color: 'red', animal: 'L', square: 'b4' }]);
  // A rat swims; two of a kind are listed by their squares, rank by rank.
  assert.deepEqual(problems('R6/7/7/7/7/1R5/7/7/R5r r'), [{ code: 'duplicate', color: 'red', animal: 'R', n: '3', squares: 'a1, b4, a9' }]);
  assert.deepEqual(problems('3e3/7/7/7/7/7/7/7/E6 r'), [{ code: 'own_den', color: 'blue', animal: 'E', square: 'd9' }]);
  assert.deepEqual(problems('7/7/7/7/7/7/7/7/7 r'), [{ code: 'empty' }]);
  assert.deepEqual(problems('3L3/7/7/7/7/7/7/7/3r3 r'), [{ code: 'both_won' }]);
  // One side alone on the board has won, which is a position (the game is over).
  assert.deepEqual(problems('7/7/7/7/7/7/7/7/E6 b'), []);
});
