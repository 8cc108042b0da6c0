// A guest plays the computer: start at once from the home page, take a move back, play on to
// the end of the game.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPlayer, gameId, clickMove, waitMoves, moveCount, shot } from '../lib.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const DEN = { red: 'd9', blue: 'd1' };
const dist = (a, b) => Math.abs(a.charCodeAt(0) - b.charCodeAt(0)) + Math.abs(Number(a[1]) - Number(b[1]));

/** The move a simple player picks from what the board offers: a den entry, a capture, or the step nearest the den. */
async function pickMove(page, color) {
  const from = await page.locator('.board .sq.movable').evaluateAll((els) => els.map((e) => e.dataset.sq));
  let best = null;
  for (const sq of from) {
    await page.locator(`.board [data-sq="${sq}"]`).click();
    const dests = await page.locator('.board .sq.dest, .board .sq.dest-capture')
      .evaluateAll((els) => els.map((e) => ({ sq: e.dataset.sq, capture: e.classList.contains('dest-capture') })));
    for (const d of dests) {
      const score = (d.sq === DEN[color] ? 1000 : 0) + (d.capture ? 50 : 0) + (dist(sq, DEN[color]) - dist(d.sq, DEN[color])) * 5 - dist(d.sq, DEN[color]);
      if (!best || score > best.score) best = { move: sq + d.sq, score };
    }
  }
  // Clear the selection, unless nothing was selected or the game has just ended: Escape would
  // also close the result dialog that the loop below waits for.
  if (from.length && !(await page.locator('dialog.modal[open]').count())) {
    await page.keyboard.press('Escape');
  }
  return best && best.move;
}

/** Starts a game against the computer at level 1 with `color` from the home page; its id. */
async function startAi(page, color) {
  await page.selectOption('#ai-level', '1');
  await page.check(`input[name=ai-color][value=${color}]`);
  await page.click('[data-test=start-ai]');
  return gameId(page);
}

test('a guest plays the computer to the end', async () => {
  const { page } = await openPlayer(browser, { locale: 'en-US' });
  assert.match(await page.locator('[data-test=me]').innerText(), /\S/);
  const id = await startAi(page, 'red');
  assert.ok(id);
  assert.match(await page.locator('.player.top').innerText(), /Computer \(level 1\)/);

  // Take back: the move and the computer's answer disappear.
  await clickMove(page, 'g3g4');
  await waitMoves(page, 2);
  await page.click('[data-test=takeback]');
  await page.waitForFunction(() => document.querySelectorAll('.moves .mv[data-ply]').length === 0);
  assert.equal(await page.locator('.board [data-sq="g3"] .piece.red[data-role="R"]').count(), 1);
  await shot(page, 'vs-ai');

  // A draw offer at the start, by keyboard: the computer thinks it over and declines (it is not
  // behind), and the toast says who declined. The button, waiting meanwhile, kept the focus.
  await page.locator('[data-test=draw-offer]').focus();
  await page.keyboard.press('Enter');
  await page.locator('#toasts .toast', { hasText: 'The computer declined the draw' }).waitFor();
  await page.waitForFunction(() => document.querySelector('[data-test=draw-offer]').getAttribute('aria-disabled') !== 'true');
  assert.equal(await page.evaluate(() => document.activeElement?.dataset?.test), 'draw-offer');

  // Play on with a simple rushing strategy until the game ends (bounded).
  const deadline = Date.now() + 120000;
  let plies = 0;
  while (Date.now() < deadline && plies < 120) {
    if (await page.locator('dialog.modal[open]').count()) break;
    const n = await moveCount(page);
    if (n % 2 === 1) {
      await page.waitForFunction((k) => document.querySelectorAll('.moves .mv[data-ply]').length > k
        || document.querySelector('dialog.modal[open]'), n);
      continue;
    }
    const m = await pickMove(page, 'red');
    if (!m) {
      // Nothing to move right now: the game has just ended (its result is on the way) or the
      // board is catching up with the server.
      await shot(page, `vs-ai-nothing-to-move-${n}`);
      await page.waitForFunction(() => document.querySelector('dialog.modal[open]')
        || document.querySelector('.board .sq.movable'));
      continue;
    }
    await clickMove(page, m);
    plies += 1;
  }
  await page.locator('dialog.modal[open], [data-test=resign]').first().waitFor();
  if (!(await page.locator('dialog.modal[open]').count())) {
    // The computer held out: end the game by resigning (with its confirmation).
    await page.click('[data-test=resign]');
    await page.locator('dialog.modal[open] button.primary').click();
  }
  const dlg = page.locator('dialog.modal[open]');
  await dlg.waitFor();
  const text = await dlg.innerText();
  assert.match(text, /(Red|Blue) wins|Draw/);
  // What happened, said with its subject from the player's (Red's) side.
  const reason = /Your \w+ entered Blue's den!|Blue's \w+ entered your den|Every one of your animals was captured|You captured every one of Blue's animals!|could not move at all|You resigned|No animal was captured/;
  assert.match(text, reason);
  // A guest's game changes no score: no table of unchanged numbers.
  assert.equal(await dlg.locator('table.changes').count(), 0);
  await shot(page, 'vs-ai-end');
  // The status line says the result and what happened, in lower case after the colon (but for
  // the sides' names): "Red wins: your rat entered Blue's den!".
  const status = await page.locator('[data-test=status]').innerText();
  assert.match(status, /^(Red wins|Blue wins|Draw): ([a-z]|Blue's)/);
  assert.match(status.replace(/: (\w)/, (_, c) => `: ${c.toUpperCase()}`), reason);
  assert.deepEqual(page.errors, []);
});

test('a move that is not allowed says why, clicked or typed, in the player\'s language', async () => {
  const { page } = await openPlayer(browser, { locale: 'zh-CN' });
  await startAi(page, 'red');
  await page.locator('.board [data-sq="c3"].movable').waitFor();
  // The wolf on c3 clicked into the water beside it: the server refuses and says why.
  await page.locator('.board [data-sq="c3"]').click();
  await page.locator('.board [data-sq="c4"]').click();
  await page.locator('.toast.error', { hasText: '这步棋不能走：只有鼠能下水' }).waitFor();
  // Typed: a square it cannot reach.
  await page.fill('#move-input', 'c3c5');
  await page.press('#move-input', 'Enter');
  await page.locator('.toast.error', { hasText: '这步棋不能走：c3 的狼走不到 c5' }).waitFor();
  // Typed to the square the animal stands on, or with a capture or den mark that does not hold:
  // said at once, in Chinese (never the server's English reading of the text), nothing played.
  for (const [typed, said] of [
    ['狮g1', '狮已经在 g1 上了'], ['Lg1', '狮已经在 g1 上了'], ['g1g1', '狮已经在 g1 上了'], ['d5d5', '一步棋要从一格走到另一格'],
    ['Rxg4', '这步棋不能走：x 表示吃子，但 g4 是空的'], ['Ea4#', '这步棋不能走：# 表示进入兽穴，但 a4 不是对方兽穴'],
  ]) {
    await page.fill('#move-input', typed);
    await page.press('#move-input', 'Enter');
    await page.locator('.toast.error', { hasText: said }).waitFor();
  }
  assert.equal(await page.locator('.toast', { hasText: /[a-z]{3,}/ }).count(), 0, 'English words in a Chinese toast');
  assert.equal(await moveCount(page), 0);
  // A click on one of its own animals only selects that one.
  await page.evaluate(() => document.querySelectorAll('.toast').forEach((el) => el.remove()));
  await page.locator('.board [data-sq="c3"]').click();
  await page.locator('.board [data-sq="e3"]').click();
  await page.locator('.board [data-sq="e3"].selected').waitFor();
  assert.equal(await page.locator('.toast.error').count(), 0);
  assert.equal(await moveCount(page), 0);
  assert.deepEqual(page.errors, []);
});

test('a hint against the computer marks a legal move of your own, which you can play', async () => {
  const { page } = await openPlayer(browser, { locale: 'en-US' });
  await startAi(page, 'red');
  assert.equal(await page.getAttribute('[data-test=hint]', 'aria-keyshortcuts'), 'H');
  // The key H asks, as the button does.
  await page.keyboard.press('h');
  const hint = await page.locator('#toasts .toast', { hasText: 'Hint: ' }).innerText();
  // In English the animal is named by its letter.
  assert.match(hint, /^Hint: [ELTPDWCR][a-g][1-9]-[a-g][1-9]$/);
  const marked = await page.locator('.board .sq.hint').evaluateAll((els) => els.map((e) => ({
    sq: e.dataset.sq, red: Boolean(e.querySelector('.piece.red')), label: e.getAttribute('aria-label'),
  })));
  assert.equal(marked.length, 2, JSON.stringify(marked));
  const from = marked.find((m) => m.red);
  const to = marked.find((m) => m !== from);
  assert.ok(from && to, JSON.stringify(marked));
  assert.ok(marked.every((m) => m.label.includes('the suggested move')), JSON.stringify(marked));
  await shot(page, 'vs-ai-hint');
  // The hint is a legal move: playing it is accepted, and the marks go with the position.
  await clickMove(page, from.sq + to.sq);
  await page.waitForFunction(() => !document.querySelector('.board .sq.hint'));
  assert.equal(await moveCount(page) >= 1, true);
  assert.deepEqual(page.errors, []);
});

test('playing Blue, the takeback waits for a move of your own', async () => {
  const { page } = await openPlayer(browser, { locale: 'en-US' });
  await startAi(page, 'blue');
  // The computer (Red) opens: there is nothing of yours to take back, so no button.
  await waitMoves(page, 1);
  await page.locator('[data-test=resign]').waitFor();
  assert.equal(await page.locator('[data-test=takeback]').count(), 0);
  // After your move and its reply, taking back removes both.
  await clickMove(page, 'a7a6');
  await waitMoves(page, 3);
  await page.click('[data-test=takeback]');
  await page.waitForFunction(() => document.querySelectorAll('.moves .mv[data-ply]').length === 1);
  assert.equal(await page.locator('.board [data-sq="a7"] .piece.blue[data-role="R"]').count(), 1);
  assert.equal(await page.locator('[data-test=takeback]').count(), 0);
  assert.deepEqual(page.errors, []);
});
