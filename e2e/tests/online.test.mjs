// Two players in two browser contexts: register, pair through a challenge link, play to a den
// win, replay it; then pair through the lobby, lose and regain a connection mid-game, and agree
// a draw (an offer lapsing first).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import {
  launch, openPlayer, register, uniqueName, gameId, clickMove, waitMoves, endingText, shot, DEN_WIN, BASE,
} from '../lib.mjs';

let browser;
let alice;
let bob;

before(async () => {
  browser = await launch();
  alice = await openPlayer(browser, { locale: 'en-US' });
  bob = await openPlayer(browser, { locale: 'en-US' });
});

after(async () => {
  await browser?.close();
});

async function closeDialog(page) {
  const dlg = page.locator('dialog.modal[open]');
  if (await dlg.count()) await dlg.locator('button.primary').click();
}

test('two players register, pair by challenge link and play to a den win', async () => {
  const aName = uniqueName('alice');
  const bName = uniqueName('bob');
  await register(alice.page, aName);
  await register(bob.page, bName);

  await alice.page.goto(`${BASE}/#/lobby`);
  await alice.page.selectOption('#ch-color', 'red');
  // A slow time control, so that a busy test machine never runs into a move timeout.
  await alice.page.selectOption('#ch-tc', 'classical');
  await alice.page.click('[data-test=create-challenge]');
  const link = await alice.page.locator('[data-test=challenge-link]').inputValue();
  assert.match(link, /#\/c\/[^/]+$/);
  // Served at 127.0.0.1: the link opens on this computer only, and the page says so.
  assert.match(await alice.page.locator('[data-test=local-link-note]').innerText(), /only on this computer/);
  await shot(alice.page, 'lobby');

  await bob.page.goto(link);
  // The challenge page says who challenges and which side the invited player gets.
  await bob.page.locator('[data-test=challenge-lead]', { hasText: new RegExp(`${aName} invites you`, 'i') }).waitFor();
  assert.equal(await bob.page.locator('[data-test=challenge-color]').innerText(), 'Blue');
  assert.match(await bob.page.locator('[data-test=challenge-terms]').innerText(), /Casual/);
  // The terms are rows of a label and its value: each value beside its label, the values in
  // one column.
  const rows = await bob.page.locator('[data-test=challenge-terms]').evaluate((dl) => [...dl.querySelectorAll('dt')].map((dt) => {
    const a = dt.getBoundingClientRect();
    const b = dt.nextElementSibling.getBoundingClientRect();
    return { dtTop: a.top, ddTop: b.top, ddLeft: b.left, dtRight: a.right };
  }));
  assert.equal(rows.length, 3);
  for (const r of rows) {
    assert.ok(Math.abs(r.dtTop - r.ddTop) < 2 && r.ddLeft >= r.dtRight, `a term's value is not beside its label: ${JSON.stringify(rows)}`);
    assert.ok(Math.abs(r.ddLeft - rows[0].ddLeft) < 1, `the values are not in one column: ${JSON.stringify(rows)}`);
  }
  await bob.page.click('[data-test=accept-challenge]');
  const idA = await gameId(alice.page);
  const idB = await gameId(bob.page);
  assert.equal(idA, idB);
  assert.equal(await alice.page.locator('.player.bottom .pinfo').getAttribute('data-color'), 'red');
  assert.equal(await bob.page.locator('.player.bottom .pinfo').getAttribute('data-color'), 'blue');
  assert.match(await alice.page.locator('[data-test=status]').innerText(), /Your turn/);
  assert.match(await bob.page.locator('[data-test=status]').innerText(), /Waiting/);
  // No hints in a game between people: the buttons that are there, but not that one.
  await alice.page.locator('[data-test=resign]').waitFor();
  assert.equal(await alice.page.locator('[data-test=hint]').count(), 0);

  for (let i = 0; i < DEN_WIN.length; i++) {
    const mover = i % 2 === 0 ? alice.page : bob.page;
    const other = i % 2 === 0 ? bob.page : alice.page;
    // The opponent's animals are not movable: the board offers nothing to the waiting side.
    assert.equal(await other.locator('.board .sq.movable').count(), 0);
    await clickMove(mover, DEN_WIN[i]);
    await waitMoves(other, i + 1);
    if (i === 8) await shot(bob.page, 'game-blue-view', true);
    if (i === 10) {
      // Red's leopard next to Blue's den is marked as a den threat on both boards.
      assert.equal(await bob.page.locator('.board [data-sq="d8"].threat').count(), 1);
      assert.equal(await alice.page.locator('.board [data-sq="d8"].threat').count(), 1);
    }
  }
  const textA = await endingText(alice.page);
  const textB = await endingText(bob.page);
  assert.match(textA, /Red wins/);
  // What happened, with its subject, from each player's side.
  assert.match(textA, /Your leopard entered Blue's den!/);
  assert.match(textA, /You won!/);
  assert.match(textB, /You lost/);
  assert.match(textB, /Red's leopard entered your den/);
  assert.equal(await bob.page.locator('[data-test=status]').innerText(), "Red wins: Red's leopard entered your den");
  assert.match(textA, /Casual games change no score/);
  // A casual game changes nothing: no table of unchanged numbers, on either side.
  assert.equal(await alice.page.locator('dialog.modal[open] table.changes').count(), 0);
  assert.equal(await bob.page.locator('dialog.modal[open] table.changes').count(), 0);
  await shot(alice.page, 'den-win', true);
  // The move list shows the SAN from the server, ending with the den entry.
  await closeDialog(alice.page);
  assert.equal(await alice.page.locator('.moves .mv[data-ply="12"]').innerText(), 'Pd9#');

  // Bob asks for a rematch from the result dialog; Alice accepts; colours swap. The new game
  // is then aborted (with a confirmation).
  await bob.page.locator('dialog.modal[open] button[data-value=rematch]').click();
  await bob.page.locator('.toast', { hasText: 'Rematch offered' }).first().waitFor();
  // Bob's own offer waits for Alice: his button says so and cannot be pressed again.
  const waiting = bob.page.locator('[data-test=rematch]');
  await waiting.filter({ hasText: 'Rematch: waiting for your opponent' }).waitFor();
  assert.equal(await waiting.getAttribute('aria-disabled'), 'true');
  await alice.page.locator('[data-test=rematch-accept]').waitFor();
  // The offer is part of the game's state: Alice sees it on coming back to the game from
  // elsewhere, and Bob's page, reloaded, still waits.
  await alice.page.goto(`${BASE}/#/`);
  await alice.page.waitForSelector('[data-test=start-ai]');
  await alice.page.goto(`${BASE}/#/g/${encodeURIComponent(idA)}`);
  await alice.page.locator('.offer-bar', { hasText: 'Your opponent wants a rematch' }).waitFor();
  assert.equal(await alice.page.locator('[data-test=rematch]').innerText(), 'Accept the rematch');
  await bob.page.reload();
  await bob.page.waitForSelector('body[data-ready="1"]');
  await closeDialog(bob.page);
  await waiting.filter({ hasText: 'Rematch: waiting for your opponent' }).waitFor();
  assert.equal(await waiting.getAttribute('aria-disabled'), 'true');
  assert.equal(await bob.page.locator('[data-test=rematch-accept]').count(), 0);
  await alice.page.click('[data-test=rematch-accept]');
  await alice.page.waitForURL((u) => /#\/g\//.test(u.hash) && !u.hash.endsWith(idA));
  const re = await gameId(alice.page);
  assert.notEqual(re, idA);
  await bob.page.waitForURL((u) => u.hash.endsWith(re));
  assert.equal(await alice.page.locator('.player.bottom .pinfo').getAttribute('data-color'), 'blue');
  await bob.page.click('[data-test=abort]');
  await bob.page.locator('dialog.modal[open]').getByText('Abort this game?').waitFor();
  // The question opens on its safe answer: Enter twice does not abort.
  assert.equal(await bob.page.evaluate(() => document.activeElement?.dataset?.test), 'confirm-no');
  await bob.page.locator('dialog.modal[open] button.primary').click();
  // An aborted game says that it changes nothing, in a sentence of its own (Bob asked for it),
  // and shows no table of changes. A new game is the way on: no rematch is offered.
  const aborted = await endingText(alice.page);
  assert.match(aborted, /Game aborted/);
  // Alice is told who did: Bob, playing Red.
  assert.match(aborted, /Red called the game off before both sides had moved: nobody wins or loses/);
  assert.match(await endingText(bob.page), /You called the game off before both sides had moved: nobody wins or loses/);
  assert.equal(await alice.page.locator('dialog.modal[open] table.changes').count(), 0);
  assert.deepEqual(await alice.page.locator('dialog.modal[open] .modal-buttons button').allInnerTexts(), ['New game', 'Close']);
  // The status line says it too.
  assert.equal(await alice.page.locator('[data-test=status]').first().innerText(), 'Red called the game off before both sides had moved: nobody wins or loses');
  await closeDialog(alice.page);
  assert.equal(await alice.page.locator('[data-test=rematch], [data-test=rematch-accept]').count(), 0);
  // Nothing to replay.
  assert.equal(await alice.page.locator('[data-test=ply]:visible').count(), 0);
  await closeDialog(bob.page);
  await alice.page.goto(`${BASE}/#/g/${encodeURIComponent(idA)}`);

  // Replay the finished game move by move with the keyboard.
  await alice.page.reload();
  await alice.page.waitForSelector('[data-test=ply]');
  await alice.page.locator('[data-test=ply]').filter({ hasText: 'Ply 13 of 13' }).waitFor();
  // Its rematch has been played: the server says none can be asked for (rematch_open), and no
  // second one is offered, nor an offer shown.
  await alice.page.locator('[data-test=copy-fen]').waitFor();
  assert.equal(await alice.page.evaluate((g) => window.jungle.store.games.get(g).rematch_open, idA), false);
  assert.equal(await alice.page.locator('[data-test=rematch], [data-test=rematch-accept]').count(), 0);
  // Bob, back on it without a reload (his tab still holds its state from before the rematch):
  // the server's state takes the offer away there too.
  await bob.page.goto(`${BASE}/#/g/${encodeURIComponent(idA)}`);
  await bob.page.locator('[data-test=ply]').filter({ hasText: 'Ply 13 of 13' }).waitFor();
  await bob.page.waitForFunction((g) => window.jungle.store.games.get(g).rematch_open === false, idA);
  assert.equal(await bob.page.locator('[data-test=rematch], [data-test=rematch-accept]').count(), 0);
  await alice.page.keyboard.press('Home');
  await alice.page.locator('[data-test=ply]').filter({ hasText: 'Ply 0 of 13' }).waitFor();
  assert.equal(await alice.page.locator('.board [data-sq="e3"] .piece[data-role="P"]').count(), 1);
  await alice.page.keyboard.press('ArrowRight');
  await alice.page.locator('[data-test=ply]').filter({ hasText: 'Ply 1 of 13' }).waitFor();
  assert.equal(await alice.page.locator('.board [data-sq="d3"] .piece[data-role="P"]').count(), 1);
  assert.equal(await alice.page.locator('.board [data-sq="e3"] .piece').count(), 0);
  await alice.page.keyboard.press('End');
  await alice.page.locator('[data-test=ply]').filter({ hasText: 'Ply 13 of 13' }).waitFor();
  assert.equal(await alice.page.locator('.board [data-sq="d9"] .piece.red[data-role="P"]').count(), 1);

  // Copy the game record (RULES §10) from the server.
  await alice.context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await alice.page.click('[data-test=copy-record]');
  await alice.page.locator('.toast', { hasText: 'Copied' }).first().waitFor();
  const record = await alice.page.evaluate(() => navigator.clipboard.readText());
  assert.match(record, /\[Result "1-0"\]/);
  assert.match(record, /Pd9# 1-0/);
  // Or download it: the same text, as a file named after the game.
  const [download] = await Promise.all([alice.page.waitForEvent('download'), alice.page.click('[data-test=download-record]')]);
  assert.equal(download.suggestedFilename(), `jungle-${idA.replace(/[^\w-]/g, '_')}.pgn`);
  assert.equal(fs.readFileSync(await download.path(), 'utf8'), record);

  // The engine's evaluation and its three best moves for a position of the replay.
  await alice.page.keyboard.press('Home');
  await alice.page.click('[data-test=analysis]');
  await alice.page.locator('[data-test=eval]').waitFor({ timeout: 30000 });
  assert.match(await alice.page.locator('[data-test=eval]').innerText(), /Evaluation: .*depth \d+/);
  assert.equal(await alice.page.locator('[data-test=lines] li').count(), 3);
  assert.match(await alice.page.locator('[data-test=lines] li').first().innerText(), /^[+-]?\d+\.\d\d \S+/);
  await shot(alice.page, 'replay-analysis', true);
  // The final position is over: the analysis says how it ended instead of searching.
  await alice.page.keyboard.press('End');
  await alice.page.locator('[data-test=eval-result]', { hasText: 'Game over: Red wins (entered the den)' }).waitFor({ timeout: 30000 });

  // The profile counts the finished game.
  await alice.page.goto(`${BASE}/#/u/${encodeURIComponent(aName)}`);
  await alice.page.locator('[data-test=games]').waitFor();
  assert.equal(await alice.page.title(), `${aName} · Jungle`);
  assert.ok(Number(await alice.page.locator('[data-test=games]').innerText()) >= 1);
  assert.match(await alice.page.locator('[data-test=wld]').innerText(), /^1 \/ 0 \/ 0$/);
  // The 8 numbers in two full rows on a wide screen: none left alone on a row of its own.
  const tops = await alice.page.locator('.stats .stat').evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().top)));
  assert.deepEqual(tops, [...Array(4).fill(tops[0]), ...Array(4).fill(tops[4])]);
  assert.ok(tops[4] > tops[0]);
  await alice.page.locator('table.games tbody tr').first().waitFor();
  assert.match(await alice.page.locator('table.games tbody').innerText(), /Won/);
  // Each row's date, the first column, leads to its game as the last column's link does.
  const firstRow = alice.page.locator('table.games tbody tr').first();
  assert.equal(await firstRow.locator('[data-test=history-date]').getAttribute('href'),
    await firstRow.locator('td:last-child a').getAttribute('href'));
  // With the time of day and the number of plies: two games of one day are told apart.
  assert.match(await firstRow.locator('[data-test=history-date]').innerText(), /\d{4}.*\d:\d\d/);
  assert.match(await firstRow.locator('[data-test=history-plies]').innerText(), /^\d+$/);
  // The aborted rematch is neither a draw nor a long sentence there.
  const abortedRow = alice.page.locator('table.games tbody tr', { hasText: 'Aborted' });
  await abortedRow.waitFor();
  assert.equal(await abortedRow.locator('td').nth(3).innerText(), 'Aborted');
  assert.equal(await abortedRow.locator('td').nth(4).innerText(), 'called off');
  assert.doesNotMatch(await alice.page.locator('table.games tbody').innerText(), /Draw|nothing changes/);
  await shot(alice.page, 'profile');
});

test('a challenger who left the lobby (a reload) is taken to the game when the friend accepts', async () => {
  for (const p of [alice.page, bob.page]) {
    await p.goto(`${BASE}/#/lobby`);
    await closeDialog(p);
  }
  await alice.page.selectOption('#ch-tc', 'classical');
  await alice.page.click('[data-test=create-challenge]');
  const link = await alice.page.locator('[data-test=challenge-link]').inputValue();
  // Alice opens her own link: it is hers, to send to a friend, with no Accept button.
  await alice.page.goto(link);
  await alice.page.locator('[data-test=challenge-lead]', { hasText: 'This is your own invitation' }).waitFor();
  assert.doesNotMatch(await alice.page.locator('main').innerText(), /invites you/);
  assert.equal(await alice.page.locator('[data-test=accept-challenge]').isVisible(), false);
  assert.equal(await alice.page.locator('[data-test=challenge-link]').inputValue(), link);
  await alice.context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await alice.page.click('[data-test=copy-challenge-link]');
  await alice.page.locator('.toast', { hasText: 'Copied: Invitation link' }).first().waitFor();
  assert.equal(await alice.page.locator('[data-test=challenge-link]').getAttribute('aria-label'), 'Invitation link');
  assert.equal(await alice.page.evaluate(() => navigator.clipboard.readText()), link);
  // Alice goes on to the leaderboard in a new page (nothing there is waiting for a game).
  await alice.page.goto(`${BASE}/#/leaderboard`);
  await alice.page.reload();
  await alice.page.waitForSelector('body[data-ready="1"]');
  await alice.page.locator('[data-test=conn].open').waitFor({ state: 'attached' });
  await alice.page.locator('table.games tbody tr').first().waitFor();
  await bob.page.goto(link);
  await bob.page.locator('[data-test=accept-challenge]').waitFor();
  await bob.page.click('[data-test=accept-challenge]');
  // Alice's page opens the game by itself, and says why.
  await alice.page.locator('.toast', { hasText: 'Your game has started' }).first().waitFor();
  const id = await gameId(alice.page);
  assert.equal(await gameId(bob.page), id);
  assert.match(await alice.page.locator('[data-test=status]').first().innerText(), /Your turn|Waiting/);
  // Called off, for the next test.
  await bob.page.click('[data-test=abort]');
  await bob.page.locator('dialog.modal[open] button.primary').click();
  await endingText(alice.page);
  await endingText(bob.page);
  await closeDialog(alice.page);
  await closeDialog(bob.page);
  assert.deepEqual(alice.page.errors, []);
  assert.deepEqual(bob.page.errors, []);
});

test('the lobby pairs a seek; a dropped connection comes back by itself; a draw is agreed', async () => {
  await bob.page.goto(`${BASE}/#/lobby`);
  await bob.page.selectOption('#seek-tc', 'classical');
  await bob.page.click('[data-test=create-seek]');
  await alice.page.goto(`${BASE}/#/lobby`);
  const row = alice.page.locator('tr[data-seek]').filter({ hasText: await bob.page.locator('[data-test=me]').innerText() });
  await row.locator('[data-test=accept-seek]').click();
  const id = await gameId(alice.page);
  assert.equal(await gameId(bob.page), id);
  // Colours are random: find who plays Red.
  const aliceColor = await alice.page.locator('.player.bottom .pinfo').getAttribute('data-color');
  const red = aliceColor === 'red' ? alice : bob;
  const blue = aliceColor === 'red' ? bob : alice;

  await clickMove(red.page, 'g3g4');
  await waitMoves(blue.page, 1);
  await clickMove(blue.page, 'a7a6');
  await waitMoves(red.page, 2);

  // Blue's connection drops; Red sees Blue as disconnected and moves meanwhile.
  await blue.context.setOffline(true);
  await blue.page.evaluate(() => window.jungle.socket.ws && window.jungle.socket.ws.close());
  await blue.page.locator('[data-test=conn].closed, [data-test=conn].connecting').waitFor();
  await red.page.locator('[data-test=presence-blue].off').waitFor();
  await red.page.locator('#toasts .toast', { hasText: 'Your opponent lost the connection' }).waitFor();
  // Blue's box counts down the reconnect grace (the e2e server's is the default 60 s), second by
  // second with the clocks.
  const away = red.page.locator('[data-test=presence-blue]');
  const leftOf = async () => {
    const m = /^Disconnected: (\d+) s left to return$/.exec(await away.innerText());
    assert.ok(m, await away.innerText());
    return Number(m[1]);
  };
  const first = await leftOf();
  assert.ok(first > 30 && first <= 60, `${first}`);
  await red.page.waitForFunction((n) => {
    const m = /(\d+) s left/.exec(document.querySelector('[data-test=presence-blue]').textContent);
    return m && Number(m[1]) < n;
  }, first, { timeout: 5000 });
  assert.ok((await leftOf()) < first);
  await shot(red.page, 'opponent-disconnected');
  await clickMove(red.page, 'g4g5');

  // Back online: Blue's client reconnects without any click and catches up.
  await blue.context.setOffline(false);
  await blue.page.locator('[data-test=conn].open').waitFor({ state: 'attached', timeout: 20000 });
  await waitMoves(blue.page, 3);
  await red.page.locator('[data-test=presence-blue].on').waitFor();
  await red.page.locator('#toasts .toast', { hasText: 'Your opponent is back' }).waitFor();
  assert.equal(await blue.page.locator('.board [data-sq="g5"] .piece.red[data-role="R"]').count(), 1);
  await clickMove(blue.page, 'a6a5');
  await waitMoves(red.page, 4);

  // An offer lapses when a move is played: Red offers, then moves instead of waiting. Red is
  // told so (Blue, who never answered, is not), and the offer is gone from both screens.
  // Red offers by keyboard: the button, waiting for the answer, keeps the focus.
  const offer = red.page.locator('[data-test=draw-offer]');
  await offer.focus();
  await red.page.keyboard.press('Enter');
  await offer.filter({ hasText: 'Draw offered' }).waitFor();
  assert.equal(await offer.getAttribute('aria-disabled'), 'true');
  assert.equal(await red.page.evaluate(() => document.activeElement?.dataset?.test), 'draw-offer');
  await blue.page.locator('[data-test=draw-accept]').waitFor();
  await blue.page.locator('#toasts .toast', { hasText: 'Red offers a draw' }).waitFor();
  await clickMove(red.page, 'g5g6');
  await red.page.locator('.toast', { hasText: 'your draw offer has lapsed' }).waitFor();
  await blue.page.locator('[data-test=draw-accept]').waitFor({ state: 'hidden' });
  // The offer's toast goes with it (its own time, 4 s, is not over yet).
  assert.equal(await blue.page.locator('#toasts .toast', { hasText: 'offers a draw' }).count(), 0);
  assert.equal(await blue.page.locator('.toast', { hasText: 'lapsed' }).count(), 0);
  assert.equal(await offer.getAttribute('aria-disabled'), null);
  await waitMoves(blue.page, 5);
  await clickMove(blue.page, 'a5a4');
  await waitMoves(red.page, 6);

  // Draw by agreement: Blue offers, Red accepts.
  await blue.page.click('[data-test=draw-offer]');
  await red.page.locator('[data-test=draw-accept]').waitFor();
  await shot(red.page, 'draw-offer');
  await red.page.click('[data-test=draw-accept]');
  for (const p of [red.page, blue.page]) {
    const text = await endingText(p);
    assert.match(text, /Draw/);
    assert.match(text, /Both players agreed to a draw/);
    // A rated game (the lobby's default for registered players) drawn after 4 plies: too
    // short to count, and the result says so.
    assert.match(text, /within 10 rounds change no score/);
  }
  await closeDialog(red.page);

  // A result the database stored late (an outage cannot be staged here: the server's two
  // messages as it sends them then). `ended` without changes says they will follow; the
  // `changes` after it fills in the result, still open, and the players' boxes.
  const inject = (m) => red.page.evaluate((text) => window.jungle.socket.ws.dispatchEvent(new MessageEvent('message', { data: text })), JSON.stringify(m));
  await inject({ t: 'ended', game: id, result: { winner: null, reason: 'agreed' }, changes: { red: null, blue: null }, timeouts: { red: 0, blue: 0 } });
  await red.page.locator('dialog.modal[open] [data-test=changes-pending]', { hasText: 'will show here once it is stored' }).waitFor();
  const change = { score_before: 0, score_after: 0, level_before: 1, level_after: 1, coins_before: 100, coins_after: 100, rating_before: 1500, rating_after: 1512 };
  await inject({ t: 'changes', game: id, changes: { red: change, blue: { ...change, rating_after: 1488 } } });
  await red.page.locator('dialog.modal[open] [data-test=changes-red]', { hasText: '1512' }).waitFor();
  assert.equal(await red.page.locator('dialog.modal[open] [data-test=changes-pending]').count(), 0);
  await red.page.locator('.pinfo[data-color=red] .prating', { hasText: '1512' }).waitFor();
  await red.page.locator('.pinfo[data-color=blue] .prating', { hasText: '1488' }).waitFor();
  await closeDialog(red.page);

  // Log out (confirmed), come back as a guest, log in again.
  const name = await red.page.locator('[data-test=me]').innerText();
  await red.page.click('[data-test=logout]');
  await red.page.locator('dialog.modal[open] button.primary').click();
  await red.page.locator('[data-test=login-link]').waitFor();
  assert.notEqual(await red.page.locator('[data-test=me]').innerText(), name);
  await red.page.click('[data-test=login-link]');
  const form = red.page.locator('[data-test=login-form]');
  await form.locator('input[name=name]').fill(name);
  await form.locator('input[name=password]').fill('wrong password');
  await form.locator('button[type=submit]').click();
  await form.locator('.error', { hasText: 'Wrong name or password' }).waitFor();
  await form.locator('input[name=password]').fill('correct horse 42');
  await form.locator('button[type=submit]').click();
  await red.page.waitForFunction((n) => document.querySelector('[data-test=me]')?.textContent === n, name);

  // The leaderboard lists registered players.
  await red.page.goto(`${BASE}/#/leaderboard`);
  await red.page.locator('table.games tbody tr').first().waitFor();
  assert.equal(await red.page.locator('table.games tbody td.error').count(), 0);
  assert.deepEqual(alice.page.errors, []);
  assert.deepEqual(bob.page.errors, []);
});

test('quick pairing from the home screen waits in the lobby, and leaving it withdraws the seek', async () => {
  for (const [p, hash] of [[bob.page, '#/lobby'], [alice.page, '#/']]) {
    await p.goto(`${BASE}/${hash}`);
    const dlg = p.locator('dialog.modal[open]');
    if (await dlg.count()) await dlg.locator('button.primary').click();
  }
  const name = await alice.page.locator('[data-test=me]').innerText();
  await alice.page.click('[data-test=quick-blitz]');
  await alice.page.waitForURL((u) => u.hash === '#/lobby');
  // The lobby hears the server's answer: the waiting note shows, and the seek is listed.
  await alice.page.locator('.toast', { hasText: 'waiting for an opponent' }).first().waitFor();
  const aliceSeek = bob.page.locator('table.seeks tr[data-seek]', { hasText: name });
  await aliceSeek.waitFor();
  // Back on the home screen, the seek is gone for everyone.
  await alice.page.goto(`${BASE}/#/`);
  await aliceSeek.waitFor({ state: 'detached' });
  assert.deepEqual(alice.page.errors, []);
  assert.deepEqual(bob.page.errors, []);
});

test('quick pairing by time control, then a resignation', async () => {
  for (const p of [alice.page, bob.page]) {
    await p.goto(`${BASE}/#/lobby`);
    const dlg = p.locator('dialog.modal[open]');
    if (await dlg.count()) await dlg.locator('button.primary').click();
  }
  await alice.page.click('[data-test=quick-untimed]');
  await alice.page.locator('.toast', { hasText: 'waiting for an opponent' }).first().waitFor();
  await bob.page.click('[data-test=quick-untimed]');
  const id = await gameId(alice.page);
  assert.equal(await gameId(bob.page), id);
  // Untimed: no clocks on either side.
  assert.equal(await alice.page.locator('.clock').count(), 0);
  await bob.page.click('[data-test=resign]');
  await bob.page.locator('dialog.modal[open]').getByText('Do you really want to resign?').waitFor();
  await bob.page.locator('dialog.modal[open] button.primary').click();
  const text = await endingText(alice.page);
  // Who resigned is said: the other side (by its colour), not "you".
  const bobColor = await bob.page.locator('.player.bottom .pinfo').getAttribute('data-color');
  assert.match(text, new RegExp(`${bobColor === 'red' ? 'Red' : 'Blue'} resigned`));
  assert.match(text, /You won!/);
  assert.match(await endingText(bob.page), /You resigned/);
  // The status line goes on in lower case after its colon.
  assert.match(await bob.page.locator('[data-test=status]').innerText(), /^(Red|Blue) wins: you resigned$/);
  assert.deepEqual(alice.page.errors, []);
  assert.deepEqual(bob.page.errors, []);
});

test('a challenge can be made rated: its page says so, and so does the result', async () => {
  for (const p of [alice.page, bob.page]) {
    await p.goto(`${BASE}/#/lobby`);
    const dlg = p.locator('dialog.modal[open]');
    if (await dlg.count()) await dlg.locator('button.primary').click();
  }
  // Casual unless asked; a registered player's box is not explained as a guest's is.
  assert.equal(await alice.page.isChecked('#ch-rated'), false);
  assert.equal(await alice.page.locator('[data-test=rated-guest-note]').count(), 0);
  await alice.page.check('#ch-rated');
  await alice.page.selectOption('#ch-tc', 'classical');
  await alice.page.click('[data-test=create-challenge]');
  const link = await alice.page.locator('[data-test=challenge-link]').inputValue();
  // A guest who opens it is told that for them it would be casual (guests play no rated games),
  // with the way to register.
  const guest = await openPlayer(browser, { locale: 'en-US' });
  await guest.page.goto(link);
  await guest.page.locator('[data-test=challenge-mode]', { hasText: 'Casual' }).waitFor();
  const note = guest.page.locator('[data-test=challenge-guest-note]');
  assert.match(await note.innerText(), /Only registered players play rated games/);
  // Its link to register comes back to the challenge afterwards, which is then rated for them.
  await note.locator('a').click();
  await guest.page.waitForURL((u) => u.hash.startsWith('#/login?next='));
  const form = guest.page.locator('[data-test=register-form]');
  await form.locator('input[name=name]').fill(uniqueName('kid'));
  await form.locator('input[name=password]').fill('correct horse 42');
  await form.locator('input[name=password2]').fill('correct horse 42');
  await form.locator('button[type=submit]').click();
  await guest.page.waitForURL(link);
  await guest.page.locator('[data-test=challenge-mode]', { hasText: 'Rated' }).waitFor();
  assert.equal(await guest.page.locator('[data-test=challenge-guest-note]').count(), 0);
  assert.deepEqual(guest.page.errors, []);
  await guest.context.close();
  await bob.page.goto(link);
  await bob.page.locator('[data-test=challenge-terms]', { hasText: 'Rated' }).waitFor();
  assert.equal(await bob.page.locator('[data-test=challenge-guest-note]').count(), 0);
  await bob.page.click('[data-test=accept-challenge]');
  const id = await gameId(alice.page);
  assert.equal(await gameId(bob.page), id);
  await bob.page.click('[data-test=resign]');
  await bob.page.locator('dialog.modal[open] button.primary').click();
  // A rated game, but too short to count: not the casual note.
  const text = await endingText(alice.page);
  assert.match(text, /within 10 rounds change no score/);
  assert.doesNotMatch(text, /Casual/);
  // Nothing changed, so no table of changes: the note says why.
  assert.equal(await alice.page.locator('dialog.modal[open] table.changes').count(), 0);
  assert.deepEqual(alice.page.errors, []);
  assert.deepEqual(bob.page.errors, []);
});

// 22 plies without a capture (checked with `jungle moves`): a rated game longer than 20 plies counts.
const LONG = ['g3g4', 'a7a6', 'e3d3', 'c7d7', 'g1g2', 'a9a8', 'a1b1', 'g9f9', 'f2f3', 'b8b7', 'b2b3',
  'f8f7', 'd3d4', 'd7d6', 'g4g5', 'a6a5', 'a3a4', 'g7g6', 'c3d3', 'e7e8', 'd4d5', 'f9f8'];

test('a rated game that counts: its resume link goes when it ends, its ratings stay after a reload, Rematch by keyboard keeps the focus', async () => {
  for (const p of [alice.page, bob.page]) {
    await p.goto(`${BASE}/#/lobby`);
    await closeDialog(p);
  }
  await alice.page.check('#ch-rated');
  await alice.page.selectOption('#ch-color', 'red');
  await alice.page.selectOption('#ch-tc', 'classical');
  await alice.page.click('[data-test=create-challenge]');
  const link = await alice.page.locator('[data-test=challenge-link]').inputValue();
  await bob.page.goto(link);
  await bob.page.locator('[data-test=challenge-terms]', { hasText: 'Rated' }).waitFor();
  await bob.page.click('[data-test=accept-challenge]');
  const id = await gameId(alice.page);
  assert.equal(await gameId(bob.page), id);
  // A player's name in the boxes (a link to the profile) keeps the focus through the moves.
  await alice.page.locator('.pinfo[data-color=blue] .pname a').focus();
  for (let i = 0; i < LONG.length; i++) {
    const mover = i % 2 === 0 ? alice.page : bob.page;
    await mover.evaluate(([g, ply, move]) => window.jungle.socket.send({ t: 'move', game: g, ply, move }), [id, i, LONG[i]]);
    await waitMoves(mover, i + 1);
  }
  await waitMoves(alice.page, LONG.length);
  assert.equal(await alice.page.evaluate(() => document.activeElement.matches('.pinfo[data-color=blue] .pname a')), true);

  // Alice waits on the home screen, which offers to resume the game; Bob resigns: the offer goes.
  await alice.page.goto(`${BASE}/#/`);
  const resume = alice.page.locator(`[data-test=resume][data-game="${id}"]`);
  await resume.waitFor();
  await bob.page.click('[data-test=resign]');
  await bob.page.locator('dialog.modal[open] [data-test=confirm-yes]').click();
  await endingText(bob.page);
  await resume.waitFor({ state: 'detached' });
  assert.equal(await alice.page.locator('[data-test=resume]').count(), 0);
  // What the game changed for Bob, as his result says it.
  const ratingRow = bob.page.locator('dialog.modal[open] table.changes tr', { hasText: 'Rating' }).locator('td');
  const [before, after] = [await ratingRow.nth(0).innerText(), await ratingRow.nth(2).innerText()];
  assert.notEqual(before, after);
  // Opened afterwards, or reloaded, the game shows the ratings it left, not those it started with.
  await alice.page.goto(`${BASE}/#/g/${encodeURIComponent(id)}`);
  const bobsRating = alice.page.locator('.pinfo[data-color=blue] .prating');
  await bobsRating.filter({ hasText: new RegExp(`· ${after}$`) }).waitFor();
  await bob.page.reload();
  await bob.page.waitForSelector('body[data-ready="1"]');
  await bob.page.locator('.player.bottom .prating').filter({ hasText: new RegExp(`· ${after}$`) }).waitFor();

  // Alice asks for a rematch by keyboard: the button, now waiting, keeps the focus. Bob, on a
  // phone-sized screen, has the offer brought into view.
  await bob.page.setViewportSize({ width: 360, height: 640 });
  await bob.page.evaluate(() => window.scrollTo(0, 0));
  const rematch = alice.page.locator('[data-test=rematch]');
  await rematch.focus();
  await alice.page.keyboard.press('Enter');
  await rematch.filter({ hasText: 'Rematch: waiting for your opponent' }).waitFor();
  assert.equal(await rematch.getAttribute('aria-disabled'), 'true');
  assert.equal(await alice.page.evaluate(() => document.activeElement.dataset.test), 'rematch');
  const accept = bob.page.locator('[data-test=rematch-accept]');
  await accept.waitFor();
  await bob.page.waitForFunction(() => {
    const r = document.querySelector('[data-test=rematch-accept]').getBoundingClientRect();
    return r.top >= 0 && r.bottom <= window.innerHeight;
  }, null, { timeout: 3000 });
  await bob.page.setViewportSize({ width: 1200, height: 900 });
  assert.deepEqual(alice.page.errors, []);
  assert.deepEqual(bob.page.errors, []);
});

/** Alice invites Bob by link (Alice plays Red, a slow time control); returns the game's id. */
async function aliceInvitesBob(rated) {
  for (const p of [alice.page, bob.page]) {
    await p.goto(`${BASE}/#/lobby`);
    await closeDialog(p);
  }
  await alice.page.setChecked('#ch-rated', rated);
  await alice.page.selectOption('#ch-color', 'red');
  await alice.page.selectOption('#ch-tc', 'classical');
  await alice.page.click('[data-test=create-challenge]');
  const link = await alice.page.locator('[data-test=challenge-link]').inputValue();
  await bob.page.goto(link);
  await bob.page.click('[data-test=accept-challenge]');
  const id = await gameId(alice.page);
  assert.equal(await gameId(bob.page), id);
  return id;
}

test('a rated draw that counts says that a draw changes no score, beside what it changed', async () => {
  const id = await aliceInvitesBob(true);
  for (let i = 0; i < LONG.length; i++) {
    const mover = i % 2 === 0 ? alice.page : bob.page;
    await mover.evaluate(([g, ply, move]) => window.jungle.socket.send({ t: 'move', game: g, ply, move }), [id, i, LONG[i]]);
    await waitMoves(mover, i + 1);
  }
  await waitMoves(alice.page, LONG.length);
  await alice.page.click('[data-test=draw-offer]');
  await bob.page.click('[data-test=draw-accept]');
  for (const p of [alice.page, bob.page]) {
    const dlg = p.locator('dialog.modal[open]');
    await dlg.locator('[data-test=draw-note]', { hasText: 'A draw changes no score.' }).waitFor();
    const text = await dlg.innerText();
    assert.match(text, /Both players agreed to a draw/);
    assert.doesNotMatch(text, /within 10 rounds/);
    // The ratings moved (the players' differ), the score did not.
    const score = dlg.locator('table.changes tr', { hasText: 'Score' }).locator('td');
    assert.equal(await score.last().innerText(), '±0');
    await closeDialog(p);
  }
  assert.deepEqual(alice.page.errors, []);
  assert.deepEqual(bob.page.errors, []);
});

test('no rematch is offered against an opponent who was away when the game ended', async () => {
  await aliceInvitesBob(false);
  // Bob's connection drops; Alice, seeing him away, resigns.
  await bob.context.setOffline(true);
  await bob.page.evaluate(() => window.jungle.socket.ws && window.jungle.socket.ws.close());
  await alice.page.locator('[data-test=presence-blue].off').waitFor();
  await alice.page.click('[data-test=resign]');
  // The question opens on its safe answer: Enter twice does not resign.
  assert.equal(await alice.page.evaluate(() => document.activeElement?.dataset?.test), 'confirm-no');
  await alice.page.locator('dialog.modal[open] [data-test=confirm-yes]').click();
  await endingText(alice.page);
  assert.deepEqual(await alice.page.locator('dialog.modal[open] .modal-buttons button').allInnerTexts(), ['New game', 'Close']);
  await closeDialog(alice.page);
  // The button says why it cannot be used (the server would refuse: opponent_offline), and does nothing.
  const rematch = alice.page.locator('[data-test=rematch]');
  assert.equal(await rematch.innerText(), 'Rematch: your opponent is offline');
  assert.equal(await rematch.getAttribute('aria-disabled'), 'true');
  await alice.page.evaluate(() => document.querySelectorAll('#toasts .toast').forEach((el) => el.remove()));
  await rematch.focus();
  await alice.page.keyboard.press('Enter');
  await alice.page.evaluate(() => new Promise((r) => setTimeout(r, 300)));
  assert.deepEqual(await alice.page.locator('#toasts .toast').allInnerTexts(), []);
  assert.equal(await rematch.innerText(), 'Rematch: your opponent is offline');
  await bob.context.setOffline(false);
  await bob.page.locator('[data-test=conn].open').waitFor({ state: 'attached', timeout: 20000 });
  assert.deepEqual(alice.page.errors, []);
});

test('a registered player changes the password on the profile page', async () => {
  const page = alice.page;
  const name = await page.locator('[data-test=me]').innerText();
  await page.goto(`${BASE}/#/u/${encodeURIComponent(name)}`);
  const form = page.locator('[data-test=password-form]');
  const error = form.locator('.error');
  const fill = async (old, fresh, again) => {
    await form.locator('#pw-old').fill(old);
    await form.locator('#pw-new').fill(fresh);
    await form.locator('#pw-again').fill(again);
    await form.locator('button[type=submit]').click();
  };
  await fill('correct horse 42', 'a brand new secret', 'a brand new secreT');
  await error.filter({ hasText: 'not the same' }).waitFor();
  await fill('not my password', 'a brand new secret', 'a brand new secret');
  await error.filter({ hasText: 'The current password is wrong.' }).waitFor();
  await fill('correct horse 42', 'a brand new secret', 'a brand new secret');
  await page.locator('.toast', { hasText: 'Password changed' }).first().waitFor();
  assert.equal(await error.innerText(), '');
  // Another player's profile has no such form.
  const other = await bob.page.locator('[data-test=me]').innerText();
  await page.goto(`${BASE}/#/u/${encodeURIComponent(other)}`);
  await page.locator('[data-test=stats], .stats').first().waitFor();
  assert.equal(await page.locator('[data-test=password-form]').count(), 0);
  // Out and in again: the new password is the one.
  await page.click('[data-test=logout]');
  await page.locator('dialog.modal[open] button.primary').click();
  await page.click('[data-test=login-link]');
  const login = page.locator('[data-test=login-form]');
  await login.locator('input[name=name]').fill(name);
  await login.locator('input[name=password]').fill('correct horse 42');
  await login.locator('button[type=submit]').click();
  await login.locator('.error', { hasText: 'Wrong name or password' }).waitFor();
  await login.locator('input[name=password]').fill('a brand new secret');
  await login.locator('button[type=submit]').click();
  await page.waitForFunction((n) => document.querySelector('[data-test=me]')?.textContent === n, name);
  assert.deepEqual(alice.page.errors, []);
});
