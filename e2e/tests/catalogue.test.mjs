// Static checks of the client that need no browser: every message key the code uses exists in
// all three languages with the same parameters, and the page stays light.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const web = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'web');
globalThis.localStorage = { getItem: () => null, setItem: () => {} };
globalThis.navigator = { languages: ['en-US'] };
// i18n.js fetches web/messages.json next to it; Node's fetch reads no files, so serve it here.
globalThis.fetch = async (url) => {
  const body = fs.readFileSync(new URL(url), 'utf8');
  return { ok: true, status: 200, json: async () => JSON.parse(body) };
};
const { CATALOGUE, t, setLang, whyText, illegalText, problemText, jfenText, errText, endText } = await import(path.join(web, 'js', 'i18n.js'));
globalThis.document = { documentElement: {} };
const { fmtTc } = await import(path.join(web, 'js', 'ui.js'));

function sources() {
  return fs.readdirSync(path.join(web, 'js')).filter((f) => f.endsWith('.js'))
    .map((f) => fs.readFileSync(path.join(web, 'js', f), 'utf8')).join('\n');
}

test('every literal message key used by the code is in the catalogue', () => {
  const used = new Set([...sources().matchAll(/\bt\('([a-z_A-Z]+)'/g)].map((m) => m[1]));
  assert.ok(used.size > 100, `found only ${used.size} keys: the scan is broken`);
  const missing = [...used].filter((k) => !(k in CATALOGUE));
  assert.deepEqual(missing, []);
});

test('every dynamic key family has all its members', () => {
  const need = [
    ...'ELTPDWCR'.split('').map((r) => `animal_${r}`),
    ...['den', 'wipeout', 'no_moves', 'draw_plies', 'time', 'timeouts', 'resign', 'left', 'disconnect', 'agreed', 'aborted'].map((r) => `reason_${r}`),
    ...['water', 'trap_red', 'trap_blue', 'den_red', 'den_blue'].map((x) => `terrain_${x}`),
    ...['open', 'connecting', 'closed'].map((x) => `conn_${x}`),
    ...['not_found', 'unauthorized', 'rate_limited', 'not_your_turn', 'not_your_game', 'spectator', 'wrong_ply', 'illegal_move', 'game_over', 'bad_request', 'too_large', 'bad_json',
      'abort_too_late', 'no_draw_offer', 'takeback_ai_only', 'nothing_to_take_back', 'game_not_over', 'already_rematched', 'aborted_no_rematch', 'rematch_closed', 'own_offer', 'challenger_offline', 'opponent_offline', 'too_many_games', 'shutting_down']
      .map((c) => `err_${c}`),
    // The browser's own JFEN reader (web/js/jfen.js) and the server's position problems.
    ...['fields', 'ranks', 'char', 'rank_files', 'turn', 'counters', 'move_number_zero', 'too_long'].map((c) => `jfen_${c}`),
    ...['duplicate', 'own_den', 'in_water', 'empty', 'both_won', 'move_number_zero'].map((c) => `position_${c}`),
    'red', 'blue', 'random_color', 'login', 'register', 'move_empty', 'move_syntax', 'move_illegal', 'move_no_piece', 'move_same_square', 'move_no_change',
    'end_aborted', 'end_aborted_you', 'end_aborted_by', 'end_wipeout_yours',
  ];
  assert.deepEqual(need.filter((k) => !(k in CATALOGUE)), []);
});

test('the catalogue is the shared file, and the terminal client\'s entries are in it', () => {
  const file = JSON.parse(fs.readFileSync(path.join(web, 'messages.json'), 'utf8'));
  assert.deepEqual(Object.keys(CATALOGUE), Object.keys(file));
  assert.ok(Object.keys(file).filter((k) => k.startsWith('tui_')).length > 20);
  // `jungle play`'s command line (its help and refusals) too, and no second catalogue beside it.
  assert.ok(Object.keys(file).filter((k) => k.startsWith('cli_play_')).length > 30);
  assert.equal(fs.existsSync(path.join(web, '..', 'crates', 'jungle-tui', 'messages.json')), false);
});

test('every WebSocket error code doc/protocol.md lists has its own text', () => {
  const doc = fs.readFileSync(path.join(web, '..', 'doc', 'protocol.md'), 'utf8');
  const list = doc.split('Errors (`code`):')[1].split('HTTP error codes')[0];
  const codes = [...list.matchAll(/`(\w+)`/g)].map((m) => m[1]);
  assert.ok(codes.includes('shutting_down') && codes.length >= 20, codes.join(','));
  assert.deepEqual(codes.filter((c) => !(`err_${c}` in CATALOGUE)), []);
});

test('a refusal while the server restarts, a lapsed draw offer and changes still to come read in each language', () => {
  const e = { code: 'shutting_down', message: 'the server is restarting: nothing was changed, send it again once it is back' };
  for (const [lang, restart, lapsed, pending] of [
    ['en', /restarting: nothing was changed\. Try again once it is back/, /your draw offer has lapsed/, /will show here once it is stored/],
    ['zh-Hans', /服务器正在重启.*再试一次/, /^棋局已继续，你的提和已失效$/, /正在保存结果/],
    ['zh-Hant', /伺服器正在重新啟動.*再試一次/, /^棋局已繼續，你的提和已失效$/, /正在儲存結果/],
  ]) {
    setLang(lang);
    assert.match(errText(e), restart);
    assert.match(t('draw_lapsed'), lapsed);
    assert.match(t('changes_pending'), pending);
  }
  setLang('zh-Hans');
});

test('each entry has three non-empty translations with the same parameters', () => {
  for (const [key, entry] of Object.entries(CATALOGUE)) {
    assert.equal(entry.length, 3, key);
    const params = entry.map((s) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort().join(','));
    for (const s of entry) assert.ok(typeof s === 'string' && s.trim().length > 0, key);
    assert.equal(new Set(params).size, 1, `parameters differ in ${key}: ${params.join(' | ')}`);
  }
});

test('parameters are filled and languages switch', () => {
  setLang('en');
  assert.equal(t('timeouts_n', { n: 2 }), 'Timeouts 2/3');
  setLang('zh-Hant');
  assert.equal(t('result_wins', { side: t('red') }), '紅方勝');
  setLang('zh-Hans');
  assert.equal(t('result_wins', { side: t('blue') }), '蓝方胜');
  assert.equal(t('no_such_key_here', {}, 'fallback'), 'fallback');
});

test('why a move is not allowed reads in each language, facts named', () => {
  const why = { code: 'rule_7_3', animal: 'T', to: 'c4', times: '3' };
  setLang('zh-Hans');
  assert.equal(whyText(why), '7-3 规则：虎在本方最近 7 步里已经 3 次走进 c4');
  setLang('zh-Hant');
  assert.equal(whyText({ code: 'not_your_animal', animal: 'R', from: 'a7', owner: 'blue', turn: 'red' }),
    'a7 的鼠是藍方的，現在輪到紅方');
  setLang('en');
  assert.equal(whyText({ code: 'may_not_capture', animal: 'C', victim: 'D', to: 'c2' }),
    'the cat may not capture the dog on c2');
  assert.equal(illegalText({ code: 'water_only_rat' }), 'That move is not allowed: only the rat may enter the water');
  assert.equal(illegalText({ code: 'brand_new' }), 'That move is not allowed.');
  assert.equal(whyText({ code: 'brand_new' }), null);
  assert.equal(whyText(null), null);
  // Facts that are not an animal letter or a side are shown as sent, never looked up.
  assert.equal(whyText({ code: 'no_such_animal', color: 'app_name', animal: 'Q' }), 'app_name has no Q on the board');
  // Every code doc/protocol.md lists has its entry.
  const doc = fs.readFileSync(path.join(web, '..', 'doc', 'protocol.md'), 'utf8');
  const list = doc.split('`code` one of ')[1].split(', and the facts')[0];
  const codes = [...list.matchAll(/`(\w+)`/g)].map((m) => m[1]);
  assert.ok(codes.length >= 16, codes.join(','));
  assert.deepEqual(codes.filter((c) => !(`why_${c}` in CATALOGUE)), []);
});

test('what makes a position invalid reads in each language, facts named', () => {
  const problems = [
    { code: 'duplicate', color: 'red', animal: 'L', n: '2', squares: 'a1, b4' },
    { code: 'in_water', color: 'red', animal: 'L', square: 'b4' },
  ];
  setLang('zh-Hans');
  assert.equal(problemText(problems[0]), '红方有 2 个狮（a1, b4）：每方每种动物只能有一个');
  assert.equal(errText({ code: 'bad_position', message: 'invalid position: …', problems }),
    '局面有误：红方有 2 个狮（a1, b4）：每方每种动物只能有一个；红方的狮在 b4 的水里（只有鼠能下水）');
  setLang('zh-Hant');
  assert.equal(problemText({ code: 'own_den', color: 'blue', animal: 'D', square: 'd9' }), '藍方的狗在自己的獸穴 d9 上');
  setLang('en');
  assert.equal(problemText(problems[1]), "Red's lion is on b4, in the water (only rats swim)");
  // A problem the catalogue does not know: the server's English message, as for any error.
  assert.equal(problemText({ code: 'brand_new' }), null);
  assert.equal(errText({ code: 'bad_position', message: 'invalid position: news', problems: [{ code: 'brand_new' }] }),
    'Something went wrong (invalid position: news).');
  // Every code doc/protocol.md lists has its entry.
  const doc = fs.readFileSync(path.join(web, '..', 'doc', 'protocol.md'), 'utf8');
  const list = doc.split('`bad_position`, with `problems`')[1].split('`code` one of ')[1].split(', and the facts')[0];
  const codes = [...list.matchAll(/`(\w+)`/g)].map((m) => m[1]);
  assert.equal(codes.length, 6, codes.join(','));
  assert.deepEqual(codes.filter((c) => !(`position_${c}` in CATALOGUE)), []);
});

test('what makes a text not JFEN reads in each language, facts named', () => {
  // The server's `bad_jfen` answer, as the rules library words it (doc/protocol.md).
  const e = { code: 'bad_jfen', message: 'invalid JFEN (board field, at character 4): 2 ranks, expected 9', syntax: { code: 'ranks', n: '2' } };
  setLang('zh-Hans');
  assert.equal(errText(e), '局面有误：棋盘应有 9 行，用 / 分开（这里有 2 行）');
  setLang('zh-Hant');
  assert.equal(jfenText({ code: 'turn', found: 'red' }), '走棋方應為 r（紅方）或 b（藍方），不是「red」');
  setLang('en');
  assert.equal(jfenText({ code: 'too_long', max: '256' }), 'too long to be a JFEN (at most 256 bytes)');
  // A code the catalogue does not know: the server's English message.
  assert.equal(errText({ ...e, syntax: { code: 'brand_new' } }), `Something went wrong (${e.message}).`);
  // Every code doc/protocol.md lists has its entry.
  const doc = fs.readFileSync(path.join(web, '..', 'doc', 'protocol.md'), 'utf8');
  const list = doc.split('`bad_jfen`, with `syntax`')[1].split('`code` one of ')[1].split(', and the facts')[0];
  const codes = [...list.matchAll(/`(\w+)`/g)].map((m) => m[1]);
  assert.equal(codes.length, 8, codes.join(','));
  assert.deepEqual(codes.filter((c) => !(`jfen_${c}` in CATALOGUE)), []);
});

test('time controls read as minutes+increment, a clock of part of a minute as m:ss', () => {
  setLang('en');
  assert.equal(fmtTc({ clock_s: 600, inc_s: 5, move_s: 60 }), '10+5 · 60s per move');
  assert.equal(fmtTc({ clock_s: 12, inc_s: 0, move_s: 0 }), '0:12+0');
  assert.equal(fmtTc({ clock_s: 90, inc_s: 2, move_s: 0 }), '1:30+2');
  assert.equal(fmtTc({ clock_s: 0, inc_s: 0, move_s: 0 }), 'Unlimited');
});

test('the page is well under 300 KB before images', () => {
  // As the browser gets it: the server serves messages.json compact and without the terminal's
  // own entries (crates/jungle-server/src/web.rs, `browser_catalogue`), which no page uses.
  const terminalOnly = (k) => k.startsWith('tui_') || k.startsWith('cli_');
  const catalogue = JSON.parse(fs.readFileSync(path.join(web, 'messages.json'), 'utf8'));
  const served = Object.fromEntries(Object.entries(catalogue).filter(([k]) => !terminalOnly(k)));
  assert.deepEqual([...sources().matchAll(/\b(tui_|cli_)[a-z_]+/g)].map((m) => m[0]), []);
  let total = 0;
  const walk = (dir) => {
    for (const f of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, f.name);
      if (f.isDirectory()) walk(p);
      else if (p === path.join(web, 'messages.json')) total += Buffer.byteLength(JSON.stringify(served));
      else if (/\.(js|css|html|svg|json)$/.test(f.name)) total += fs.statSync(p).size;
    }
  };
  walk(web);
  assert.ok(total > 20000, `web/ looks empty (${total} bytes)`);
  // The requirement is "well under 300 KB before images"; this keeps a margin below it.
  assert.ok(total < 220 * 1024, `the page is ${total} bytes`);
});

test('the end of a game is said with its subject, from the viewer\'s side, in each language', () => {
  const den = { winner: 'blue', reason: 'den' };
  setLang('zh-Hans');
  assert.equal(endText(den, { you: 'red', animal: 'R' }), '蓝方的鼠走进了你的兽穴');
  assert.equal(endText(den, { you: 'blue', animal: 'R' }), '你的鼠走进了红方的兽穴！');
  assert.equal(endText(den, { you: 'both', animal: 'R' }), '蓝方的鼠走进了红方的兽穴');
  assert.equal(endText({ winner: 'blue', reason: 'resign' }, { you: null }), '红方认输');
  assert.equal(endText({ winner: 'blue', reason: 'resign' }, { you: 'red' }), '你认输了');
  assert.equal(endText({ winner: 'red', reason: 'time' }, { you: 'blue' }), '你的时间用完了');
  assert.equal(endText({ winner: 'red', reason: 'wipeout' }, { you: 'red' }), '你吃光了蓝方的动物！');
  assert.equal(endText({ winner: 'red', reason: 'wipeout' }, { you: 'blue' }), '你的动物全被吃光了');
  assert.equal(endText({ winner: 'red', reason: 'wipeout' }, { you: null }), '蓝方的动物全被吃光了');
  assert.equal(endText({ winner: 'red', reason: 'timeouts' }, { you: 'blue' }), '你已经 4 次超过每步时限，判负');
  // An abort, said to the one who asked for it, and to everyone else.
  assert.equal(endText({ winner: null, reason: 'aborted' }, { you: 'red', abortedByYou: true }), '你在双方都走棋之前取消了对局，不算输赢');
  assert.equal(endText({ winner: null, reason: 'aborted' }, { you: 'blue' }), '对局被取消了，不算输赢');
  // `ended` says who aborted: the other side is told it, and the side that did is "you".
  assert.equal(endText({ winner: null, reason: 'aborted' }, { you: 'blue', abortedBy: 'red' }), '红方在双方都走棋之前取消了对局，不算输赢');
  assert.equal(endText({ winner: null, reason: 'aborted' }, { you: 'red', abortedBy: 'red' }), '你在双方都走棋之前取消了对局，不算输赢');
  assert.equal(endText({ winner: 'red', reason: 'no-moves' }, { you: 'blue' }), '轮到你走，可是你一步也走不了，判负');
  assert.equal(endText({ winner: null, reason: 'draw-plies' }, { rules: 'standard' }), '双方连续 100 个回合谁也没吃到谁，按规则算和棋');
  assert.equal(endText({ winner: null, reason: 'draw-plies' }, { rules: 'no_7_3,draw_plies=60' }), '双方连续 30 个回合谁也没吃到谁，按规则算和棋');
  assert.equal(endText({ winner: null, reason: 'agreed' }), '双方同意和棋');
  setLang('zh-Hant');
  assert.equal(endText(den, { you: 'red', animal: 'R' }), '藍方的鼠走進了你的獸穴');
  assert.equal(endText({ winner: 'red', reason: 'resign' }, { you: 'both' }), '藍方認輸');
  assert.equal(endText({ winner: 'blue', reason: 'timeouts' }, { you: 'red' }), '你已經 4 次超過每步時限，判負');
  assert.equal(t('timeouts_out', { n: 4 }), '超時 4 次，判負');
  setLang('en');
  assert.equal(endText(den, { you: 'red', animal: 'R' }), "Blue's rat entered your den");
  assert.equal(endText({ winner: 'red', reason: 'den' }, { you: 'red', animal: 'P' }), "Your leopard entered Blue's den!");
  assert.equal(endText({ winner: 'blue', reason: 'resign' }, { you: 'blue' }), 'Red resigned');
  assert.equal(endText({ winner: 'blue', reason: 'disconnect' }, { you: 'blue' }), 'Red lost the connection and did not come back in time, and so loses');
  assert.equal(endText({ winner: 'red', reason: 'wipeout' }, {}), "Every one of Blue's animals was captured");
  // Nothing known of the animal, or a reason the catalogue does not know: the short words.
  assert.equal(endText(den, { you: 'red' }), t('reason_den'));
  // Sentence case, as every end sentence.
  assert.equal(endText({ winner: null, reason: 'aborted' }), 'The game was called off: nobody wins or loses');
  assert.equal(endText({ winner: null, reason: 'aborted' }, { abortedByYou: true }), 'You called the game off before both sides had moved: nobody wins or loses');
  assert.equal(endText({ winner: null, reason: 'aborted' }, { abortedBy: 'blue' }), 'Blue called the game off before both sides had moved: nobody wins or loses');
  assert.equal(endText({ winner: 'blue', reason: 'wipeout' }, { you: 'blue' }), "You captured every one of Red's animals!");
  // Every documented reason that has a loser has both its sentences, each naming the side.
  for (const r of ['den', 'wipeout', 'no_moves', 'time', 'timeouts', 'resign', 'left', 'disconnect']) {
    assert.ok(`end_${r}` in CATALOGUE, r);
    if (r !== 'den') assert.ok(`end_${r}_you` in CATALOGUE, r);
    for (const lang of ['zh-Hans', 'zh-Hant', 'en']) {
      setLang(lang);
      const said = endText({ winner: 'red', reason: r.replace('_', '-') }, { you: null, animal: 'E' });
      assert.ok(said.includes(t('blue')), `${lang} ${r}: ${said}`);
      assert.notEqual(said, t(`reason_${r}`), `${lang} ${r}`);
    }
  }
  setLang('zh-Hans');
});

test('the short-game note counts a game of exactly 10 rounds in', () => {
  setLang('zh-Hans');
  assert.equal(t('short_game_note'), '10 回合以内结束的对局不计分。');
  setLang('zh-Hant');
  assert.equal(t('short_game_note'), '10 回合以內結束的對局不計分。');
  setLang('en');
  assert.equal(t('short_game_note'), 'Games that end within 10 rounds change no score.');
  setLang('zh-Hans');
});

test('the game-action refusals of offers read in each language', () => {
  for (const [lang, own, offline] of [
    ['en', /your own offer/, /not online now/],
    ['zh-Hans', /你自己发出的邀请/, /对方现在不在线/],
    ['zh-Hant', /你自己發出的邀請/, /對方目前不在線上/],
  ]) {
    setLang(lang);
    assert.match(errText({ code: 'own_offer', message: 'that is your own offer' }), own);
    assert.match(errText({ code: 'opponent_offline', message: 'the other player is not online now' }), offline);
  }
});

test('English texts are free of Chinese examples (but for the terminal help\'s board marks)', () => {
  const chinese = Object.entries(CATALOGUE).filter(([k, e]) => /[\u3400-\u9fff]/.test(e[2]) && k !== 'tui_help_body').map(([k]) => k);
  assert.deepEqual(chinese, []);
  setLang('en');
  assert.equal(t('move_syntax'), 'That is not a move. Examples: g3g4, Rg4.');
  setLang('zh-Hans');
  assert.match(t('move_syntax'), /鼠g4/);
});

test('an error without its own text is a general line: the server\'s English words follow only on an English page', () => {
  const e = { code: 'illegal_move', message: 'cannot read move `g1g1` (at character 3): a move must change squares' };
  const strange = { code: 'brand_new', message: 'something new' };
  const bad = { code: 'bad_request', message: 'bad move text' };
  for (const [lang, move, generic, request] of [
    ['zh-Hans', '这步棋不能走。', '出了点问题，没能完成。', '服务器没有接受这个请求。'],
    ['zh-Hant', '這步棋不能走。', '出了點問題，沒能完成。', '伺服器沒有接受這個請求。'],
    ['en', `That move is not allowed (${e.message}).`, 'Something went wrong (something new).', 'The server did not accept that (bad move text).'],
  ]) {
    setLang(lang);
    assert.equal(errText(e), move);
    assert.equal(errText(strange), generic);
    assert.equal(errText(bad), request);
  }
  // No catalogue text keeps a place for the server's words but the ones that say a translated why.
  const withMsg = Object.keys(CATALOGUE).filter((k) => k.startsWith('err_') && CATALOGUE[k][0].includes('{msg}'));
  assert.deepEqual(withMsg, ['err_illegal_move']);
  setLang('zh-Hans');
});

test('one term for a draw offer (提和), and English says invitation as the Chinese says 邀请', () => {
  for (const [key, entry] of Object.entries(CATALOGUE)) {
    assert.doesNotMatch(entry[0] + entry[1], /求和|和棋提[议議]|提[议議]和棋/, key);
    if (!key.startsWith('cli_')) assert.doesNotMatch(entry[2], /challenge/i, key);
  }
});
