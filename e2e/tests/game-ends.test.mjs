// The ends of a game between two people, one playing in Chinese (Red), the other in English
// (Blue): who aborted, said after a reload; no rematch of an aborted game; the server's
// `rematch_closed` (fed into the page: the shared server sends it only 2 minutes after an end);
// a move refused while the server stops (`shutting_down`, fed); Abort still offered after a
// server pass (a pass is no move); a game lost by four move timeouts, played for real.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { launch, openPlayer, gameId, clickMove, waitMoves, endingText, BASE } from '../lib.mjs';

// The texts as the catalogue has them: [简体, 繁體, English].
const CATALOGUE = JSON.parse(fs.readFileSync(new URL('../../web/messages.json', import.meta.url), 'utf8'));
const LANG = { zh: 0, en: 2 };
function msg(key, lang, params = {}) {
  const s = CATALOGUE[key][LANG[lang]];
  return s.replace(/\{(\w+)\}/g, (_, k) => params[k]);
}

/** Asserts that `text` holds `part` word for word. */
function includes(text, part) {
  assert.ok(text.includes(part), `${JSON.stringify(text)} does not say ${JSON.stringify(part)}`);
}

let browser;
/** Plays Red in every game here, in Simplified Chinese. */
let red;
/** Plays Blue, in English. */
let blue;

before(async () => {
  browser = await launch();
  red = await openPlayer(browser, { locale: 'zh-CN' });
  blue = await openPlayer(browser, { locale: 'en-US' });
});

after(async () => {
  await browser?.close();
});

async function closeDialog(page) {
  const dlg = page.locator('dialog.modal[open]');
  if (await dlg.count()) await dlg.locator('button.primary').click();
}

/** Feeds a server message into the page's socket, as if the server had sent it. */
function feed(page, m) {
  return page.evaluate((text) => window.jungle.socket.ws.dispatchEvent(new MessageEvent('message', { data: text })), JSON.stringify(m));
}

/** Sends a message to the server on the page's socket. */
function send(page, m) {
  return page.evaluate((x) => window.jungle.socket.send(x), m);
}

/**
 * Red challenges Blue (a casual game, Red's side, time control `tc`: any the server accepts,
 * such as a move limit of a few seconds the lobby does not offer); Blue accepts by the link.
 * Returns the game's id once both pages show it.
 */
async function newGame(tc) {
  for (const p of [red.page, blue.page]) {
    await p.goto(`${BASE}/#/`);
    await p.waitForSelector('[data-test=start-ai]');
    await closeDialog(p);
    await p.locator('[data-test=conn].open').waitFor({ state: 'attached' });
  }
  const challenge = await red.page.evaluate((t) => new Promise((resolve, reject) => {
    const off = window.jungle.socket.on((m) => {
      if (m.t === 'challenge_created') { off(); resolve(m.id); }
      if (m.t === 'error' && m.re === 'challenge') { off(); reject(new Error(`${m.code}: ${m.message}`)); }
    });
    window.jungle.socket.send({ t: 'challenge', tc: t, rated: false, color: 'red' });
  }), tc);
  await blue.page.goto(`${BASE}/#/c/${encodeURIComponent(challenge)}`);
  await blue.page.click('[data-test=accept-challenge]');
  const id = await gameId(blue.page);
  // Red's page opens the game by itself (the challenge was made on it).
  assert.equal(await gameId(red.page), id);
  assert.equal(await red.page.locator('.player.bottom .pinfo').getAttribute('data-color'), 'red');
  assert.equal(await blue.page.locator('.player.bottom .pinfo').getAttribute('data-color'), 'blue');
  return id;
}

const CLASSICAL = { clock_s: 1800, inc_s: 10, move_s: 120 };

/** Reloads the page on the game `id` and waits for its finished state. */
async function reloadFinished(page, id) {
  await page.reload();
  await page.waitForSelector('body[data-ready="1"]');
  await page.waitForFunction((g) => window.jungle.store.games.get(g)?.status === 'finished', id);
  await page.locator('[data-test=status].over').waitFor();
}

test('an aborted game offers no rematch: none shown, and the server refuses one (aborted_no_rematch), said in each language', async () => {
  const id = await newGame(CLASSICAL);
  await blue.page.click('[data-test=abort]');
  await blue.page.locator('dialog.modal[open] [data-test=confirm-yes]').click();
  // Said at once from each side (the tab that asked knows; the other is told by `ended`).
  includes(await endingText(red.page), msg('end_aborted_by', 'zh', { side: msg('blue', 'zh') }));
  includes(await endingText(blue.page), msg('end_aborted_you', 'en'));
  for (const p of [red.page, blue.page]) {
    assert.equal(await p.locator('dialog.modal[open] button[data-value=rematch]').count(), 0);
    await closeDialog(p);
    assert.equal(await p.locator('[data-test=rematch], [data-test=rematch-accept]').count(), 0);
  }
  // Reloaded, the server's state says who aborted (`result.by`) and that no rematch can be had.
  for (const p of [red.page, blue.page]) {
    await reloadFinished(p, id);
    const g = await p.evaluate((x) => window.jungle.store.games.get(x), id);
    assert.equal(g.result.reason, 'aborted');
    assert.equal(g.result.by, 'blue');
    assert.equal(g.rematch_open, false);
    assert.equal(await p.locator('[data-test=rematch], [data-test=rematch-accept]').count(), 0);
  }
  // Asked for anyway (an old tab, a forged message): the server refuses, in the player's words.
  await send(red.page, { t: 'rematch', game: id });
  await red.page.locator('#toasts .toast.error', { hasText: msg('err_aborted_no_rematch', 'zh') }).waitFor();
  await send(blue.page, { t: 'rematch', game: id });
  await blue.page.locator('#toasts .toast.error', { hasText: msg('err_aborted_no_rematch', 'en') }).waitFor();
  // And none is offered after it.
  for (const p of [red.page, blue.page]) {
    assert.equal(await p.locator('[data-test=rematch], [data-test=rematch-accept]').count(), 0);
  }
  assert.deepEqual(red.page.errors, []);
  assert.deepEqual(blue.page.errors, []);
});

test('an aborted game, reloaded, still says who aborted it: the other side by colour, the aborter as "you"', async () => {
  const id = await newGame(CLASSICAL);
  await blue.page.click('[data-test=abort]');
  await blue.page.locator('dialog.modal[open] [data-test=confirm-yes]').click();
  await endingText(red.page);
  await endingText(blue.page);
  const redSays = msg('end_aborted_by', 'zh', { side: msg('blue', 'zh') });
  const blueSays = msg('end_aborted_you', 'en');
  // A reload has no `ended` and no memory of who asked: the game's state (`result.by`) says it.
  await reloadFinished(red.page, id);
  await red.page.waitForFunction((s) => document.querySelector('main').innerText.includes(s), redSays, { timeout: 5000 })
    .catch(async () => assert.fail(`after a reload Red's page does not say "${redSays}"; it shows: ${JSON.stringify(await red.page.locator('main').innerText())}`));
  await reloadFinished(blue.page, id);
  await blue.page.waitForFunction((s) => document.querySelector('main').innerText.includes(s), blueSays, { timeout: 5000 });
  assert.deepEqual(red.page.errors, []);
  assert.deepEqual(blue.page.errors, []);
});

test('rematch_closed from the server hides Rematch; a pending offer is said gone, in each language', async () => {
  const id = await newGame(CLASSICAL);
  await clickMove(red.page, 'g3g4');
  await waitMoves(blue.page, 1);
  await blue.page.click('[data-test=resign]');
  await blue.page.locator('dialog.modal[open] [data-test=confirm-yes]').click();
  await endingText(red.page);
  await endingText(blue.page);
  for (const p of [red.page, blue.page]) await closeDialog(p);
  // Blue asks for a rematch; Red is offered it.
  await blue.page.click('[data-test=rematch]');
  await blue.page.locator('[data-test=rematch]', { hasText: msg('rematch_waiting', 'en') }).waitFor();
  await red.page.locator('[data-test=rematch-accept]').waitFor();
  await red.page.locator('[data-test=rematch]', { hasText: msg('accept_rematch', 'zh') }).waitFor();
  // Two minutes after the end the game leaves the server's memory: the server says so.
  await feed(red.page, { t: 'rematch_closed', game: id });
  await feed(blue.page, { t: 'rematch_closed', game: id });
  await red.page.locator('#toasts .toast', { hasText: msg('rematch_closed', 'zh') }).waitFor();
  await blue.page.locator('#toasts .toast', { hasText: msg('rematch_closed', 'en') }).waitFor();
  for (const p of [red.page, blue.page]) {
    await p.locator('[data-test=rematch], [data-test=rematch-accept]').first().waitFor({ state: 'detached' });
    assert.equal(await p.locator('[data-test=rematch], [data-test=rematch-accept]').count(), 0);
    assert.equal(await p.locator('.offer-bar').isVisible(), false);
    assert.equal(await p.evaluate((g) => window.jungle.store.games.get(g).rematch_open, id), false);
  }
  assert.deepEqual(red.page.errors, []);
  assert.deepEqual(blue.page.errors, []);
});

test('a move refused because the server is stopping (shutting_down) is said in the player\'s language, not the server\'s English', async () => {
  const id = await newGame(CLASSICAL);
  const serverWords = 'the server is stopping…';
  const refusal = { t: 'error', code: 'shutting_down', message: serverWords, re: 'move' };
  for (const [p, lang] of [[red.page, 'zh'], [blue.page, 'en']]) {
    await feed(p, refusal);
    const said = p.locator('#toasts .toast.error', { hasText: msg('err_shutting_down', lang) });
    await said.waitFor();
    assert.equal(await said.innerText(), msg('err_shutting_down', lang));
    assert.doesNotMatch(await p.locator('#toasts').innerText(), /stopping/);
    // The game goes on as the server has it: nothing was played.
    assert.equal(await p.locator('.moves .mv[data-ply]').count(), 0);
  }
  // Called off, for the next test.
  await send(red.page, { t: 'abort', game: id });
  await endingText(red.page);
  await endingText(blue.page);
  assert.deepEqual(red.page.errors, []);
  assert.deepEqual(blue.page.errors, []);
});

test('a server pass is no move: after Red moves and Blue is passed for, both are still offered Abort, and Blue aborts', async () => {
  // A move limit of 8 s: Red moves at once, Blue lets it run out.
  const id = await newGame({ clock_s: 0, inc_s: 0, move_s: 8 });
  try {
    await clickMove(red.page, 'g3g4');
    await waitMoves(blue.page, 1);
    // Both may still abort: Blue has not moved.
    assert.equal(await red.page.locator('[data-test=abort]').count(), 1);
    assert.equal(await blue.page.locator('[data-test=abort]').count(), 1);
    // The server passes for Blue (a `--` move) and counts a timeout.
    await red.page.waitForFunction(() => document.querySelectorAll('.moves .mv[data-ply]').length >= 2, null, { timeout: 20000 });
    await waitMoves(blue.page, 2);
    assert.equal(await red.page.locator('.moves .mv[data-ply="1"]').innerText(), msg('pass_short', 'zh'));
    assert.equal(await blue.page.locator('.moves .mv[data-ply="1"]').innerText(), msg('pass_short', 'en'));
    assert.equal(await blue.page.locator('[data-test=timeouts-blue]').innerText(), msg('timeouts_n', 'en', { n: 1 }));
    // Blue's pass is no move of Blue's: Abort stays, on both sides.
    assert.equal(await red.page.locator('[data-test=abort]').count(), 1, 'Red is no longer offered Abort after Blue\'s pass');
    assert.equal(await blue.page.locator('[data-test=abort]').count(), 1, 'Blue is no longer offered Abort after the server passed for Blue');
    await blue.page.click('[data-test=abort]');
    await blue.page.locator('dialog.modal[open] [data-test=confirm-yes]').click();
    includes(await endingText(red.page), msg('end_aborted_by', 'zh', { side: msg('blue', 'zh') }));
    includes(await endingText(blue.page), msg('end_aborted_you', 'en'));
    assert.deepEqual(red.page.errors, []);
    assert.deepEqual(blue.page.errors, []);
  } finally {
    // Whatever happened, the game does not go on into the next test.
    if (await blue.page.evaluate((g) => window.jungle.store.games.get(g)?.status === 'live', id)) {
      await send(blue.page, { t: 'abort', game: id });
      await blue.page.waitForFunction((g) => window.jungle.store.games.get(g)?.status !== 'live', id);
    }
  }
});

test('a game lost by four move timeouts: the result from each side, the timeouts boxes, the same after a reload', async () => {
  // A move limit of 2 s, and nobody moves: Red's 4th timeout (the 7th in all) ends the game.
  const id = await newGame({ clock_s: 0, inc_s: 0, move_s: 2 });
  const redDlg = red.page.locator('dialog.modal[open]');
  const blueDlg = blue.page.locator('dialog.modal[open]');
  await redDlg.locator('[data-test=end-reason]').waitFor({ timeout: 40000 });
  await blueDlg.locator('[data-test=end-reason]').waitFor();
  const g = await blue.page.evaluate((x) => window.jungle.store.games.get(x), id);
  assert.deepEqual(g.result, { winner: 'blue', reason: 'timeouts' });
  assert.deepEqual(g.timeouts, { red: 4, blue: 3 });
  // Red, in Chinese: lost, and why, said to Red.
  const redText = await redDlg.innerText();
  includes(redText, msg('result_wins', 'zh', { side: msg('blue', 'zh') }));
  includes(redText, msg('you_lost', 'zh'));
  assert.equal(await redDlg.locator('[data-test=end-reason]').innerText(), msg('end_timeouts_you', 'zh'));
  // Blue, in English: won, and Red named.
  const blueText = await blueDlg.innerText();
  assert.match(blueText, /Blue wins/);
  assert.match(blueText, /You won!/);
  assert.equal(await blueDlg.locator('[data-test=end-reason]').innerText(), msg('end_timeouts', 'en', { side: 'Red' }));
  // Casual: no table of changes, nothing said to follow.
  includes(blueText, msg('casual_note', 'en'));
  assert.equal(await blueDlg.locator('table.changes, [data-test=changes-pending]').count(), 0);
  assert.equal(await redDlg.locator('table.changes, [data-test=changes-pending]').count(), 0);
  // Lost, not aborted: a rematch is offered.
  assert.deepEqual(await blueDlg.locator('.modal-buttons button').allInnerTexts(), ['New game', 'Rematch', 'Close']);
  // The six passes before it are in the move list; the forfeiting timeout is no move.
  await waitMoves(blue.page, 6);
  assert.equal(await blue.page.locator('.moves .mv[data-ply]').count(), 6);
  assert.deepEqual(new Set(await blue.page.locator('.moves .mv[data-ply]').allInnerTexts()), new Set([msg('pass_short', 'en')]));
  for (const p of [red.page, blue.page]) await closeDialog(p);
  // The boxes: Red's says the timeouts lost the game, Blue's counts its three.
  const boxes = async (p, lang) => {
    assert.equal(await p.locator('[data-test=timeouts-red]').innerText(), msg('timeouts_out', lang, { n: 4 }));
    assert.equal(await p.locator('[data-test=timeouts-blue]').innerText(), msg('timeouts_n', lang, { n: 3 }));
    assert.equal(await p.locator('[data-test=timeouts-red].out').count(), 1);
  };
  await boxes(red.page, 'zh');
  await boxes(blue.page, 'en');
  const blueStatus = `Blue wins: ${msg('end_timeouts', 'en', { side: 'Red' })}`;
  const redStatus = msg('labelled', 'zh', { label: msg('result_wins', 'zh', { side: msg('blue', 'zh') }), text: msg('end_timeouts_you', 'zh') });
  assert.equal(await blue.page.locator('[data-test=status]').innerText(), blueStatus);
  assert.equal(await red.page.locator('[data-test=status]').innerText(), redStatus);
  // Reloaded, the game's state says the same.
  await reloadFinished(blue.page, id);
  await boxes(blue.page, 'en');
  assert.equal(await blue.page.locator('[data-test=status]').innerText(), blueStatus);
  await reloadFinished(red.page, id);
  await boxes(red.page, 'zh');
  assert.equal(await red.page.locator('[data-test=status]').innerText(), redStatus);
  // No offer pending: when the game leaves the server's memory Rematch goes, without a word.
  const rematch = red.page.locator('[data-test=rematch]');
  await rematch.filter({ hasText: msg('rematch', 'zh') }).waitFor();
  await feed(red.page, { t: 'rematch_closed', game: id });
  await rematch.waitFor({ state: 'detached' });
  assert.equal(await red.page.locator('#toasts .toast', { hasText: msg('rematch_closed', 'zh') }).count(), 0);
  assert.deepEqual(red.page.errors, []);
  assert.deepEqual(blue.page.errors, []);
});

test('rematch_closed arriving while the result dialog is still open takes its Rematch button away too', async () => {
  const id = await newGame(CLASSICAL);
  await clickMove(red.page, 'g3g4');
  await waitMoves(blue.page, 1);
  await send(blue.page, { t: 'resign', game: id });
  const dlg = red.page.locator('dialog.modal[open]');
  await dlg.locator('button[data-value=rematch]').waitFor();
  await feed(red.page, { t: 'rematch_closed', game: id });
  await red.page.waitForFunction((g) => window.jungle.store.games.get(g).rematch_open === false, id);
  try {
    await dlg.locator('button[data-value=rematch]').waitFor({ state: 'detached', timeout: 3000 })
      .catch(() => assert.fail('the open result dialog still offers Rematch after rematch_closed'));
  } finally {
    await closeDialog(red.page);
    await closeDialog(blue.page);
  }
  assert.deepEqual(red.page.errors, []);
});

test('a move made while the connection is lost says it waits, and is played once the connection is back', async () => {
  const id = await newGame(CLASSICAL);
  await red.context.setOffline(true);
  await red.page.evaluate(() => window.jungle.socket.ws && window.jungle.socket.ws.close());
  await red.page.locator('[data-test=conn].closed, [data-test=conn].connecting').waitFor();
  // Clicked as clickMove does, without waiting for the move to be played.
  await red.page.locator('.board [data-sq="g3"]').click();
  await red.page.locator('.board [data-sq="g4"].dest').click();
  await red.page.locator('#toasts .toast', { hasText: msg('move_waits_for_connection', 'zh') }).waitFor();
  await red.context.setOffline(false);
  await red.page.locator('[data-test=conn].open').waitFor({ state: 'attached', timeout: 20000 });
  await waitMoves(blue.page, 1);
  await waitMoves(red.page, 1);
  // Called off, for the next test.
  await send(blue.page, { t: 'abort', game: id });
  await endingText(red.page);
  await endingText(blue.page);
  for (const p of [red.page, blue.page]) await closeDialog(p);
  assert.deepEqual(red.page.errors, []);
  assert.deepEqual(blue.page.errors, []);
});
