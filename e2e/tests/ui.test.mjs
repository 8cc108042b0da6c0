// The language switch, a phone-sized touch screen, and the other ways to move (keyboard text,
// keyboard on the board, drag), on hotseat games.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPlayer, register, uniqueName, gameId, clickMove, tapMove, waitMoves, shot, endingText, BASE, DEN_WIN } from '../lib.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

test('the language follows the browser, switches, and is remembered', async () => {
  const { page } = await openPlayer(browser, { locale: 'zh-CN' });
  assert.equal(await page.locator('#lang-select').inputValue(), 'zh-Hans');
  assert.equal(await page.locator('[data-test=start-ai]').innerText(), '开始');
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-Hans');
  await shot(page, 'home-zh-Hans', true);

  await page.focus('#lang-select');
  await page.selectOption('#lang-select', 'en');
  await page.locator('h1', { hasText: 'Jungle (Dou Shou Qi)' }).waitFor();
  assert.equal(await page.locator('[data-test=start-ai]').innerText(), 'Start');
  // The screen is drawn again in the new language; the keyboard stays on the select.
  assert.equal(await page.evaluate(() => document.activeElement.id), 'lang-select');
  // The window's title: the home screen's heading alone, other screens' before the site's name
  // (below).
  assert.equal(await page.title(), 'Jungle (Dou Shou Qi)');
  const nav = await page.locator('header nav').innerText();
  assert.match(nav, /Lobby/);
  // A wide screen shows the navigation itself, not a menu button.
  assert.equal(await page.locator('[data-test=menu]').isVisible(), false);
  assert.doesNotMatch(nav, /[\u4e00-\u9fff]/);

  await page.selectOption('#lang-select', 'zh-Hant');
  await page.locator('h1', { hasText: '鬥獸棋' }).waitFor();
  assert.match(await page.locator('header nav').innerText(), /大廳/);
  // The sound switch is remembered as well.
  assert.equal(await page.locator('[data-test=mute]').getAttribute('aria-pressed'), 'false');
  await page.click('[data-test=mute]');
  assert.equal(await page.locator('[data-test=mute]').getAttribute('aria-pressed'), 'true');
  await page.reload();
  await page.waitForSelector('body[data-ready="1"]');
  assert.equal(await page.locator('#lang-select').inputValue(), 'zh-Hant');
  assert.equal(await page.locator('[data-test=mute]').getAttribute('aria-pressed'), 'true');
  assert.match(await page.locator('[data-test=mute]').getAttribute('aria-label'), /聲音：關/);
  assert.match(await page.locator('header nav').innerText(), /排行榜/);
  // Level names in Traditional characters, from the server's level table.
  const me = await page.evaluate(() => window.jungle.store.user.name);
  await page.goto(`${BASE}/#/u/${encodeURIComponent(me)}`);
  await page.locator('[data-test=level]', { hasText: '入門' }).waitFor();
  // The rating's "±" and the score are explained in plain words beside them.
  assert.match(await page.locator('[data-test=rating]').innerText(), /^1500 ± 350$/);
  assert.match(await page.locator('[data-test=stats-legend]').innerText(), /輸了扣 2 分[\s\S]*從 1500 開始[\s\S]*「±」後面的數越小，估計越準/);
  // A guest's generated name says "guest" itself: the heading does not say it again. The
  // window's title names the player too.
  assert.equal(await page.locator('main h1').innerText(), me.replace('Guest-', '訪客'));
  assert.equal(await page.title(), `${me.replace('Guest-', '訪客')} · 鬥獸棋`);
  await page.goto(`${BASE}/#/lobby`);
  await page.locator('h1', { hasText: '大廳' }).waitFor();
  assert.equal(await page.title(), '大廳 · 鬥獸棋');
  await page.goto(`${BASE}/#/`);
  await page.waitForSelector('[data-test=start-hotseat]');
  assert.equal(await page.title(), '鬥獸棋');

  // The board speaks the language too: a hotseat game in Traditional Chinese.
  await page.click('[data-test=start-hotseat]');
  await gameId(page);
  await page.waitForSelector('.board .sq.movable');
  // The squares' labels are joined with the Chinese comma, not ", ".
  assert.equal(await page.locator('.board [data-sq="g7"]').getAttribute('aria-label'), 'g7，藍方象');
  assert.equal(await page.locator('.board [data-sq="d9"]').getAttribute('aria-label'), 'd9，藍方獸穴');
  await page.locator('.board [data-sq="g3"] .ch', { hasText: '鼠' }).waitFor();
  await page.locator('.board [data-sq="f8"] .ch', { hasText: '貓' }).waitFor();
  // The game screen's heading names the players (and so does the window's title); a guest's
  // generated name reads in the page's language, the header's too.
  assert.match(me, /^Guest-\d+$/);
  const shown = me.replace('Guest-', '訪客');
  assert.equal(await page.locator('[data-test=me]').innerText(), shown);
  const heading = `${shown}（紅方）對 ${shown}（藍方）`;
  assert.equal(await page.locator('main h1').textContent(), heading);
  assert.equal(await page.locator('main h1').count(), 1);
  assert.equal(await page.title(), `${heading} · 鬥獸棋`);
  await page.locator('.board [data-sq="g3"]').click();
  assert.equal(await page.locator('.board [data-sq="g3"]').getAttribute('aria-label'), 'g3，紅方鼠，已選取');
  assert.equal(await page.locator('.board [data-sq="g4"].dest').getAttribute('aria-label'), 'g4，可以走到這裡');
  await page.locator('.board [data-sq="g4"]').click();
  await waitMoves(page, 1);
  assert.equal(await page.locator('.moves .mv[data-ply="0"]').innerText(), '鼠g4');
  assert.deepEqual(page.errors, []);
});

test('logging out in one tab signs the other tab out too, which carries on as a guest', async () => {
  const { page } = await openPlayer(browser, { locale: 'en-US' });
  const name = uniqueName('tabs');
  await register(page, name);
  const other = await page.context().newPage();
  other.errors = [];
  other.on('pageerror', (e) => other.errors.push(String(e)));
  // The other tab shows the account's own profile, with its password form.
  await other.goto(`${BASE}/#/u/${encodeURIComponent(name)}`);
  await other.waitForFunction((n) => document.querySelector('[data-test=me]')?.textContent === n, name);
  await other.locator('[data-test=password-form]').waitFor();
  await page.click('[data-test=logout]');
  await page.locator('dialog.modal[open] button.primary').click();
  // The other tab's socket is closed by the server; the tab says why and becomes a guest.
  await other.locator('.toast', { hasText: 'You were logged out elsewhere' }).waitFor();
  await other.waitForFunction((n) => {
    const me = document.querySelector('[data-test=me]')?.textContent;
    return me && me !== n;
  }, name);
  // The profile is drawn again for the guest: no password form to fill in for nothing.
  await other.locator('[data-test=password-form]').waitFor({ state: 'detached' });
  await other.locator('.stats').waitFor();
  assert.deepEqual(page.errors, []);
  assert.deepEqual(other.errors, []);
});

test('a beginner starts gently: level 1 and no clock by default, and the help tells every rule a child meets', async () => {
  const { page } = await openPlayer(browser, { locale: 'zh-CN' });
  await page.goto(`${BASE}/#/`);
  const level = page.locator('#ai-level');
  assert.equal(await level.inputValue(), '1');
  assert.equal(await level.locator('option').first().innerText(), '1 级（最简单）');
  assert.equal(await level.locator('option').last().innerText(), '10 级（最难）');
  assert.equal(await page.locator('#ai-tc').inputValue(), '');
  assert.equal(await page.locator('#hs-tc').inputValue(), '');
  const help = page.locator('details.howto');
  await help.locator('summary').click();
  const text = await help.innerText();
  for (const said of ['先点一下自己的动物', '不能走进自己的兽穴', '7-3 规则', '17-5 规则', '一步也走不了，就输了', '100 个回合']) {
    assert.ok(text.includes(said), `the help does not say ${said}: ${text}`);
  }
  // A game against the computer started with the defaults has no clock.
  await page.locator('[data-test=start-ai]').click();
  await gameId(page);
  await page.waitForSelector('.board .sq.movable');
  assert.equal(await page.locator('.clock').count(), 0);
  // Resigned, the result says who resigned, in plain words, in the dialog and the status.
  await page.click('[data-test=resign]');
  await page.locator('dialog.modal[open] [data-test=confirm-yes]').click();
  const ending = await endingText(page);
  assert.match(ending, /蓝方胜/);
  assert.match(ending, /你输了/);
  assert.equal(await page.locator('[data-test=end-reason]').innerText(), '你认输了');
  assert.equal(await page.locator('[data-test=status]').innerText(), '蓝方胜：你认输了');
  assert.deepEqual(page.errors, []);
});

test('registration says its rules and its refusals in the player\'s language', async () => {
  const { page } = await openPlayer(browser, { locale: 'zh-CN' });
  await page.goto(`${BASE}/#/login`);
  const form = page.locator('[data-test=register-form]');
  assert.match(await form.locator('[data-test=register-hint]').innerText(), /2 到 20 个字符.*至少 8 个字符/);
  // The page has a heading, which names the window too.
  assert.equal(await page.locator('h1').innerText(), '登录 / 注册');
  assert.equal(await page.title(), '登录 / 注册 · 斗兽棋');
  const error = form.locator('.error');
  // Empty fields are said by the page in the player's language, not by the browser's own
  // bubble (the form is not checked by the browser: the submit reaches the page).
  assert.equal(await form.evaluate((f) => f.noValidate), true);
  await form.locator('button[type=submit]').click();
  await error.filter({ hasText: '请输入用户名。' }).waitFor();
  assert.equal(await page.evaluate(() => document.activeElement.id), 'register-name');
  assert.equal(await form.locator('input[name=name]').getAttribute('aria-invalid'), 'true');
  const refused = async (name, password, text) => {
    await form.locator('input[name=name]').fill(name);
    await form.locator('input[name=password]').fill(password);
    await form.locator('input[name=password2]').fill(password);
    await form.locator('button[type=submit]').click();
    await error.filter({ hasText: text }).waitFor();
    // Said in Chinese, not the server's English.
    assert.doesNotMatch(await error.innerText(), /[a-z]{4,}/);
  };
  await refused('明', 'secret words', '用户名要有 2 到 20 个字符');
  await refused('小明的爸爸', 'short', '密码要有 8 到 128 个字符');
  await refused('小 明 爸', 'secret words', '只能用文字、数字');
  // The password typed twice, differently: said before asking the server, the repetition cleared.
  await form.locator('input[name=name]').fill('小明的爸爸');
  await form.locator('input[name=password]').fill('secret words');
  await form.locator('input[name=password2]').fill('secret wordz');
  await form.locator('button[type=submit]').click();
  await error.filter({ hasText: '两次输入的密码不一样' }).waitFor();
  assert.equal(await page.evaluate(() => document.activeElement.id), 'register-pass2');
  assert.equal(await form.locator('input[name=password2]').inputValue(), '');
  // A new try with the password left out: the old refusal goes, the new message alone stays.
  await form.locator('input[name=name]').fill('小明的爸爸');
  await form.locator('input[name=password]').fill('');
  await form.locator('button[type=submit]').click();
  await error.filter({ hasText: '请输入密码。' }).waitFor();
  assert.equal(await error.innerText(), '请输入密码。');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'register-pass');
  assert.equal(await form.locator('input[name=name]').getAttribute('aria-invalid'), null);
  // The password typed, its repetition not: asked for again, not for "a password".
  await form.locator('input[name=password]').fill('secret words');
  await form.locator('button[type=submit]').click();
  await error.filter({ hasText: '请再输入一次密码。' }).waitFor();
  assert.equal(await page.evaluate(() => document.activeElement.id), 'register-pass2');
  await page.selectOption('#lang-select', 'zh-Hant');
  await form.locator('[data-test=register-hint]', { hasText: '至少 8 個字元' }).waitFor();
  await form.locator('input[name=name]').fill('guest_dad');
  await form.locator('input[name=password]').fill('secret words');
  await form.locator('input[name=password2]').fill('secret words');
  await form.locator('button[type=submit]').click();
  await error.filter({ hasText: '留給訪客使用' }).waitFor();
  // The login form too, in Traditional Chinese: a name of spaces is no name.
  const login = page.locator('[data-test=login-form]');
  assert.equal(await login.evaluate((f) => f.noValidate), true);
  await login.locator('input[name=name]').fill('   ');
  await login.locator('button[type=submit]').click();
  await login.locator('.error', { hasText: '請輸入使用者名稱。' }).waitFor();
  // Nothing was created: the player is still a guest.
  assert.equal(await page.evaluate(() => window.jungle.store.user.guest), true);
  assert.deepEqual(page.errors, []);
});

test('a phone in portrait: the board fits, taps move, the controls are reachable; a small phone fits a timed game', async () => {
  const { page } = await openPlayer(browser, {
    locale: 'zh-CN', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true,
  });
  await shot(page, 'phone-home');
  await page.locator('[data-test=start-hotseat]').tap();
  await gameId(page);
  await page.waitForSelector('.board .sq.movable');
  const box = await page.locator('.board').boundingBox();
  assert.ok(box.x >= 0 && box.x + box.width <= 390, `board ${JSON.stringify(box)} overflows the screen`);
  assert.ok(box.width > 300, `board only ${box.width}px wide`);
  const scrollW = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(scrollW <= 390, `page scrolls sideways (${scrollW}px)`);
  await tapMove(page, 'g3g4');
  await tapMove(page, 'a7a6');
  await tapMove(page, 'e3d3');
  // Moves do not scroll the page (only the move list): the top player's clock and the status
  // above the board stay on the screen.
  assert.equal(await page.evaluate(() => window.scrollY), 0);
  await shot(page, 'phone-game', true);
  // Every control on the game screen can be reached and is at least 30px high for a finger.
  for (const b of await page.locator('.controls button').all()) {
    const bb = await b.boundingBox();
    assert.ok(bb && bb.height >= 30, 'a control is too small to tap');
  }

  // A small phone (360×640): the header is one row, the navigation behind a menu button.
  await page.setViewportSize({ width: 360, height: 640 });
  await page.goto(`${BASE}/#/`);
  await page.waitForSelector('[data-test=start-ai]');
  const header = await page.locator('#header').boundingBox();
  assert.ok(header.height <= 56, `the header is ${header.height}px high`);
  const menu = page.locator('[data-test=menu]');
  assert.equal(await page.locator('header nav').isVisible(), false);
  assert.equal(await menu.getAttribute('aria-expanded'), 'false');
  await menu.tap();
  assert.equal(await menu.getAttribute('aria-expanded'), 'true');
  await page.locator('#lang-select').waitFor();
  await shot(page, 'phone-small-menu');
  await page.locator('header nav a[href="#/lobby"]').tap();
  await page.waitForURL((u) => u.hash === '#/lobby');
  // A new screen closes the menu.
  await page.locator('header nav').waitFor({ state: 'hidden' });
  assert.equal(await menu.getAttribute('aria-expanded'), 'false');
  await menu.tap();
  await page.locator('header nav a[href="#/"]').tap();
  await page.waitForSelector('[data-test=start-ai]');
  // The link of the screen already shown closes the menu too (no new screen comes).
  await menu.tap();
  assert.equal(await menu.getAttribute('aria-expanded'), 'true');
  await page.locator('header nav a[href="#/"]').tap();
  await page.locator('header nav').waitFor({ state: 'hidden' });
  assert.equal(await menu.getAttribute('aria-expanded'), 'false');
  // A new screen opens at its top, not where the last one was scrolled to.
  await page.goto(`${BASE}/#/login`);
  await page.locator('[data-test=register-form]').waitFor();
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  assert.ok(await page.evaluate(() => window.scrollY) > 0, 'the login screen does not scroll: the check below proves nothing');
  await page.evaluate(() => { location.hash = '#/'; });
  await page.waitForSelector('[data-test=start-ai]');
  assert.equal(await page.evaluate(() => window.scrollY), 0);

  // A timed game against the computer: the whole board and both players' clocks are on the
  // screen without scrolling, before and after moves (the move timer too).
  await page.selectOption('#ai-tc', 'rapid');
  await page.locator('[data-test=start-ai]').tap();
  await gameId(page);
  await page.waitForSelector('.board .sq.movable');
  const onScreen = async (selector) => {
    const bb = await page.locator(selector).boundingBox();
    assert.ok(bb, `${selector} is not shown`);
    assert.ok(bb.x >= 0 && bb.y >= 0 && bb.x + bb.width <= 360 && bb.y + bb.height <= 640,
      `${selector} ${JSON.stringify(bb)} is not within the 360×640 screen`);
    return bb;
  };
  const fits = async () => {
    assert.equal(await page.evaluate(() => window.scrollY), 0);
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= 360, 'the page scrolls sideways');
    const board = await onScreen('.board');
    assert.ok(board.width >= 300, `board only ${board.width}px wide`);
    await onScreen('[data-test=clock-red]');
    await onScreen('[data-test=clock-blue]');
    return board;
  };
  const board = await fits();
  await onScreen('[data-test=movetime-red]');
  await tapMove(page, 'g3g4');
  await waitMoves(page, 2);
  await page.locator('[data-test=movetime-red]').waitFor();
  await onScreen('[data-test=movetime-red]');
  // The board keeps its size from move to move.
  assert.equal((await fits()).width, board.width);
  await shot(page, 'phone-small-game');
  assert.deepEqual(page.errors, []);
});

/**
 * The problems of a game screen that should show the whole board and both players' clocks
 * within the viewport without scrolling (none: an empty list), and the bottom player bar's height.
 */
async function layoutProblems(page) {
  return page.evaluate(() => {
    const problems = [];
    const vw = document.documentElement.clientWidth;
    const vh = window.innerHeight;
    for (const sel of ['.board', '[data-test=clock-red]', '[data-test=clock-blue]', '.player.top', '.player.bottom']) {
      const el = document.querySelector(sel);
      if (!el) { problems.push(`${sel} missing`); continue; }
      const r = el.getBoundingClientRect();
      if (r.left < 0 || r.top < 0 || r.right > vw + 0.5 || r.bottom > vh + 0.5) {
        problems.push(`${sel} at ${Math.round(r.left)},${Math.round(r.top)}–${Math.round(r.right)},${Math.round(r.bottom)} is outside ${vw}×${vh}`);
      }
    }
    if (window.scrollY !== 0) problems.push(`scrolled to ${window.scrollY}`);
    return problems;
  });
}

test('a timed game against the computer fits a desktop screen: the board and both clocks', async () => {
  const { page } = await openPlayer(browser, { locale: 'en-US', viewport: { width: 1280, height: 800 } });
  await page.selectOption('#ai-tc', 'rapid');
  await page.click('[data-test=start-ai]');
  await gameId(page);
  await page.waitForSelector('.board .sq.movable');
  // The player's timeouts are counted; the computer (Blue), which never runs out, has no count.
  assert.equal(await page.locator('[data-test=timeouts-red]').innerText(), 'Timeouts 0/3');
  assert.equal(await page.locator('[data-test=timeouts-blue]').count(), 0);
  for (const [width, height] of [[1280, 800], [800, 800]]) {
    await page.setViewportSize({ width, height });
    // The layout follows the new size (the header's height is measured after it).
    const ok = await page.waitForFunction(() => {
      const b = document.querySelector('.player.bottom').getBoundingClientRect();
      return b.bottom <= window.innerHeight && window.scrollY === 0;
    }, null, { timeout: 5000 }).then(() => true, () => false);
    await shot(page, `desktop-ai-${width}x${height}`);
    assert.deepEqual(await layoutProblems(page), [], `${width}×${height}${ok ? '' : ' (waited 5 s)'}`);
    const board = await page.locator('.board').boundingBox();
    assert.ok(board.width >= 320, `board only ${board.width}px wide at ${width}×${height}`);
    // Each player's bar is one row where there is room for it (the clock beside the name).
    for (const bar of ['.player.top', '.player.bottom']) {
      const name = await page.locator(`${bar} .pname`).boundingBox();
      const clock = await page.locator(`${bar} .clock`).boundingBox();
      assert.ok(Math.abs((name.y + name.height / 2) - (clock.y + clock.height / 2)) < 12,
        `${bar}: the clock ${JSON.stringify(clock)} is not beside the name ${JSON.stringify(name)} at ${width}×${height}`);
    }
  }
  assert.deepEqual(page.errors, []);
});

/**
 * Asserts that the live region announces `re`. `announce` clears the region and fills it on the
 * next animation frame (so that screen readers speak a repeated text again): wait up to 5 s for
 * the text, then assert on what is there.
 */
async function announced(page, re) {
  await page
    .waitForFunction((src) => new RegExp(src).test(document.getElementById('live').textContent), re.source, { timeout: 5000 })
    .catch(() => {});
  assert.match(await page.locator('#live').textContent(), re);
}

test('moves by typing, by keyboard on the board, and by drag; flip and ranks', async () => {
  const { page } = await openPlayer(browser, { locale: 'en-US' });
  await page.click('[data-test=start-hotseat]');
  await gameId(page);
  await page.waitForSelector('.board .sq.movable');

  // Typed coordinate and SAN-like moves.
  await page.fill('#move-input', 'g3g4');
  await page.press('#move-input', 'Enter');
  await waitMoves(page, 1);
  await page.fill('#move-input', 'Ra6');
  await page.press('#move-input', 'Enter');
  await waitMoves(page, 2);
  assert.equal(await page.locator('.moves .mv[data-ply="1"]').innerText(), 'Ra6');
  // A move that is not legal is refused with the server's reason, and nothing changes.
  await page.fill('#move-input', 'Ld5');
  await page.press('#move-input', 'Enter');
  await page.locator('.toast.error', { hasText: 'That move is not allowed: ' }).first().waitFor();
  assert.equal(await page.locator('.moves .mv').count(), 2);
  assert.equal(await page.locator('#move-input').getAttribute('aria-invalid'), 'true');

  // Keyboard on the board: the squares announce themselves; arrows move, Enter picks and drops.
  await page.locator('.board [data-sq="e3"]').focus();
  assert.match(await page.locator('.board [data-sq="e3"]').getAttribute('aria-label'), /e3, Red leopard/);
  await page.keyboard.press('Enter');
  assert.match(await page.locator('.board [data-sq="d3"]').getAttribute('aria-label'), /legal destination/);
  await page.keyboard.press('ArrowLeft');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.sq), 'd3');
  await page.keyboard.press('Enter');
  await waitMoves(page, 3);
  assert.equal(await page.locator('.board [data-sq="d3"] .piece.red[data-role="P"]').count(), 1);
  await announced(page, /Red: Pd3/);
  // The board keeps the keyboard's focus through the redraws the move brings, so the arrows go
  // on working.
  await page.waitForFunction(() => document.activeElement?.dataset?.sq === 'd3', null, { timeout: 3000 });
  await page.keyboard.press('ArrowUp');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.sq), 'd4');

  // Drag Blue's elephant g7 → g6.
  await page.locator('.board [data-sq="g7"]').dragTo(page.locator('.board [data-sq="g6"]'));
  await waitMoves(page, 4);
  assert.equal(await page.locator('.board [data-sq="g6"] .piece.blue[data-role="E"]').count(), 1);

  // Copy the position: the JFEN after the four moves.
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.click('[data-test=copy-fen]');
  await page.locator('.toast', { hasText: 'Copied' }).first().waitFor();
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), 'l5t/1d3c1/2p1w2/r5e/7/6R/E1WP3/1C3D1/T5L r 4 3');

  // Flip puts Blue at the bottom; ranks show on demand.
  const firstBefore = await page.locator('.board .sq').first().getAttribute('data-sq');
  await page.click('[data-test=flip]');
  const firstAfter = await page.locator('.board .sq').first().getAttribute('data-sq');
  assert.equal(firstBefore, 'a9');
  assert.equal(firstAfter, 'g1');
  assert.equal(await page.locator('.board .piece .rk').count(), 0);
  await page.click('[data-test=ranks]');
  assert.equal(await page.locator('.board [data-sq="a3"] .piece .rk').innerText(), '8');
  await page.click('[data-test=flip]');
  await shot(page, 'hotseat');
  assert.deepEqual(page.errors, []);
});

test('a game finished by keyboard on the board: after Esc the replay keys work from the board', async () => {
  const { page } = await openPlayer(browser, { locale: 'en-US' });
  await page.click('[data-test=start-hotseat]');
  await gameId(page);
  await page.waitForSelector('.board .sq.movable');
  for (const m of DEN_WIN.slice(0, -1)) await clickMove(page, m);
  // The last move, Red's leopard into Blue's den, by keyboard.
  await page.locator('.board [data-sq="d8"]').focus();
  await page.keyboard.press('Enter');
  await page.keyboard.press('ArrowUp');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.sq), 'd9');
  await page.keyboard.press('Enter');
  const ending = await endingText(page);
  assert.match(ending, /Red wins/);
  // At one device both sides are named, and the animal that entered the den.
  assert.equal(await page.locator('[data-test=end-reason]').innerText(), "Red's leopard entered Blue's den");
  await page.keyboard.press('Escape');
  await page.locator('dialog.modal[open]').waitFor({ state: 'detached' });
  // The focus is back on the board, where the replay keys step through the game.
  assert.ok(await page.evaluate(() => Boolean(document.activeElement.closest('.board'))), 'the focus is not on the board');
  const ply = page.locator('[data-test=ply]');
  await ply.filter({ hasText: 'Ply 13 of 13' }).waitFor();
  await page.keyboard.press('Home');
  await ply.filter({ hasText: 'Ply 0 of 13' }).waitFor();
  assert.equal(await page.locator('.board [data-sq="e3"] .piece.red[data-role="P"]').count(), 1);
  await page.keyboard.press('ArrowRight');
  await ply.filter({ hasText: 'Ply 1 of 13' }).waitFor();
  assert.equal(await page.locator('.board [data-sq="d3"] .piece.red[data-role="P"]').count(), 1);
  await page.keyboard.press('End');
  await ply.filter({ hasText: 'Ply 13 of 13' }).waitFor();
  await page.keyboard.press('ArrowLeft');
  await ply.filter({ hasText: 'Ply 12 of 13' }).waitFor();
  // Still on the board: the keys go on working.
  assert.ok(await page.evaluate(() => Boolean(document.activeElement.closest('.board'))));
  await page.keyboard.press('ArrowLeft');
  await ply.filter({ hasText: 'Ply 11 of 13' }).waitFor();
  assert.deepEqual(page.errors, []);
});

test('the board\'s coordinates are legible on every kind of square, both ways up', async () => {
  const { page } = await openPlayer(browser, { locale: 'en-US' });
  await page.click('[data-test=start-hotseat]');
  await gameId(page);
  await page.waitForSelector('.board .sq.movable');
  // WCAG contrast of each coordinate's colour against its square's.
  const measure = () => page.locator('.board .coord').evaluateAll((els) => {
    const rgba = (s) => s.match(/[\d.]+/g).map(Number);
    const lum = ([r, g, b]) => {
      const f = (c) => { const v = c / 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
      return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
    };
    return els.map((el) => {
      const sq = el.closest('.sq');
      const bg = rgba(getComputedStyle(sq).backgroundColor);
      const [r, g, b, a = 1] = rgba(getComputedStyle(el).color);
      // A see-through colour is what it makes over the square.
      const fg = [r, g, b].map((c, i) => c * a + bg[i] * (1 - a));
      const [hi, lo] = [lum(fg), lum(bg)].sort((x, y) => y - x);
      return { sq: sq.dataset.sq, kind: sq.className, ratio: (hi + 0.05) / (lo + 0.05), size: parseFloat(getComputedStyle(el).fontSize) };
    });
  });
  for (const flip of [false, true]) {
    if (flip) await page.click('[data-test=flip]');
    const coords = await measure();
    assert.equal(coords.length, 16);
    // The file letters run along traps and a den.
    assert.ok(coords.some((c) => /trap/.test(c.kind)) && coords.some((c) => /den/.test(c.kind)), JSON.stringify(coords));
    for (const c of coords) {
      assert.ok(c.ratio >= 4.5, `coordinate on ${c.sq} (${c.kind}): contrast ${c.ratio.toFixed(2)}:1`);
      assert.ok(c.size >= 11, `coordinate on ${c.sq}: ${c.size}px`);
    }
  }
  assert.deepEqual(page.errors, []);
});

test('a move the 7-3 rule forbids says why, in the player\'s language, when tried', async () => {
  const { page } = await openPlayer(browser, { locale: 'zh-CN' });
  await page.click('[data-test=start-hotseat]');
  await gameId(page);
  await page.waitForSelector('.board .sq.movable');
  // Red's rat enters g4 three times in its side's last seven moves.
  for (const m of ['g3g4', 'a7a6', 'g4g5', 'a6a5', 'g5g4', 'a5a4', 'g4g5', 'a9a8', 'g5g4', 'a8a7', 'g4g5', 'e7d7']) {
    await clickMove(page, m);
  }
  // g4 is not offered to the rat, and clicking it says why instead of doing nothing.
  await page.locator('.board [data-sq="g5"]').click();
  await page.locator('.board [data-sq="g6"].dest').waitFor();
  assert.equal(await page.locator('.board [data-sq="g4"].dest').count(), 0);
  // Marked as closed, and said so to screen readers.
  await page.locator('.board [data-sq="g4"].closed').waitFor();
  assert.match(await page.locator('.board [data-sq="g4"]').getAttribute('aria-label'), /被规则禁止/);
  assert.equal(await page.locator('.board .sq.closed').count(), 1);
  await page.locator('.board [data-sq="g4"]').click();
  await page.locator('#toasts .toast.error', { hasText: '7-3 规则：鼠在本方最近 7 步里已经 3 次走进 g4' }).waitFor();
  // Typed, the same (the same words again replace the first toast: a new one is looked for).
  await page.evaluate(() => document.querySelectorAll('#toasts .toast').forEach((el) => { el.dataset.old = '1'; }));
  await page.fill('#move-input', 'g5g4');
  await page.press('#move-input', 'Enter');
  await page.waitForFunction(() => [...document.querySelectorAll('#toasts .toast.error')]
    .some((e) => !e.dataset.old && e.textContent.includes('7-3 规则')));
  assert.equal(await page.locator('#toasts .toast').count(), 1, 'the repeated words show once');
  assert.equal(await page.locator('.moves .mv').count(), 12, 'nothing was played');
  // At one device the last move can be taken back.
  await page.locator('[data-test=takeback]').click();
  await page.waitForFunction(() => document.querySelectorAll('.moves .mv').length === 11);
  assert.deepEqual(page.errors, []);
});

test('watching a live game from the list', async () => {
  const a = await openPlayer(browser, { locale: 'en-US' });
  await a.page.click('[data-test=start-hotseat]');
  const id = await gameId(a.page);
  await a.page.waitForSelector('.board .sq.movable');
  const w = await openPlayer(browser, { locale: 'en-US', hash: '/#/watch' });
  await w.page.locator(`a[href="#/g/${id}"]`).click();
  await w.page.locator('[data-test=status]', { hasText: 'Watching' }).waitFor();
  assert.equal(await w.page.locator('.board .sq.movable').count(), 0);
  await clickMove(a.page, 'g3g4');
  await waitMoves(w.page, 1);
  assert.equal(await w.page.locator('.board [data-sq="g4"] .piece.red').count(), 1);
  assert.equal(BASE.length > 0, true);
});

test('the analysis board: load a position, moves checked by the server, evaluation shown', async () => {
  const { page } = await openPlayer(browser, { locale: 'en-US', hash: '/#/analysis' });
  await page.locator('[data-test=eval]').waitFor({ timeout: 30000 });
  // The three best moves, each with its score and the start of its line, the first scored as
  // the evaluation says.
  const lines = page.locator('[data-test=lines] li');
  assert.equal(await lines.count(), 3);
  const score = (await page.locator('[data-test=eval]').textContent()).match(/^Evaluation: (\S+)/)[1];
  // What the score and the depth mean is said beside them, for the side to move.
  assert.equal(await page.locator('[data-test=eval-legend]').innerText(),
    'Above 0, Red is ahead; below 0, behind; 3.00 is about one cat more. Depth: how many moves ahead the computer looked.');
  assert.equal(await lines.nth(0).locator('b').textContent(), score);
  const firsts = await lines.locator('.pv').evaluateAll((els) => els.map((e) => e.textContent.split(' ')[0]));
  assert.equal(new Set(firsts).size, 3, firsts.join(' / '));
  // In English the animals are named by their letters, as in the move list.
  assert.ok(firsts.every((m) => /^[ELTPDWCR][a-g][1-9]-[a-g][1-9]$/.test(m)), firsts.join(' / '));
  await shot(page, 'analysis-lines');
  // Legal destinations come from the server's answer: the elephant on a3 may step to a4, not a5.
  await page.locator('.board [data-sq="a3"]').click();
  await page.locator('.board [data-sq="a4"].dest').waitFor();
  assert.equal(await page.locator('.board [data-sq="a5"].dest').count(), 0);
  assert.ok(await page.locator('.board .sq.movable').count() > 0);
  // A click on a square the selected animal cannot go to: the server says why.
  await page.locator('.board [data-sq="a5"]').click();
  await page.locator('.toast.error', { hasText: 'That move is not allowed: the elephant on a3 cannot reach a5' }).waitFor();
  // The same typed, in either form: refused, explained, and nothing changes.
  for (const typed of ['a3a5', 'Ea5']) {
    await page.evaluate(() => document.querySelectorAll('.toast').forEach((el) => el.remove()));
    await page.fill('#an-move', typed);
    await page.press('#an-move', 'Enter');
    await page.locator('.toast.error', { hasText: 'That move is not allowed: the elephant on a3 cannot reach a5' }).waitFor();
  }
  assert.equal(await page.locator('.board [data-sq="a3"] .piece.red[data-role="E"]').count(), 1);
  // A legal one is played.
  await page.fill('#an-move', 'Ea4');
  await page.press('#an-move', 'Enter');
  await page.locator('.board [data-sq="a4"] .piece.red[data-role="E"]').waitFor();
  assert.match(await page.locator('#fen-input').inputValue(), / b 1 1$/);
  assert.equal(await page.locator('.side-col .moves li').innerText(), 'Ea3-a4');
  // A change of language redraws the screen from the address, which keeps the moves.
  await page.selectOption('#lang-select', 'zh-Hans');
  await page.locator('.side-col .moves li', { hasText: '象a3-a4' }).waitFor();
  assert.match(await page.locator('#fen-input').inputValue(), / b 1 1$/);
  await page.selectOption('#lang-select', 'en');
  await page.locator('.side-col .moves li', { hasText: 'Ea3-a4' }).waitFor();
  // A bad JFEN is refused with a message.
  // Read as the rules library reads it: the board first, whatever the number of fields.
  await page.fill('#fen-input', 'not a position');
  await page.press('#fen-input', 'Enter');
  await page.locator('.toast.error', { hasText: "Bad position: rank 9 has an unknown character 'n'" }).waitFor();
  // The last position's evaluation goes: the reason stands in its place.
  await page.locator('[data-test=analysis-error]', { hasText: "Bad position: rank 9 has an unknown character 'n'" }).waitFor();
  assert.equal(await page.locator('[data-test=eval], [data-test=lines]').count(), 0);
  // Well-formed, but not a position (a lion in the water): the reasons the server would give are
  // shown where the analysis would be, in the player's language, without asking it (no refused
  // request in the console).
  const refused = [];
  page.on('response', (r) => { if (r.status() >= 400) refused.push(r.url()); });
  await page.fill('#fen-input', 'l5t/1d3c1/r1p1w1e/7/7/1L5/7/7/7 r');
  await page.press('#fen-input', 'Enter');
  await page.locator('[data-test=analysis-error]', { hasText: "Bad position: Red's lion is on b4, in the water (only rats swim)" }).waitFor();
  assert.deepEqual(refused, []);
  assert.deepEqual(page.errors, []);
});

test('a guest is told why the lobby\'s Rated boxes are off', async () => {
  const { page } = await openPlayer(browser, { locale: 'zh-CN', hash: '/#/lobby' });
  await page.waitForSelector('#seek-rated');
  for (const id of ['seek-rated', 'ch-rated']) {
    const box = page.locator(`#${id}`);
    assert.equal(await box.isDisabled(), true);
    assert.equal(await box.isChecked(), false);
    // The note is beside the box, and describes it for screen readers.
    const note = page.locator(`#${await box.getAttribute('aria-describedby')}`);
    assert.equal(await note.innerText(), '注册后可以下计分棋');
    assert.ok(await note.isVisible());
    // It leads to the registration form.
    assert.equal(await note.locator('a').getAttribute('href'), '#/login');
  }
  assert.equal(await page.locator('[data-test=rated-guest-note]').count(), 2);
  await page.selectOption('#lang-select', 'en');
  await page.locator('[data-test=rated-guest-note]', { hasText: 'Register to play rated games' }).first().waitFor();
  assert.deepEqual(page.errors, []);
});

test('a challenge link that is gone says so and offers no accept button', async () => {
  const { page } = await openPlayer(browser, { locale: 'en-US', hash: '/#/c/nosuchchallenge' });
  await page.locator('[data-test=challenge-lead]', { hasText: 'no longer open' }).waitFor();
  assert.equal(await page.locator('[data-test=accept-challenge]').isVisible(), false);
  assert.deepEqual(page.errors, []);
});

test('clocks from the server: low-time warning, a move timeout passes and is counted', async () => {
  const { page } = await openPlayer(browser, { locale: 'en-US' });
  // Bullet: 15 seconds per move, so the warning shows after 5 s and the pass comes after 15 s.
  await page.selectOption('#hs-tc', 'bullet');
  await page.click('[data-test=start-hotseat]');
  await gameId(page);
  await page.waitForSelector('.board .sq.movable');
  await clickMove(page, 'g3g4');
  assert.match(await page.locator('[data-test=movetime-blue]').innerText(), /Move 0:1\d/);
  assert.equal(await page.locator('[data-test=timeouts-blue]').innerText(), 'Timeouts 0/3');
  await page.locator('[data-test=movetime-blue].low').waitFor({ timeout: 20000 });
  await shot(page, 'low-time');
  // The server passes for Blue (停棋一步) and counts a timeout; it is Red's turn again.
  await waitMoves(page, 2);
  assert.equal(await page.locator('.moves .mv[data-ply="1"]').innerText(), 'pass');
  assert.equal(await page.locator('[data-test=timeouts-blue]').innerText(), 'Timeouts 1/3');
  assert.match(await page.locator('[data-test=status]').innerText(), /Red's turn/);
  await announced(page, /Blue timed out and passes/);
  const red = await page.locator('[data-test=clock-red]').innerText();
  assert.match(red, /^\d:\d\d/);
  // Red's clock runs; when the game ends it stops where it was, not back at the server's last
  // report (which was made when Red's turn began).
  const seconds = async () => {
    const [m, sec] = (await page.locator('[data-test=clock-red]').innerText()).match(/^(\d+):(\d\d)/).slice(1);
    return Number(m) * 60 + Number(sec);
  };
  await page.locator('[data-test=clock-red].running').waitFor();
  await page.waitForTimeout(2500);
  const before = await seconds();
  await page.click('[data-test=resign]');
  await page.locator('dialog.modal[open] button.primary').click();
  await endingText(page);
  const after = await seconds();
  assert.ok(after <= before, `the clock went back from ${before} s to ${after} s`);
  assert.deepEqual(page.errors, []);
});

test('the server\'s welcome arriving late keeps what the player chose on the home screen', async () => {
  // The welcome (sent when the WebSocket opens) used to re-render the home screen, resetting a
  // level or colour picked just before it arrived. Hold it back until the choice is made.
  const context = await browser.newContext({ locale: 'en-US' });
  const page = await context.newPage();
  let release;
  const held = new Promise((r) => { release = r; });
  let chain = Promise.resolve();
  let welcomes = 0;
  await page.routeWebSocket(/\/ws/, (ws) => {
    const server = ws.connectToServer();
    server.onMessage((m) => {
      const welcome = String(m).includes('"t":"welcome"');
      chain = chain.then(async () => {
        if (welcome) await held;
        ws.send(m);
        if (welcome) welcomes += 1;
      });
    });
  });
  await page.goto(`${BASE}/`);
  await page.waitForSelector('body[data-ready="1"]');
  await page.selectOption('#ai-level', '7');
  await page.check('input[name=ai-color][value=blue]');
  release();
  for (let i = 0; i < 100 && welcomes === 0; i += 1) await new Promise((r) => setTimeout(r, 50));
  assert.equal(welcomes, 1, 'the welcome reached the page');
  // Give the page a moment to handle the welcome, then check the choices survived it.
  await page.evaluate(() => new Promise((r) => setTimeout(r, 200)));
  assert.equal(await page.locator('#ai-level').inputValue(), '7');
  assert.ok(await page.locator('input[name=ai-color][value=blue]').isChecked());
  await page.click('[data-test=start-ai]');
  assert.ok(await gameId(page));
  assert.match(await page.locator('.player.top').innerText(), /Computer \(level 7\)/);
  // The game started after the welcome: the home screen still offers to resume it.
  const id = await gameId(page);
  await page.goto(`${BASE}/#/`);
  // The link names whom the game is against (two live games give two different buttons), also
  // after a reload, when the welcome gives only the game's id.
  assert.equal(await page.locator('[data-test=resume]').innerText(), 'Resume your game vs the computer (level 7)');
  await page.reload();
  await page.locator('[data-test=resume]', { hasText: 'Resume your game vs the computer (level 7)' }).waitFor();
  // A second live game, at one device: its own words.
  await page.click('[data-test=start-hotseat]');
  await page.waitForURL((u) => /#\/g\//.test(u.hash) && !u.hash.endsWith(id));
  await page.goto(`${BASE}/#/`);
  await page.locator('[data-test=resume]').nth(1).waitFor();
  assert.deepEqual((await page.locator('[data-test=resume]').allInnerTexts()).sort(),
    ['Resume your game on this device', 'Resume your game vs the computer (level 7)']);
  await page.locator('[data-test=resume]', { hasText: 'computer' }).click();
  await page.waitForURL(`**/#/g/${id}`);
  await context.close();
});

test('the replay keeps the keyboard on the button pressed; its ends are disabled; the language switch empties the live region', async () => {
  const { page } = await openPlayer(browser, { locale: 'en-US' });
  await page.click('[data-test=start-hotseat]');
  await gameId(page);
  await page.waitForSelector('.board .sq.movable');
  for (const m of ['g3g4', 'a7a6', 'e3d3']) await clickMove(page, m);
  // Resigning asks with buttons that say what they do.
  await page.click('[data-test=resign]');
  const dlg = page.locator('dialog.modal[open]');
  assert.deepEqual(await dlg.locator('button').allInnerTexts(), ['Keep playing', 'Resign']);
  await dlg.locator('[data-test=confirm-yes]').click();
  await endingText(page);
  await page.keyboard.press('Escape');
  await page.locator('dialog.modal[open]').waitFor({ state: 'detached' });
  const ply = page.locator('[data-test=ply]');
  const focused = () => page.evaluate(() => document.activeElement?.dataset?.test || document.activeElement?.dataset?.ply || document.activeElement?.tagName);
  const disabled = () => page.evaluate(() => ['first', 'prev', 'next', 'last'].filter((b) => document.querySelector(`[data-test=${b}]`).disabled));
  await ply.filter({ hasText: 'Ply 3 of 3' }).waitFor();
  // At the end there is nothing further to step to.
  assert.deepEqual(await disabled(), ['next', 'last']);
  // The buttons are drawn anew at each step: the focus stays on the one pressed.
  await page.locator('[data-test=prev]').focus();
  await page.keyboard.press('Enter');
  await ply.filter({ hasText: 'Ply 2 of 3' }).waitFor();
  assert.equal(await focused(), 'prev');
  assert.deepEqual(await disabled(), []);
  await page.keyboard.press('Enter');
  await ply.filter({ hasText: 'Ply 1 of 3' }).waitFor();
  assert.equal(await focused(), 'prev');
  await page.keyboard.press('Enter');
  await ply.filter({ hasText: 'Ply 0 of 3' }).waitFor();
  // Prev is now disabled: the focus goes on to Next, not lost to the page.
  assert.deepEqual(await disabled(), ['first', 'prev']);
  assert.equal(await focused(), 'next');
  await page.keyboard.press('Enter');
  await ply.filter({ hasText: 'Ply 1 of 3' }).waitFor();
  assert.equal(await focused(), 'next');
  await page.keyboard.press('Space');
  await ply.filter({ hasText: 'Ply 2 of 3' }).waitFor();
  assert.equal(await focused(), 'next');
  // The move shown is marked as the current step for screen readers.
  assert.equal(await page.locator('.moves .mv[aria-current=step]').getAttribute('data-ply'), '1');
  assert.equal(await page.locator('.moves .mv[aria-current]').count(), 1);
  // A move of the list, pressed by keyboard: shown, marked, and still focused.
  await page.locator('.moves .mv[data-ply="0"]').focus();
  await page.keyboard.press('Enter');
  await ply.filter({ hasText: 'Ply 1 of 3' }).waitFor();
  assert.equal(await focused(), '0');
  assert.equal(await page.locator('.moves .mv[aria-current=step]').getAttribute('data-ply'), '0');
  // Flip and the ranks switch keep it too.
  for (const b of ['flip', 'ranks']) {
    await page.locator(`[data-test=${b}]`).focus();
    await page.keyboard.press('Enter');
    assert.equal(await focused(), b);
  }
  assert.equal(await page.locator('.board .sq').first().getAttribute('data-sq'), 'g1');
  assert.equal(await page.locator('[data-test=ranks]').getAttribute('aria-pressed'), 'true');
  // What the live region said last (the result) was in English: a switch of language empties
  // it rather than leaving it to be read again in the old language.
  await page.evaluate(() => { document.getElementById('live').textContent = 'Blue wins (resignation)'; });
  await page.selectOption('#lang-select', 'zh-Hans');
  await page.locator('[data-test=ply]', { hasText: /^第 \d \/ 3 步$/ }).waitFor();
  assert.equal(await page.locator('#live').textContent(), '');
  assert.deepEqual(page.errors, []);
});

test('a phone lobby: a guest\'s seek reads casual, Accept is on the screen; the abort dialog says what its buttons do', async () => {
  const seeker = await openPlayer(browser, { locale: 'en-US', hash: '/#/lobby' });
  await seeker.page.locator('[data-test=conn].open').waitFor({ state: 'attached' });
  // A guest's seek asking to be rated (as a client other than this one may send): any game
  // with a guest is casual, and the lobby says so.
  await seeker.page.evaluate(() => window.jungle.socket.send({
    t: 'seek', rated: true, tc: window.jungle.store.presets.find((p) => p.id === 'classical').tc,
  }));
  const seekerName = await seeker.page.evaluate(() => window.jungle.store.user.name);
  const { page } = await openPlayer(browser, {
    locale: 'zh-CN', viewport: { width: 360, height: 640 }, isMobile: true, hasTouch: true, hash: '/#/lobby',
  });
  const row = page.locator('table.seeks tr[data-seek]', { hasText: seekerName.replace('Guest-', '游客') });
  await row.waitFor();
  assert.equal(await row.locator('[data-test=seek-mode]').innerText(), '友谊赛');
  await shot(page, 'phone-lobby');
  // Nothing makes the page scroll sideways, and the button to take the seek is on the screen
  // as it is, without scrolling the table.
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= 360, 'the page scrolls sideways');
  const accept = row.locator('[data-test=accept-seek]');
  await accept.scrollIntoViewIfNeeded();
  const bb = await accept.boundingBox();
  assert.ok(bb.x >= 0 && bb.x + bb.width <= 360 && bb.height >= 30, `Accept at ${JSON.stringify(bb)}`);
  assert.equal(await page.locator('.table-scroll').evaluate((el) => el.scrollLeft), 0);
  // Nothing covers it: a tap lands on it.
  assert.equal(await accept.evaluate((b) => {
    const r = b.getBoundingClientRect();
    return document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)?.closest('[data-test=accept-seek]') === b;
  }), true);
  // No heading, name or time broken into a character per line: each on one line.
  const broken = await page.locator('table.seeks').evaluate((t) => [...t.querySelectorAll('th, tr[data-seek] .nowrap, tr[data-seek] td:last-child')]
    .map((c) => {
      // The lines its text takes: the distinct tops of the text's boxes.
      const tops = new Set();
      const walk = document.createTreeWalker(c, NodeFilter.SHOW_TEXT);
      for (let n = walk.nextNode(); n; n = walk.nextNode()) {
        const r = document.createRange();
        r.selectNodeContents(n);
        for (const box of r.getClientRects()) if (box.width) tops.add(Math.round(box.top));
      }
      return { text: c.textContent, lines: tops.size };
    })
    .filter((c) => c.lines > 1));
  assert.deepEqual(broken, []);
  // The time control and the mode are seen before accepting: on the screen, left of the Accept
  // button, not scrolled under it.
  const cover = await accept.evaluate((b) => b.closest('td').getBoundingClientRect().left);
  for (const sel of ['[data-test=seek-tc] .nowrap', '[data-test=seek-mode]']) {
    for (const el of await row.locator(sel).all()) {
      const r = await el.boundingBox();
      assert.ok(r && r.x >= 0 && r.x + r.width <= cover, `${sel} at ${JSON.stringify(r)}, the Accept column from ${cover}`);
    }
  }
  assert.match(await row.locator('[data-test=seek-tc]').innerText(), /30\+10/);
  await accept.tap();
  await gameId(page);
  await gameId(seeker.page);
  // Aborting asks "continue or abort?", not 取消 (cancel) or 确定 (confirm) under the title 取消对局.
  await page.locator('[data-test=abort]').tap();
  const dlg = page.locator('dialog.modal[open]');
  assert.equal(await dlg.locator('h2').innerText(), '取消对局');
  assert.deepEqual(await dlg.locator('button').allInnerTexts(), ['继续下棋', '取消对局']);
  await dlg.locator('button', { hasText: '继续下棋' }).tap();
  await dlg.waitFor({ state: 'detached' });
  assert.match(await page.locator('[data-test=status]').innerText(), /轮到你|等待/);
  await page.locator('[data-test=abort]').tap();
  await dlg.locator('button', { hasText: '取消对局' }).tap();
  const text = await endingText(page);
  assert.match(text, /对局已取消/);
  assert.match(text, /你在双方都走棋之前取消了对局，不算输赢/);
  assert.doesNotMatch(text, /再来一盘/);
  // The seeker is told who called it off: the side of the phone's player.
  const by = await page.locator('.player.bottom .pinfo').getAttribute('data-color');
  const side = by === 'red' ? 'Red' : 'Blue';
  assert.match(await endingText(seeker.page), new RegExp(`Game aborted\\s+${side} called the game off before both sides had moved: nobody wins or loses`));
  assert.deepEqual(page.errors, []);
  assert.deepEqual(seeker.page.errors, []);
});

test('an abort question closes once both sides have moved; a dialog gives the focus back to the button drawn anew; the resume link goes with the game', async () => {
  const { page } = await openPlayer(browser, { locale: 'en-US' });
  await page.click('[data-test=start-hotseat]');
  const id = await gameId(page);
  await page.waitForSelector('.board .sq.movable');
  await page.goto(`${BASE}/#/`);
  await page.locator(`[data-test=resume][data-game="${id}"]`).waitFor();
  await page.goto(`${BASE}/#/g/${encodeURIComponent(id)}`);
  await page.waitForSelector('.board .sq.movable');
  // Moves that arrive while a question is open (as from the player's other tab).
  const send = async (ply, move) => {
    await page.evaluate(([g, p, m]) => window.jungle.socket.send({ t: 'move', game: g, ply: p, move: m }), [id, ply, move]);
    await waitMoves(page, ply + 1);
  };
  const focused = () => page.evaluate(() => document.activeElement?.dataset?.test || document.activeElement?.tagName);
  const dlg = page.locator('dialog.modal[open]');
  await page.click('[data-test=abort]');
  await dlg.getByText('Abort this game?').waitFor();
  // One side has moved: aborting is still possible, the question stays.
  await send(0, 'g3g4');
  assert.equal(await dlg.count(), 1);
  // Both have: it closes, says why, and nothing is sent (the game goes on).
  await send(1, 'a7a6');
  await dlg.waitFor({ state: 'detached' });
  await page.locator('.toast.error', { hasText: 'A game can only be aborted' }).first().waitFor();
  assert.equal(await page.locator('[data-test=abort]').count(), 0);
  // The Abort button it was asked from is gone: the focus goes to Resign beside it.
  assert.equal(await focused(), 'resign');
  // Resign asked by keyboard: the question opens on Keep playing (Enter twice does not
  // resign); a move redraws the buttons meanwhile; Esc: back on the new Resign.
  await page.keyboard.press('Enter');
  await dlg.getByText('Do you really want to resign?').waitFor();
  assert.equal(await focused(), 'confirm-no');
  await send(2, 'e3d3');
  await page.keyboard.press('Escape');
  await dlg.waitFor({ state: 'detached' });
  assert.equal(await focused(), 'resign');
  await page.evaluate(() => new Promise((r) => setTimeout(r, 300)));
  assert.match(await page.locator('[data-test=status]').innerText(), /Blue's turn/);
  // Ended, the game is no longer offered to resume.
  await page.keyboard.press('Enter');
  await dlg.locator('[data-test=confirm-yes]').click();
  await endingText(page);
  await page.goto(`${BASE}/#/`);
  await page.waitForSelector('[data-test=start-ai]');
  assert.equal(await page.locator('[data-test=resume]').count(), 0);
  assert.deepEqual(page.errors, []);
});

test('on a phone the log out question, closed, leaves the menu open and the focus on its item', async () => {
  const { page } = await openPlayer(browser, { locale: 'en-US', viewport: { width: 360, height: 640 }, isMobile: true, hasTouch: true });
  await register(page, uniqueName('phone'));
  const menu = page.locator('[data-test=menu]');
  const dlg = page.locator('dialog.modal[open]');
  const focused = () => page.evaluate(() => document.activeElement?.dataset?.test || document.activeElement?.tagName);
  await menu.tap();
  for (const close of [() => page.keyboard.press('Escape'), () => dlg.locator('button', { hasText: 'Stay logged in' }).tap()]) {
    await page.locator('[data-test=logout]').tap();
    await dlg.waitFor();
    assert.equal(await focused(), 'confirm-no');
    await close();
    await dlg.waitFor({ state: 'detached' });
    assert.equal(await menu.getAttribute('aria-expanded'), 'true');
    assert.equal(await focused(), 'logout');
  }
  // Esc once more closes the menu itself.
  await page.keyboard.press('Escape');
  assert.equal(await menu.getAttribute('aria-expanded'), 'false');
  assert.deepEqual(page.errors, []);
});

test('help is a tap away from every screen, on a phone without opening the menu, and by keyboard', async () => {
  const { page } = await openPlayer(browser, { locale: 'zh-CN', viewport: { width: 360, height: 640 }, isMobile: true, hasTouch: true });
  const help = page.locator('#header [data-test=help]');
  const screens = [
    ['#/', '[data-test=start-ai]'], ['#/lobby', '#seek-tc'], ['#/leaderboard', 'table.games'], ['#/analysis', '#fen-input'], ['#/login', '[data-test=register-form]'],
  ];
  for (const [hash, ready] of screens) {
    await page.goto(`${BASE}/${hash}`);
    await page.locator(ready).waitFor();
    // In the header's one row, beside the menu button (the menu stays closed).
    const bb = await help.boundingBox();
    const header = await page.locator('#header').boundingBox();
    assert.ok(bb && bb.y >= header.y && bb.y + bb.height <= header.y + header.height && bb.x + bb.width <= 360, `${hash}: help at ${JSON.stringify(bb)}`);
    assert.ok(bb.width >= 36 && bb.height >= 36, `${hash}: the help link is too small to tap: ${JSON.stringify(bb)}`);
    assert.ok(header.height <= 56, `${hash}: the header is ${header.height}px high`);
    assert.equal(await page.locator('[data-test=menu]').getAttribute('aria-expanded'), 'false');
  }
  // From a game too.
  await page.goto(`${BASE}/#/`);
  await page.locator('[data-test=start-hotseat]').tap();
  await gameId(page);
  assert.equal(await help.getAttribute('aria-label'), '帮助');
  await help.tap();
  await page.waitForURL((u) => u.hash === '#/help');
  // Its heading is the link's name.
  await page.locator('main h1', { hasText: '帮助' }).waitFor();
  assert.equal(await page.locator('main h1').innerText(), '帮助');
  assert.equal(await page.title(), '帮助 · 斗兽棋');
  assert.equal(await help.getAttribute('aria-current'), 'page');
  const text = await page.locator('main').innerText();
  for (const said of ['先点一下自己的动物', '7-3 规则', '100 个回合', '1500', '3.00',
    // The rat and the elephant as RULES §5.2 has them: not from the water.
    '老鼠在河里时不能吃岸上的大象',
    // 17-5 has its trap exemption too (RULES §7.2).
    '除非这 17 步里它进过陷阱',
    // Playing online: the move time and its timeouts, a lost connection, what changes no score.
    '超时 1/3', '第 4 次超时判负', '断线后要及时回来', '和棋不改变积分', '10 回合以内结束的对局也不计分',
    // The coins, escapes and disconnects every profile shows (RULES §8.3, §8.5).
    '积分、级别、等级分和金币', '1000 金币', '扣 10 金币', '逃跑次数：', '断线次数：']) {
    assert.ok(text.includes(said), `the help does not say ${said}`);
  }
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= 360, 'the help page scrolls sideways');
  await page.locator('.help .board .piece').first().waitFor();
  await shot(page, 'phone-help');
  // On a wide screen it says its name; the keyboard reaches and follows it.
  await page.setViewportSize({ width: 1200, height: 900 });
  await page.goto(`${BASE}/#/leaderboard`);
  await page.locator('table.games').waitFor();
  assert.ok(await help.locator('.help-text').isVisible(), 'the help link does not say its name on a wide screen');
  await help.focus();
  await page.keyboard.press('Enter');
  await page.waitForURL((u) => u.hash === '#/help');
  await page.selectOption('#lang-select', 'en');
  await page.locator('main h1', { hasText: 'Help' }).waitFor();
  assert.match(await page.locator('main').innerText(), /though not from the water[\s\S]*unless it went into a trap in those 17 moves[\s\S]*Playing online/);
  await page.selectOption('#lang-select', 'zh-Hant');
  await page.locator('main h1', { hasText: '說明' }).waitFor();
  await page.selectOption('#lang-select', 'en');
  assert.match(await page.locator('[data-test=stats-legend]').innerText(), /everyone starts at 1500.*the smaller the number after ±, the surer the estimate/s);
  assert.match(await page.locator('[data-test=stats-legend]').innerText(), /starts with 1000.*costs 10 coins.*Games left: .*Disconnects: /s);
  assert.deepEqual(page.errors, []);
});

/**
 * What the toasts cover of what must stay readable: the header, the status line (above the
 * board on a phone, beside it on a desktop), the player's own bar and the board's bottom rank.
 */
async function toastOverlaps(page) {
  return page.evaluate(() => {
    const boxes = [...document.querySelectorAll('#toasts .toast')].map((el) => el.getBoundingClientRect());
    const meet = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    const out = [];
    for (const [name, sel] of [['header', '#header'], ['status line', '.status-mini'], ['status', '.side-col .status'],
      ['own bar', '.player.bottom'], ['bottom rank', '.board .row:last-child']]) {
      const r = document.querySelector(sel).getBoundingClientRect();
      if (r.width && r.height && boxes.some((b) => meet(b, r))) out.push(name);
    }
    return { count: boxes.length, out };
  });
}

test('toasts never cover the header, the status or result line, the player\'s own bar or the board\'s bottom rank, on a phone or a desktop', async () => {
  for (const [viewport, mobile] of [[{ width: 360, height: 640 }, true], [{ width: 390, height: 844 }, true], [{ width: 1280, height: 800 }, false]]) {
    const { page, context } = await openPlayer(browser, { locale: 'zh-CN', viewport, isMobile: mobile, hasTouch: mobile });
    await page.selectOption('#ai-tc', 'rapid');
    await page.click('[data-test=start-ai]');
    await gameId(page);
    await page.locator('.board [data-sq="c3"].movable').waitFor();
    // Two toasts at once: a move refused (into the water), then a hint.
    await page.locator('.board [data-sq="c3"]').click();
    await page.locator('.board [data-sq="c4"]').click();
    await page.locator('#toasts .toast.error').waitFor();
    await page.click('[data-test=hint]');
    await page.locator('#toasts .toast', { hasText: '提示' }).waitFor();
    const where = await toastOverlaps(page);
    assert.equal(where.count, 2);
    assert.deepEqual(where.out, [], `at ${viewport.width}×${viewport.height}`);
    // Taps go through a toast to the board under it.
    assert.equal(await page.locator('#toasts .toast').first().evaluate((t) => {
      const r = t.getBoundingClientRect();
      return Boolean(document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)?.closest('.board'));
    }), true);
    if (mobile) await shot(page, `phone-toast-${viewport.width}`);
    // The game over, its result line stays readable under a toast (one from the server).
    await page.click('[data-test=resign]');
    await page.locator('dialog.modal[open] [data-test=confirm-yes]').click();
    await endingText(page);
    await page.locator('dialog.modal[open] button.primary').click();
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.evaluate(() => window.jungle.socket.ws.dispatchEvent(new MessageEvent('message', { data: JSON.stringify({ t: 'error', code: 'rate_limited', message: 'slow down' }) })));
    await page.locator('#toasts .toast.error').waitFor();
    assert.match(await page.locator(mobile ? '.status-mini' : '.side-col .status').innerText(), /^蓝方胜：你认输了$/);
    assert.deepEqual((await toastOverlaps(page)).out, [], `at ${viewport.width}×${viewport.height}, the game over`);
    assert.deepEqual(page.errors, []);
    await context.close();
  }
});

test('inviting a friend is on the home screen, worded unlike the lobby\'s open seek, and the game opens when the friend accepts', async () => {
  const { page } = await openPlayer(browser, { locale: 'zh-CN', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const card = page.locator('[data-test=invite-card]');
  assert.equal(await card.locator('h2').innerText(), '邀请好友（发链接）');
  assert.match(await card.innerText(), /发给朋友/);
  assert.equal(await card.locator('[data-test=create-challenge]').innerText(), '生成邀请链接');
  await card.locator('#ch-color').selectOption('red');
  await card.locator('[data-test=create-challenge]').tap();
  const link = await card.locator('[data-test=challenge-link]').inputValue();
  assert.match(link, /#\/c\/[^/]+$/);
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= 390, 'the home screen scrolls sideways');
  const friend = await openPlayer(browser, { locale: 'zh-CN' });
  await friend.page.goto(link);
  await friend.page.locator('[data-test=challenge-color]', { hasText: '蓝方' }).waitFor();
  await friend.page.click('[data-test=accept-challenge]');
  const id = await gameId(page);
  assert.equal(await gameId(friend.page), id);
  assert.equal(await page.locator('.player.bottom .pinfo').getAttribute('data-color'), 'red');
  // The lobby's open seek says something else: no 邀请 (invitation) in it.
  await page.goto(`${BASE}/#/lobby`);
  const seekCard = page.locator('section.card', { has: page.locator('[data-test=create-seek]') });
  await seekCard.waitFor();
  const seekText = await seekCard.innerText();
  assert.match(seekText, /公开找对手/);
  assert.doesNotMatch(seekText, /邀请/);
  assert.doesNotMatch(await page.locator('table.seeks').innerText(), /邀请/);
  assert.equal(await page.locator('[data-test=invite-card] h2').innerText(), '邀请好友（发链接）');
  assert.deepEqual(page.errors, []);
  assert.deepEqual(friend.page.errors, []);
  await friend.context.close();
});

test('the home screen\'s time controls fit their narrow cards in English, the limit per move said under them', async () => {
  const { page, context } = await openPlayer(browser, { locale: 'en-US', viewport: { width: 1280, height: 900 } });
  const sel = page.locator('#ch-tc');
  assert.equal(await sel.inputValue(), 'rapid');
  assert.equal(await page.locator('#ch-tc-note').innerText(), '60s per move');
  assert.equal(await sel.getAttribute('aria-describedby'), 'ch-tc-note');
  // No clock, no line under it; a choice says its own.
  assert.ok(await page.locator('#ai-tc-note').isHidden());
  await page.selectOption('#ai-tc', 'classical');
  assert.equal(await page.locator('#ai-tc-note').innerText(), '120s per move');
  // The words of every choice fit the closed select, which cuts what does not.
  const cut = await page.evaluate(() => {
    const out = [];
    for (const s of document.querySelectorAll('#ai-tc, #hs-tc, #ch-tc')) {
      const cs = getComputedStyle(s);
      const room = s.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 20;
      for (const o of s.options) {
        const span = document.body.appendChild(Object.assign(document.createElement('span'), { textContent: o.text }));
        span.style.font = cs.font;
        span.style.whiteSpace = 'nowrap';
        if (span.offsetWidth > room) out.push(`${s.id}: ${o.text}`);
        span.remove();
      }
    }
    return out;
  });
  assert.deepEqual(cut, []);
  assert.deepEqual(page.errors, []);
  await context.close();
});
