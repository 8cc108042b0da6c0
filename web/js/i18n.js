// The message catalogue's reader: every word on screen, in 简体中文, 繁體中文 and English.
// The language is taken from the browser, can be switched, and is remembered.

/** Languages offered: [code, name in that language]. */
export const LANGS = [['zh-Hans', '简体中文'], ['zh-Hant', '繁體中文'], ['en', 'English']];

// The catalogue itself is `web/messages.json`, shared with the terminal client (which embeds it
// at compile time): each entry is [简体中文, 繁體中文, English]; `{name}` marks a parameter. It is
// loaded once, before any module that shows text runs (they all import this one).
const M = await loadCatalogue();

async function loadCatalogue() {
  try {
    const res = await fetch(new URL('../messages.json', import.meta.url));
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    return await res.json();
  } catch (e) {
    // Without the catalogue every text falls back to its key: the page still works.
    console.error('cannot load the message catalogue:', e);
    return {};
  }
}

const INDEX = { 'zh-Hans': 0, 'zh-Hant': 1, en: 2 };
const listeners = new Set();

/** The language the browser asks for, mapped onto the three offered. */
export function browserLang() {
  for (const l of navigator.languages || [navigator.language || 'en']) {
    const s = l.toLowerCase();
    if (/^zh-(tw|hk|mo|hant)/.test(s)) return 'zh-Hant';
    if (s.startsWith('zh')) return 'zh-Hans';
    if (s.startsWith('en')) return 'en';
  }
  return 'en';
}

let current = localStorage.getItem('jungle.lang');
if (!(current in INDEX)) current = browserLang();

/** The current language code. */
export function lang() {
  return current;
}

/** Switches the language, remembers it and tells listeners. */
export function setLang(code) {
  if (!(code in INDEX)) return;
  current = code;
  localStorage.setItem('jungle.lang', code);
  document.documentElement.lang = code;
  for (const fn of listeners) fn(code);
}

/** Calls `fn` after every language switch. */
export function onLangChange(fn) {
  listeners.add(fn);
}

/** A message in the current language with `{param}`s filled in; `fallback` (or the key) if unknown. */
export function t(key, params = {}, fallback) {
  const entry = M[key];
  if (!entry) return fallback !== undefined ? fallback : key;
  let s = entry[INDEX[current]];
  for (const [k, v] of Object.entries(params || {})) s = s.split(`{${k}}`).join(String(v));
  return s;
}

/**
 * Why a move is not allowed, from the server's `why` ({code, facts}: doc/protocol.md) in the
 * current language: the `why_<code>` entry with animals and sides named; null for a code the
 * catalogue does not know.
 */
export function whyText(why) {
  return codedText('why_', why);
}

/**
 * What makes a position invalid, from one of the server's `problems` ({code, facts}:
 * doc/protocol.md) in the current language: the `position_<code>` entry; null for a code the
 * catalogue does not know.
 */
export function problemText(problem) {
  return codedText('position_', problem);
}

/**
 * What makes a text not JFEN (the browser's own JfenError as `{code, ...params}`, or the
 * server's `bad_jfen` `syntax`, doc/protocol.md): the `jfen_<code>` entry; null if unknown.
 */
export function jfenText(report) {
  return codedText('jfen_', report);
}

/** The `<prefix><code>` entry of a coded report, its animals and sides named; null if unknown. */
function codedText(prefix, report) {
  if (!report || typeof report.code !== 'string' || !M[`${prefix}${report.code}`]) return null;
  const params = {};
  for (const [k, v] of Object.entries(report)) {
    if (k === 'code') continue;
    const side = v === 'red' || v === 'blue';
    const named = k === 'animal' || k === 'victim' ? `animal_${v}` : ['owner', 'turn', 'color'].includes(k) && side ? v : null;
    params[k] = named && M[named] ? t(named) : String(v);
  }
  return t(`${prefix}${report.code}`, params);
}

const OTHER = { red: 'blue', blue: 'red' };

/**
 * What ended a game, said with its subject in plain words: whose animal entered whose den, who
 * resigned, whose time ran out. `result`: the server's `{winner, reason}`; `you`: the viewer's
 * side (`red`/`blue`; anything else names both sides by colour); `animal`: the letter of the
 * animal that made the last move (a den entry names it); `rules`: the game's rule set (the
 * no-capture draw's count, RULES §6.4 and §9); `abortedByYou`: this tab asked for the abort;
 * `abortedBy`: the side that aborted, as `ended` or the game's result says it.
 */
export function endText(result, { you, animal, rules, abortedByYou, abortedBy } = {}) {
  if (!result) return '';
  const reason = String(result.reason).replace('-', '_');
  if (reason === 'draw_plies') {
    const n = /(?:^|,)draw_plies=(\d+)/.exec(rules || '');
    return t('end_draw_plies', { n: Math.ceil((n ? Number(n[1]) : 200) / 2) });
  }
  if (reason === 'agreed') return t('end_agreed');
  // Who aborted: `ended` and the game's result say (`by`), and the tab that asked knows.
  if (reason === 'aborted') {
    if (abortedByYou || (abortedBy && abortedBy === you)) return t('end_aborted_you');
    return abortedBy in OTHER ? t('end_aborted_by', { side: t(abortedBy) }) : t('end_aborted');
  }
  const winner = result.winner;
  // Said of the side that lost; an unknown reason (or a den entry whose animal is unknown) by
  // its short words.
  if (!(winner in OTHER) || !M[`end_${reason}`] || (reason === 'den' && !M[`animal_${animal}`])) return t(`reason_${reason}`);
  const loser = OTHER[winner];
  if (reason === 'den') {
    const a = t(`animal_${animal}`);
    if (you === winner) return t('end_den_yours', { animal: a, side: t(loser) });
    if (you === loser) return t('end_den_theirs', { animal: a, side: t(winner) });
    return t('end_den', { animal: a, side: t(winner), other: t(loser) });
  }
  if (you === loser) return t(`end_${reason}_you`);
  // Said to the winner where it reads better so (你吃光了蓝方的动物！).
  return t(you === winner && M[`end_${reason}_yours`] ? `end_${reason}_yours` : `end_${reason}`, { side: t(loser) });
}

/** "That move is not allowed: <why>" in the current language (plain "not allowed" without a why it knows). */
export function illegalText(why) {
  const text = whyText(why);
  return text ? t('err_illegal_move', { msg: text }) : t('move_illegal');
}

/**
 * A translated error text for an API or WebSocket error code. One the catalogue has no text
 * for gets a general line: the server's English words follow it in brackets on an English page
 * only, never inside a Chinese sentence.
 */
export function errText(e) {
  // A refused move says why (`illegal_move` on the WebSocket, `bad_request` with `why` over HTTP).
  if (whyText(e.why)) return illegalText(e.why);
  if (e.code === 'illegal_move') return withDetail(t('move_illegal'), e.message);
  if (e.code === 'bad_position' && Array.isArray(e.problems)) {
    const said = e.problems.map(problemText);
    if (said.length && said.every(Boolean)) return t('bad_fen_detail', { msg: said.join(t('list_separator')) });
  }
  if (e.code === 'bad_jfen' && jfenText(e.syntax)) return t('bad_fen_detail', { msg: jfenText(e.syntax) });
  const own = M[`err_${e.code}`] && e.code !== 'generic' && e.code !== 'bad_request';
  return own ? t(`err_${e.code}`) : withDetail(t(e.code === 'bad_request' ? 'err_bad_request' : 'err_generic'), e.message || e.code);
}

/** `text` with `detail` (the server's English words) in brackets, on an English page only. */
export function withDetail(text, detail) {
  return current === 'en' && detail ? text.replace(/\.?$/, ` (${detail}).`) : text;
}

// A guest's generated name: a form no registered name can take.
const GUEST_NAME = /^Guest-(\d+)$/;

/**
 * A player's name as shown: a guest's generated name (`Guest-123456`, a form no registered name
 * can take) reads in the page's language (`游客123456`). Links and records keep the real name.
 */
export function shownName(name) {
  const m = GUEST_NAME.exec(String(name));
  return m ? t('guest_name', { n: m[1] }) : name;
}

/** Whether a name is a guest's generated one (a guest's games are always casual). */
export function isGuestName(name) {
  return GUEST_NAME.test(String(name));
}

/** Every key of the catalogue (for tests). */
export const KEYS = Object.keys(M);
/** The raw catalogue (for tests). */
export const CATALOGUE = M;
