// The application shell: session, header, router and the non-game screens (home, lobby, watch,
// challenge, profile, leaderboard, log in / register).

import { t, lang, setLang, LANGS, onLangChange, errText, shownName, isGuestName } from './i18n.js';
import { api, Socket } from './net.js';
import { h, toast, fmtTc, confirmDialog, emptyFieldMessage, clearAnnouncement, copyText } from './ui.js';
import { mountGame, mountAnalysis, resultText, playerName } from './game.js';
import * as sound from './sound.js';
import { Board } from './board.js';
import { parseJfen, START_JFEN } from './jfen.js';

const socket = new Socket();
const store = {
  user: null,
  presets: [],
  levels: [],
  games: new Map(),
  myLive: [],
  seeks: [],
};
const main = document.getElementById('main');
// A handle for debugging from the console and for the browser tests (which drop the socket to
// check that the client reconnects by itself).
window.jungle = { socket, store };
let cleanup = null;
let connState = 'closed';
// Set when this tab asked the server to start a game, so that the `game` answer opens it.
let expectingGame = false;
// A lobby request made elsewhere (the home screen's quick pairing), for the lobby to send once
// it is open.
let lobbyRequest = null;

function levelName(level) {
  const l = store.levels.find((x) => x.level === level);
  if (!l) return t('level_n', { n: level });
  if (lang() === 'en') return l.name_en;
  if (lang() === 'zh-Hant') return l.name_zh_hant || l.name_zh;
  return l.name_zh;
}

// ---------- header ----------

// On a narrow screen the header is one row (web/app.css): the navigation, the language and the
// account's log in / log out fold into a menu that this button opens. A new screen closes it.
let menuOpen = false;

function setMenu(open) {
  menuOpen = open;
  const header = document.getElementById('header');
  header.classList.toggle('menu-open', open);
  header.querySelector('.menu-btn')?.setAttribute('aria-expanded', String(open));
}

function menuButton() {
  return h('button', {
    type: 'button', class: 'icon-btn menu-btn', 'data-test': 'menu', 'aria-expanded': String(menuOpen), 'aria-controls': 'site-nav',
    'aria-label': t('menu'), title: t('menu'), onclick: () => setMenu(!menuOpen),
    html: '<svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true"><path d="M4 6h16M4 12h16M4 18h16" stroke="currentColor" stroke-width="2.4" stroke-linecap="round"/></svg>',
  });
}

// Escape, or a click elsewhere, closes the open menu; not those of a dialog (the log out
// question, asked from the menu, gives the focus back to its item).
document.addEventListener('keydown', (e) => {
  if (e.key !== 'Escape' || !menuOpen || e.target.closest?.('dialog')) return;
  setMenu(false);
  document.querySelector('#header .menu-btn')?.focus();
});
// So does following one of its links, the page already shown's too (no new screen then).
document.addEventListener('click', (e) => {
  if (menuOpen && !e.target.closest('dialog') && (!e.target.closest('#header') || e.target.closest('#header a[href]'))) setMenu(false);
});

// The header's height, for the game screen to fit its board below it (web/app.css): one row or
// two, as the width and the language make it.
{
  const header = document.getElementById('header');
  const measure = () => document.documentElement.style.setProperty('--site-header-h', `${header.offsetHeight}px`);
  if (window.ResizeObserver) new ResizeObserver(measure).observe(header);
  measure();
}

function renderHeader() {
  const header = document.getElementById('header');
  header.classList.toggle('menu-open', menuOpen);
  const u = store.user;
  const nav = [
    ['#/', t('nav_play')], ['#/lobby', t('nav_lobby')], ['#/watch', t('nav_watch')],
    ['#/leaderboard', t('nav_leaderboard')], ['#/analysis', t('nav_analysis')],
  ];
  const route = location.hash || '#/';
  header.replaceChildren(
    h('a', { class: 'brand', href: '#/' }, h('span', { class: 'logo', 'aria-hidden': 'true' }, '象'), t('app_name')),
    // Before what it opens, for the keyboard's order; shown at the end of the row (app.css).
    menuButton(),
    h('nav', { id: 'site-nav', 'aria-label': t('nav_main') }, h('ul', {}, nav.map(([href, label]) => h('li', {},
      h('a', { href, 'aria-current': route === href || (href !== '#/' && route.startsWith(href)) ? 'page' : false }, label))))),
    h('div', { class: 'tools' },
      h('span', { class: `conn ${connState}`, 'data-test': 'conn', role: 'status', title: t(`conn_${connState}`) },
        connState === 'open' ? '' : t(`conn_${connState}`)),
      // Help (the rules, what the numbers mean) from every screen, beside the menu on a phone.
      h('a', {
        class: 'button help-link', href: '#/help', 'data-test': 'help', 'aria-label': t('help'), title: t('help'),
        'aria-current': route === '#/help' ? 'page' : false,
      }, h('span', { class: 'q', 'aria-hidden': 'true' }, '?'), h('span', { class: 'help-text', 'aria-hidden': 'true' }, t('help'))),
      h('label', { class: 'sr-only', for: 'lang-select' }, t('language')),
      h('select', { id: 'lang-select', 'data-test': 'lang', onchange: (e) => setLang(e.target.value) },
        LANGS.map(([code, name]) => h('option', { value: code, selected: code === lang() }, name))),
      h('button', {
        type: 'button', class: 'icon-btn', 'data-test': 'mute', 'aria-pressed': String(sound.isMuted()),
        'aria-label': sound.isMuted() ? t('sound_off') : t('sound_on'), title: sound.isMuted() ? t('sound_off') : t('sound_on'),
        onclick: () => { sound.setMuted(!sound.isMuted()); renderHeader(); },
        html: `<svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true"><path d="M4 9h4l5-4v14l-5-4H4z" fill="currentColor"/>${sound.isMuted()
          ? '<path d="M16 9l5 6M21 9l-5 6" stroke="currentColor" stroke-width="2"/>'
          : '<path d="M16 8q3 4 0 8M18.5 5.5q5 6.5 0 13" stroke="currentColor" stroke-width="2" fill="none"/>'}</svg>`,
      }),
      u ? h('a', { class: 'me', href: `#/u/${encodeURIComponent(u.name)}`, 'data-test': 'me' }, shownName(u.name)) : null,
      u && u.guest ? h('a', { class: 'button', href: '#/login', 'data-test': 'login-link' }, t('login_register')) : null,
      u && !u.guest ? h('button', { type: 'button', 'data-test': 'logout', onclick: logout }, t('logout')) : null,
    ),
  );
}

// ---------- session ----------

async function loadMe() {
  try {
    store.user = (await api('GET', '/api/me')).user;
  } catch (e) {
    if (e.status === 401) {
      store.user = (await api('POST', '/api/guest')).user;
    } else {
      throw e;
    }
  }
}

async function logout() {
  if (!(await confirmDialog(t('logout'), t('confirm_logout'), { yes: t('logout'), no: t('stay_logged_in') }, { safe: true }))) return;
  try {
    await api('POST', '/api/logout');
  } catch (e) {
    toast(errText(e), 'error');
  }
  store.user = null;
  await loadMe();
  socket.reconnect();
  renderHeader();
  location.hash = '#/';
}

// ---------- screens ----------

function tcSelect(id, withNone) {
  const untimed = (tc) => !tc || (!tc.clock_s && !tc.move_s);
  // "No clock" stands for every untimed preset where it is offered; an untimed preset's name
  // needs no "(unlimited)" after it.
  const presets = store.presets.filter((p) => !(withNone && untimed(p.tc)));
  // Its words name the preset and its clock, "Rapid (10+5)": a closed select cuts what does not
  // fit a narrow card (English on the home page), so the limit per move is said under it (tcNote).
  // A calm default for people new to the game: no clock where that is offered (against the
  // computer, at one device: a child thinking long is never passed), else rapid.
  const opts = presets.map((p) => h('option', { value: p.id, selected: !withNone && p.id === 'rapid' },
    !p.tc || !p.tc.clock_s ? t(`preset_${p.id}`, {}, p.id) : t('parenthesized', { text: t(`preset_${p.id}`, {}, p.id), note: fmtTc({ clock_s: p.tc.clock_s, inc_s: p.tc.inc_s }) })));
  if (withNone) opts.unshift(h('option', { value: '', selected: true }, t('tc_none')));
  return h('select', { id }, opts);
}
function tcOf(select) {
  const p = store.presets.find((x) => x.id === select.value);
  return p ? p.tc : undefined;
}
/** The line under a time control's select: the limit per move of the one chosen ("60s per move"). */
function tcNote(select) {
  const note = h('small', { class: 'note tc-note', id: `${select.id}-note`, 'data-test': 'tc-note' });
  const show = () => {
    const tc = tcOf(select);
    note.textContent = tc && tc.move_s ? t('tc_per_move', { s: tc.move_s }) : '';
    note.hidden = !note.textContent;
  };
  select.setAttribute('aria-describedby', note.id);
  select.addEventListener('change', show);
  show();
  return note;
}

/**
 * A note under a challenge link when the page was opened at this computer's own address
 * (127.0.0.1, localhost): such a link opens only on this computer, and the server must listen on
 * the network for a friend's device to reach it (README). Null elsewhere.
 */
function localLinkNote() {
  const host = location.hostname.replace(/^\[|\]$/g, '');
  const local = host === 'localhost' || host === '::1' || /^127\./.test(host);
  return local ? h('p', { class: 'note', 'data-test': 'local-link-note' }, t('challenge_link_local')) : null;
}

function startGame(msg) {
  expectingGame = true;
  socket.send(msg);
}

// What the home screen's "resume" links know of each live game of the player's (GET
// /api/games/{id}, once per game): whom it is against.
const resumeInfo = new Map();

/**
 * The words of a link to resume live game `g` (a game state, or undefined while unknown): whom
 * it is against, so that two live games do not give two identical buttons.
 */
function resumeLabel(g) {
  if (!g || !g.you || g.status !== 'live') return t('resume_game');
  if (g.you === 'both') return t('resume_hotseat');
  const opp = g[g.you === 'red' ? 'blue' : 'red'];
  if (!opp) return t('resume_game');
  if (opp.ai_level) return t('resume_vs_ai', { level: opp.ai_level });
  return t('resume_vs', { name: shownName(opp.name) });
}

/** Fills the home screen's "resume your game" paragraph from `store.myLive` (empty when none). */
function resumeLinks(p) {
  const ids = store.myLive.filter((id) => (store.games.get(id) || resumeInfo.get(id) || { status: 'live' }).status === 'live');
  p.replaceChildren(...ids.map((id) => h('a', {
    class: 'button primary', href: `#/g/${id}`, 'data-test': 'resume', 'data-game': id,
  }, resumeLabel(store.games.get(id) || resumeInfo.get(id)))));
  p.hidden = !p.childElementCount;
  // Games not heard of in this tab yet (the welcome lists only their ids): asked for once.
  for (const id of ids) {
    if (store.games.has(id) || resumeInfo.has(id)) continue;
    resumeInfo.set(id, undefined);
    api('GET', `/api/games/${encodeURIComponent(id)}`).then((r) => {
      resumeInfo.set(id, r && r.game);
      // Ended meanwhile: no longer one to resume.
      if (r && r.game && r.game.status !== 'live') gameOver(id);
      const a = p.isConnected && [...p.querySelectorAll('[data-game]')].find((x) => x.dataset.game === id);
      if (a) a.textContent = resumeLabel(r && r.game);
    }, () => resumeInfo.delete(id));
  }
  return p;
}

/** A game of the player's has ended: its "resume" link goes, from the home screen too if shown. */
function gameOver(id) {
  if (!store.myLive.includes(id)) return;
  store.myLive = store.myLive.filter((x) => x !== id);
  const resume = document.querySelector('[data-resume]');
  if (resume) resumeLinks(resume);
}

/** The rules as a child meets them, beside the start position with the ranks shown. */
function howtoBody() {
  const startBoard = h('div', { class: 'howto-board' });
  const body = h('div', { class: 'howto-body' },
    h('ul', {}, ['howto_0', 'howto_1', 'howto_2', 'howto_3', 'howto_4', 'howto_5', 'howto_7', 'howto_6', 'howto_9', 'howto_8'].map((k) => h('li', {}, t(k)))),
    startBoard);
  new Board(startBoard).set({ pos: parseJfen(START_JFEN), showRanks: true });
  return body;
}

/**
 * What a player's score, level and rating mean, in plain words (profile, leaderboard, help), and
 * the messages of `more` after them.
 */
function statsLegend(more = []) {
  return h('div', { class: 'note legend', 'data-test': 'stats-legend' }, ['legend_score', 'legend_rating', ...more].map((k) => h('p', {}, t(k))));
}

/** The help screen (`#/help`, linked from the header of every screen): the rules, the numbers. */
function helpScreen(root) {
  root.replaceChildren(h('div', { class: 'help' },
    h('h1', {}, t('help')), h('h2', {}, t('howto_title')), howtoBody(),
    h('h2', {}, t('help_online')), h('ul', { 'data-test': 'help-online' }, ['help_move_time', 'help_disconnect', 'help_no_score'].map((k) => h('li', {}, t(k)))),
    // The coins, escapes and disconnects every profile shows too (RULES §8.3, §8.5).
    h('h2', {}, t('help_scores')), statsLegend(['legend_coins', 'legend_escapes', 'legend_disconnects']),
    h('p', { class: 'note' }, t('legend_eval_help'))));
}

/**
 * The form that invites a friend by a link of their own (a challenge, `/#/c/{id}`), on the home
 * screen and in the lobby: `{ el, off }`, `off` to stop hearing the server's answer.
 */
function inviteCard(big = false) {
  const guest = Boolean(store.user && store.user.guest);
  const chColor = h('select', { id: 'ch-color' }, ['random', 'red', 'blue'].map((c) => h('option', { value: c }, t(c === 'random' ? 'random_color' : c))));
  const chTc = tcSelect('ch-tc', false);
  // A game with a friend is casual unless asked otherwise; a guest's games are always casual.
  const chRated = h('input', { type: 'checkbox', id: 'ch-rated', checked: false, disabled: guest, 'aria-describedby': guest ? 'ch-rated-note' : false });
  const chOut = h('div', { class: 'challenge-out', 'aria-live': 'polite' });
  const off = socket.on((m) => {
    if (m.t !== 'challenge_created') return;
    const link = `${location.origin}/#/c/${m.id}`;
    expectingGame = true;
    chOut.replaceChildren(h('p', {}, t('challenge_link')),
      h('input', { readonly: true, value: link, 'data-test': 'challenge-link', 'aria-label': t('challenge_link'), onfocus: (e) => e.target.select() }),
      h('button', { type: 'button', onclick: () => copyText(link, t('invite_link')) }, t('copy')),
      localLinkNote());
  });
  const el = h('section', { class: 'card', 'aria-labelledby': 'h-invite', 'data-test': 'invite-card' },
    h('h2', { id: 'h-invite' }, t('challenge_friend')),
    h('p', {}, t('invite_lead')),
    h('label', { for: 'ch-tc' }, t('time_control')), chTc, tcNote(chTc),
    h('label', { for: 'ch-color' }, t('your_color')), chColor,
    h('label', { class: 'check' }, chRated, ` ${t('rated')}`), ratedGuestNote('ch-rated-note'),
    h('button', { type: 'button', class: big ? 'primary big' : 'primary', 'data-test': 'create-challenge', onclick: () => socket.send({ t: 'challenge', tc: tcOf(chTc), rated: chRated.checked, color: chColor.value }) }, t('create_link')),
    chOut);
  return { el, off };
}

function home(root) {
  // Level 1, the gentlest, first: the home page is where beginners start. The ends say which is
  // easy and which is hard.
  const aiLevelLabel = (n) => t(n === 1 ? 'ai_level_easiest' : n === 10 ? 'ai_level_hardest' : 'ai_level_n', { n });
  const level = h('select', { id: 'ai-level' },
    Array.from({ length: 10 }, (_, i) => h('option', { value: String(i + 1), selected: i === 0 }, aiLevelLabel(i + 1))));
  const color = h('div', { class: 'radios', role: 'radiogroup', 'aria-label': t('your_color') },
    ['red', 'blue', 'random'].map((c) => h('label', {}, h('input', { type: 'radio', name: 'ai-color', value: c, checked: c === 'red' }), ` ${t(c === 'random' ? 'random_color' : c)}`)));
  const aiTc = tcSelect('ai-tc', true);
  const hsTc = tcSelect('hs-tc', true);
  const invite = inviteCard(true);
  root.replaceChildren(h('div', { class: 'home' },
    h('h1', {}, t('home_title')),
    h('p', { class: 'lead' }, t('home_lead')),
    resumeLinks(h('p', { class: 'resume', 'data-resume': '' })),
    h('div', { class: 'cards' },
      h('section', { class: 'card', 'aria-labelledby': 'h-ai' },
        h('h2', { id: 'h-ai' }, t('play_ai')),
        h('label', { for: 'ai-level' }, t('ai_level')), level,
        h('fieldset', {}, h('legend', {}, t('your_color')), color),
        h('label', { for: 'ai-tc' }, t('time_control')), aiTc, tcNote(aiTc),
        h('button', {
          type: 'button', class: 'primary big', 'data-test': 'start-ai',
          onclick: () => {
            const c = root.querySelector('input[name=ai-color]:checked').value;
            const msg = { t: 'play_ai', level: Number(level.value), color: c };
            const tc = tcOf(aiTc);
            if (tc) msg.tc = tc;
            startGame(msg);
          },
        }, t('start'))),
      h('section', { class: 'card', 'aria-labelledby': 'h-hs' },
        h('h2', { id: 'h-hs' }, t('play_hotseat')),
        h('p', {}, t('hotseat_lead')),
        h('label', { for: 'hs-tc' }, t('time_control')), hsTc, tcNote(hsTc),
        h('button', {
          type: 'button', class: 'primary big', 'data-test': 'start-hotseat',
          onclick: () => { const tc = tcOf(hsTc); startGame(tc ? { t: 'play_hotseat', tc } : { t: 'play_hotseat' }); },
        }, t('start'))),
      invite.el,
      h('section', { class: 'card', 'aria-labelledby': 'h-on' },
        h('h2', { id: 'h-on' }, t('play_online')),
        h('p', {}, t('online_lead')),
        h('div', { class: 'quick' }, store.presets.map((p) => h('button', {
          type: 'button', 'data-test': `quick-${p.id}`, onclick: () => { lobbyRequest = { t: 'quick', tc: p.tc }; location.hash = '#/lobby'; },
        }, t(`preset_${p.id}`, {}, p.id), h('small', {}, fmtTc(p.tc))))),
        h('a', { class: 'button', href: '#/lobby' }, t('open_lobby'))),
    ),
    h('details', { class: 'card howto' }, h('summary', {}, t('howto_title')), howtoBody()),
  ));
  return invite.off;
}

/**
 * A guest's "Rated" box is disabled (a guest's games are always casual): the note saying why,
 * for the box to be described by; null for a registered player.
 */
function ratedGuestNote(id) {
  if (!(store.user && store.user.guest)) return null;
  return h('p', { class: 'note rated-note', id, 'data-test': 'rated-guest-note' }, h('a', { href: '#/login' }, t('rated_guest_note')));
}

/** A time control for a narrow cell: its parts ("10+5", "60s per move") each kept on one line. */
function tcParts(tc) {
  return fmtTc(tc).split(' · ').flatMap((part, i) => [i ? ' · ' : null, h('span', { class: 'nowrap' }, part)]);
}

function lobby(root) {
  const guest = Boolean(store.user && store.user.guest);
  const tc = tcSelect('seek-tc', false);
  const rated = h('input', { type: 'checkbox', id: 'seek-rated', checked: !guest, disabled: guest, 'aria-describedby': guest ? 'seek-rated-note' : false });
  const list = h('tbody', {});
  const invite = inviteCard();
  let mySeeks = new Set();

  function renderSeeks() {
    const rows = store.seeks.map((s) => {
      const mine = mySeeks.has(s.id) || (store.user && s.user === store.user.name);
      // A game with a guest in it is casual whatever its seek asked for: a guest's seek, or
      // any seek for a guest looking at it.
      const rated = s.rated && !isGuestName(s.user) && !guest;
      // Three columns, to fit a phone beside the Accept button: the game (its time control first,
      // which a child must see before accepting, and its mode), then who offers it.
      return h('tr', { 'data-seek': s.id },
        h('td', { class: 'tc', 'data-test': 'seek-tc' }, tcParts(s.tc), h('small', { class: 'nowrap', 'data-test': 'seek-mode' }, rated ? t('rated') : t('casual'))),
        h('td', {}, h('span', { class: 'nowrap' }, shownName(s.user)),
          s.rating ? h('small', { class: 'nowrap' }, t('labelled', { label: t('rating'), text: Math.round(s.rating) })) : null),
        h('td', {}, mine
          ? h('button', { type: 'button', 'data-test': 'cancel-seek', onclick: () => socket.send({ t: 'cancel_seek', id: s.id }) }, t('cancel'))
          : h('button', { type: 'button', class: 'primary', 'data-test': 'accept-seek', onclick: () => startGame({ t: 'accept_seek', id: s.id }) }, t('accept'))));
    });
    list.replaceChildren(...(rows.length ? rows : [h('tr', {}, h('td', { colspan: 3, class: 'empty' }, t('no_seeks')))]));
  }

  const off = socket.on((m) => {
    if (m.t === 'seeks') { store.seeks = m.seeks || []; renderSeeks(); }
    if (m.t === 'seek_created') { mySeeks.add(m.id); expectingGame = true; toast(t('seek_waiting')); renderSeeks(); }
    if (m.t === 'welcome') socket.send({ t: 'lobby' });
  });
  socket.send({ t: 'lobby' });
  // A quick pairing asked for on the home screen: sent now that the lobby hears its answer (the
  // waiting note, and the seek it withdraws on leaving).
  if (lobbyRequest) startGame(lobbyRequest);
  lobbyRequest = null;

  root.replaceChildren(h('div', { class: 'lobby' },
    h('h1', {}, t('nav_lobby')),
    h('div', { class: 'cards' },
      h('section', { class: 'card wide' },
        h('h2', {}, t('open_seeks')),
        scrolling(h('table', { class: 'seeks' }, h('thead', {}, h('tr', {}, [t('time_control'), t('player'), ''].map((x) => h('th', { scope: 'col' }, x)))), list))),
      h('section', { class: 'card' },
        h('h2', {}, t('create_seek')),
        h('p', {}, t('seek_lead')),
        h('label', { for: 'seek-tc' }, t('time_control')), tc, tcNote(tc),
        h('label', { class: 'check' }, rated, ` ${t('rated')}`), ratedGuestNote('seek-rated-note'),
        h('button', { type: 'button', class: 'primary', 'data-test': 'create-seek', onclick: () => startGame({ t: 'seek', tc: tcOf(tc), rated: rated.checked }) }, t('create_seek')),
        h('h2', {}, t('quick_pairing')),
        h('div', { class: 'quick' }, store.presets.map((p) => h('button', {
          type: 'button', 'data-test': `quick-${p.id}`, onclick: () => startGame({ t: 'quick', tc: p.tc }),
        }, t(`preset_${p.id}`, {}, p.id), h('small', {}, fmtTc(p.tc)))))),
      invite.el)));
  renderSeeks();
  return () => {
    off();
    invite.off();
    // Leaving the lobby withdraws open seeks, unless one of them just became the game shown next.
    if (!location.hash.startsWith('#/g/')) for (const id of mySeeks) socket.send({ t: 'cancel_seek', id });
  };
}

function challenge(root, id) {
  // Who challenges, and on what terms, is shown before accepting (GET /api/challenges/{id}).
  const lead = h('p', { 'data-test': 'challenge-lead' }, t('loading'));
  const terms = h('dl', { class: 'challenge-terms', 'data-test': 'challenge-terms' });
  const accept = h('button', { type: 'button', class: 'primary big', 'data-test': 'accept-challenge', hidden: true, onclick: () => startGame({ t: 'accept_challenge', id }) }, t('accept_challenge'));
  const card = h('div', { class: 'center card' }, h('h1', {}, t('challenge_title')), lead, terms, accept);
  root.replaceChildren(card);
  api('GET', `/api/challenges/${encodeURIComponent(id)}`).then((r) => {
    if (!card.isConnected) return;
    const c = r.challenge;
    if (store.user && c.user === store.user.name) {
      // One's own link, opened to check it or by mistake: it is for a friend to open (the
      // server would refuse the accept, own_offer).
      const link = `${location.origin}/#/c/${encodeURIComponent(id)}`;
      lead.textContent = t('challenge_own');
      terms.replaceChildren(
        h('dt', {}, t('time_control')), h('dd', {}, fmtTc(c.tc)),
        h('dt', {}, t('mode')), h('dd', {}, c.rated ? t('rated') : t('casual')),
        h('dt', {}, t('your_color')), h('dd', { 'data-test': 'challenge-color' }, t(c.color === 'random' ? 'random_color' : c.color)));
      card.append(h('div', { class: 'challenge-out' },
        h('input', { readonly: true, value: link, 'data-test': 'challenge-link', 'aria-label': t('invite_link'), onfocus: (e) => e.target.select() }),
        h('button', { type: 'button', class: 'primary big', 'data-test': 'copy-challenge-link', onclick: () => copyText(link, t('invite_link')) }, t('copy_link')),
        localLinkNote()));
      return;
    }
    const mine = c.color === 'red' ? 'blue' : c.color === 'blue' ? 'red' : 'random';
    // A game with a guest in it is casual, whatever the challenge asked for.
    const guestViewer = Boolean(store.user && store.user.guest);
    const rated = c.rated && !guestViewer && !isGuestName(c.user);
    lead.textContent = t('challenge_from', { name: shownName(c.user) });
    // A game needs its challenger there: the server refuses the accept until they are.
    if (c.online === false) card.insertBefore(h('p', { class: 'note', 'data-test': 'challenge-offline' }, t('challenge_offline', { name: shownName(c.user) })), accept);
    terms.replaceChildren(
      h('dt', {}, t('time_control')), h('dd', {}, fmtTc(c.tc)),
      h('dt', {}, t('mode')), h('dd', { 'data-test': 'challenge-mode' }, rated ? t('rated') : t('casual')),
      h('dt', {}, t('your_color')), h('dd', { 'data-test': 'challenge-color' }, t(mine === 'random' ? 'random_color' : mine)));
    if (c.rated && guestViewer) {
      // Registered (or logged in) there, the player comes back here.
      card.insertBefore(h('p', { class: 'note', 'data-test': 'challenge-guest-note' }, t('challenge_guest_casual'), ' ',
        h('a', { href: `#/login?next=${encodeURIComponent(`/c/${id}`)}` }, t('rated_guest_note'))), accept);
    }
    accept.hidden = false;
  }, (e) => {
    if (!card.isConnected) return;
    lead.textContent = e.status === 404 ? t('challenge_gone') : errText(e);
  });
}

/** The word for a profile's link to a game: the player's own live game is resumed, not watched. */
function gameLink(g, name) {
  if (g.status !== 'live') return t('replay');
  return store.user && store.user.name === name ? t('resume_game') : t('watch');
}

/**
 * A table that scrolls sideways inside its own box where the screen is too narrow for it, its
 * words kept whole (a two-character heading is not broken into two lines).
 */
function scrolling(table) {
  return h('div', { class: 'table-scroll' }, table);
}

async function watchList(root) {
  const body = h('tbody', {});
  root.replaceChildren(h('div', {}, h('h1', {}, t('nav_watch')),
    scrolling(h('table', { class: 'games' }, h('thead', {}, h('tr', {}, [t('red'), t('blue'), t('time_control'), t('plies'), ''].map((x) => h('th', { scope: 'col' }, x)))), body))));
  try {
    const { games } = await api('GET', '/api/games?status=live');
    body.replaceChildren(...(games.length ? games.map((g) => h('tr', {},
      h('td', {}, playerName(g.red)), h('td', {}, playerName(g.blue)), h('td', {}, fmtTc(g.tc)), h('td', {}, String(g.plies)),
      h('td', {}, h('a', { class: 'button', href: `#/g/${g.id}` }, t('watch')))))
      : [h('tr', {}, h('td', { colspan: 5, class: 'empty' }, t('no_live_games')))]));
  } catch (e) {
    body.replaceChildren(h('tr', {}, h('td', { colspan: 5, class: 'error' }, errText(e))));
  }
}

/**
 * A game's result and reason as a row of the game history says them, for the side `mine`: an
 * aborted game is neither won, lost nor drawn, and its reason is short there.
 */
function historyResult(result, mine) {
  if (!result) return { res: t('live'), reason: '' };
  if (result.reason === 'aborted') return { res: t('aborted_short'), reason: t('aborted_reason_short') };
  const res = result.winner === null || result.winner === undefined ? t('draw_short') : result.winner === mine ? t('win_short') : t('loss_short');
  return { res, reason: resultText(result).reason };
}

/**
 * When a game of a history began: the date and the time of day ("2026/12/7 14:05"), for two games
 * of one day to be told apart; on a narrow screen the time goes under the date.
 */
function startedAt(when) {
  const d = new Date(when);
  return [h('span', { class: 'nowrap' }, d.toLocaleDateString(lang())), ' ',
    h('span', { class: 'nowrap' }, d.toLocaleTimeString(lang(), { hour: 'numeric', minute: '2-digit' }))];
}

async function profile(root, name) {
  root.replaceChildren(h('p', {}, t('loading')));
  let user;
  try {
    user = (await api('GET', `/api/users/${encodeURIComponent(name)}`)).user;
  } catch (e) {
    root.replaceChildren(h('p', { class: 'error' }, errText(e)));
    return;
  }
  // Another screen was opened meanwhile.
  if (!root.isConnected) return;
  const stat = (label, value, test) => h('div', { class: 'stat' }, h('dt', {}, label), h('dd', { 'data-test': test }, value));
  const hist = h('tbody', {});
  const more = h('button', { type: 'button' }, t('more'));
  let before = null;
  async function loadGames() {
    const q = before ? `?before=${encodeURIComponent(before)}&limit=20` : '?limit=20';
    try {
      const { games } = await api('GET', `/api/users/${encodeURIComponent(name)}/games${q}`);
      for (const g of games) {
        const mine = g.red.name === name ? 'red' : 'blue';
        const opp = g[mine === 'red' ? 'blue' : 'red'];
        const { res, reason } = historyResult(g.result, mine);
        hist.append(h('tr', {},
          // The date leads to the game too: on a phone the last column is scrolled out of sight.
          h('td', {}, h('a', { href: `#/g/${g.id}`, 'data-test': 'history-date' }, g.started_at ? startedAt(g.started_at) : '–')),
          h('td', {}, h('span', { class: `swatch ${mine}` }), ` ${t(mine)}`),
          h('td', {}, playerName(opp)),
          h('td', {}, res), h('td', {}, reason), h('td', { 'data-test': 'history-plies' }, String(g.plies ?? '–')),
          h('td', {}, h('a', { href: `#/g/${g.id}` }, gameLink(g, name)))));
      }
      if (games.length) before = games[games.length - 1].id;
      more.hidden = games.length < 20;
      if (!hist.children.length) hist.append(h('tr', {}, h('td', { colspan: 7, class: 'empty' }, t('no_games'))));
    } catch (e) {
      toast(errText(e), 'error');
    }
  }
  more.onclick = loadGames;
  root.replaceChildren(h('div', { class: 'profile' },
    // A guest's name says so itself ("Guest-123", "游客123").
    h('h1', {}, shownName(user.name)),
    h('dl', { class: 'stats' },
      stat(t('score'), user.score, 'score'), stat(t('level'), `${user.level} · ${levelName(user.level)}`, 'level'),
      stat(t('coins'), user.coins, 'coins'), stat(t('rating'), [`${Math.round(user.rating)} `, h('small', { class: 'nowrap' }, `± ${Math.round(user.rd || 0)}`)], 'rating'),
      stat(t('games'), user.games, 'games'), stat(t('wins_losses_draws'), `${user.wins} / ${user.losses} / ${user.draws}`, 'wld'),
      stat(t('escapes'), user.escapes, 'escapes'), stat(t('disconnects'), user.disconnects, 'disconnects')),
    statsLegend(),
    h('h2', {}, t('game_history')),
    scrolling(h('table', { class: 'games' }, h('thead', {}, h('tr', {}, [t('date'), t('color'), t('opponent'), t('result'), t('reason'), t('plies'), ''].map((x) => h('th', { scope: 'col' }, x)))), hist)),
    more,
    // One's own registered account: its password can be changed here.
    store.user && !store.user.guest && store.user.id === user.id ? passwordForm() : null));
  // The window's title names the player too, now that the heading does.
  screenTitle(root, false);
  loadGames();
}

/** Whether a new password and its repetition agree; the repetition is marked when not. */
function samePasswords(pass, again) {
  const same = pass.value === again.value;
  if (same) again.removeAttribute('aria-invalid');
  else { again.setAttribute('aria-invalid', 'true'); again.value = ''; again.focus(); }
  return same;
}

/** The form on one's own profile that changes the password (POST /api/password). */
function passwordForm() {
  const field = (id, key, autocomplete) => [h('label', { for: id }, t(key)), h('input', { id, type: 'password', autocomplete, maxlength: 128 })];
  const [oldLabel, old] = field('pw-old', 'current_password', 'current-password');
  const [newLabel, fresh] = field('pw-new', 'new_password', 'new-password');
  const [againLabel, again] = field('pw-again', 'password_again', 'new-password');
  const err = h('p', { class: 'error', role: 'alert' });
  return h('form', {
    class: 'card auth', 'data-test': 'password-form', novalidate: true,
    onsubmit: async (e) => {
      e.preventDefault();
      err.textContent = '';
      const missing = emptyFieldMessage([[old, 'password_required'], [fresh, 'password_required'], [again, 'password_again_required']]);
      if (missing) { err.textContent = missing; return; }
      if (!samePasswords(fresh, again)) { err.textContent = t('password_mismatch'); return; }
      try {
        await api('POST', '/api/password', { old: old.value, new: fresh.value });
        for (const i of [old, fresh, again]) i.value = '';
        toast(t('password_changed'));
      } catch (ex) {
        err.textContent = errText(ex);
      }
    },
  }, h('h2', {}, t('change_password')), oldLabel, old, newLabel, fresh, againLabel, again,
  h('p', { class: 'note' }, t('register_hint_password')), err, h('button', { type: 'submit', class: 'primary' }, t('change_password')));
}

async function leaderboard(root) {
  const body = h('tbody', {});
  root.replaceChildren(h('div', {}, h('h1', {}, t('nav_leaderboard')),
    scrolling(h('table', { class: 'games' }, h('thead', {}, h('tr', {}, ['#', t('player'), t('level'), t('score'), t('rating'), t('games')].map((x) => h('th', { scope: 'col' }, x)))), body)),
    statsLegend()));
  try {
    const { users } = await api('GET', '/api/leaderboard');
    body.replaceChildren(...(users.length ? users.map((u, i) => h('tr', {},
      h('td', {}, String(i + 1)), h('td', {}, h('a', { href: `#/u/${encodeURIComponent(u.name)}` }, u.name)),
      h('td', {}, `${u.level} · ${levelName(u.level)}`), h('td', {}, String(u.score)), h('td', {}, String(Math.round(u.rating))), h('td', {}, String(u.games))))
      : [h('tr', {}, h('td', { colspan: 6, class: 'empty' }, t('no_players')))]));
  } catch (e) {
    body.replaceChildren(h('tr', {}, h('td', { colspan: 6, class: 'error' }, errText(e))));
  }
}

/**
 * The log in / register screen; `next` (its address's `?next=/c/…`) is the screen to go back to
 * afterwards (a challenge a guest would rather play rated), else the home screen.
 */
function loginScreen(root, next) {
  const after = next && /^\/[\w/%.~-]*$/.test(next) ? `#${next}` : '#/';
  const form = (kind) => {
    const registering = kind === 'register';
    // The rules of a new account (the server's own, which refuses each with its own code) are
    // said beside the form, so that nobody has to guess them from a refusal.
    const hint = registering ? h('p', { class: 'note', id: 'register-hint', 'data-test': 'register-hint' }, t('register_hint')) : null;
    const described = registering ? { 'aria-describedby': 'register-hint' } : {};
    const name = h('input', { id: `${kind}-name`, name: 'name', autocomplete: 'username', required: true, maxlength: registering ? 20 : 32, ...described });
    const pass = h('input', { id: `${kind}-pass`, name: 'password', type: 'password', autocomplete: registering ? 'new-password' : 'current-password', required: true, maxlength: 128, ...described });
    // A new password is typed twice: a slip would lock the account for good.
    const again = registering ? h('input', { id: 'register-pass2', name: 'password2', type: 'password', autocomplete: 'new-password', required: true, maxlength: 128 }) : null;
    const err = h('p', { class: 'error', role: 'alert' });
    return h('form', {
      class: 'card auth', 'data-test': `${kind}-form`, novalidate: true,
      onsubmit: async (e) => {
        e.preventDefault();
        err.textContent = '';
        // Empty fields are said in the page's language (not by the browser's own bubble).
        const missing = emptyFieldMessage([[name, 'name_required'], [pass, 'password_required'], ...(again ? [[again, 'password_again_required']] : [])]);
        if (missing) { err.textContent = missing; return; }
        if (again && !samePasswords(pass, again)) { err.textContent = t('password_mismatch'); return; }
        try {
          store.user = (await api('POST', `/api/${kind}`, { name: name.value.trim(), password: pass.value })).user;
          socket.reconnect();
          renderHeader();
          toast(t('welcome_user', { name: store.user.name }));
          location.hash = after;
        } catch (ex) {
          err.textContent = errText(ex);
        }
      },
    }, h('h2', {}, t(kind)), h('label', { for: `${kind}-name` }, t('name')), name, h('label', { for: `${kind}-pass` }, t('password')), pass,
    again ? h('label', { for: 'register-pass2' }, t('password_again')) : null, again,
    hint, err, h('button', { type: 'submit', class: 'primary' }, t(kind)));
  };
  // A heading of its own: the window's title (screenTitle) and screen readers name the page by it.
  root.replaceChildren(h('h1', {}, t('login_register')),
    h('div', { class: 'cards auth-cards' }, form('login'), form('register')),
    h('p', { class: 'note' }, t('guest_note')));
}

// ---------- router ----------

/**
 * The window's title: the screen's heading, then the site's name; the home screen's heading is
 * the name itself.
 */
function screenTitle(root, home) {
  const h1 = root.querySelector('h1');
  if (home) document.title = t('home_title');
  else document.title = h1 ? `${h1.textContent} · ${t('app_name')}` : t('app_name');
}

// The screen shown (its address without the query): route() also redraws it in place (a change
// of language, a sign-out), which keeps the scroll position; a new screen starts at the top.
let shownScreen = null;

function route() {
  if (cleanup) { cleanup(); cleanup = null; }
  menuOpen = false;
  // A dialog belongs to the screen that opened it.
  document.querySelectorAll('dialog.modal').forEach((d) => { d.close(); d.remove(); });
  const hash = location.hash.replace(/^#/, '') || '/';
  const [path, query] = hash.split('?');
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  const root = h('div', { class: 'view' });
  main.replaceChildren(root);
  renderHeader();
  let c;
  switch (parts[0]) {
    case undefined: c = home(root); break;
    case 'lobby': c = lobby(root); break;
    case 'c': c = challenge(root, parts[1]); break;
    case 'g': c = mountGame(root, parts[1], { socket, store }); break;
    case 'watch': watchList(root); break;
    case 'analysis': c = mountAnalysis(root, new URLSearchParams(query || '')); break;
    case 'u': profile(root, parts[1]); break;
    case 'leaderboard': leaderboard(root); break;
    case 'help': helpScreen(root); break;
    case 'login': loginScreen(root, new URLSearchParams(query || '').get('next')); break;
    default: root.replaceChildren(h('p', {}, t('err_not_found')));
  }
  cleanup = typeof c === 'function' ? c : null;
  screenTitle(root, parts[0] === undefined);
  if (path !== shownScreen) window.scrollTo(0, 0);
  shownScreen = path;
  // Screen readers start reading the new screen from the top; keyboard users tab on from there.
  if (document.body.dataset.ready === '1' && !main.contains(document.activeElement)) main.focus({ preventScroll: true });
  document.querySelector('.skip').textContent = t('skip_to_content');
}

socket.on((m) => {
  if (m.t === 'welcome') {
    const before = store.user;
    if (m.user) store.user = m.user;
    store.myLive = Array.isArray(m.games) ? m.games : [];
    // Only the parts that depend on the welcome change: re-rendering the whole home screen would
    // throw away what the player has just chosen there (level, colour, time control). The header
    // is drawn again only when the player it names changed: a redraw would take the focus, or the
    // item just tapped in the open menu, from under the player.
    const shown = (u) => u && `${u.id}\n${u.name}\n${u.guest}`;
    if (shown(before) !== shown(store.user)) renderHeader();
    const resume = document.querySelector('[data-resume]');
    if (resume) resumeLinks(resume);
  } else if (m.t === 'game' && m.game) {
    // Not heard of before in this tab: a game that has just started (not one that the welcome
    // listed, nor one shown or followed here, whose states come again and again).
    const news = !store.games.has(m.game.id) && !(store.myLive || []).includes(m.game.id);
    store.games.set(m.game.id, m.game);
    // Keep the home screen's "resume" links current: games of mine that start or end after the welcome.
    if (m.game.you && m.game.status === 'live') store.myLive = [...new Set([...store.myLive, m.game.id])];
    else gameOver(m.game.id);
    const onIt = location.hash === `#/g/${m.game.id}`;
    if (!onIt && m.game.you && m.game.status === 'live' && expectingGame) {
      expectingGame = false;
      sound.play('start');
      location.hash = `#/g/${m.game.id}`;
    } else if (!onIt && news && m.game.you && m.game.status === 'live' && !m.game.ply && againstPerson(m.game)) {
      gameStartedElsewhere(m.game.id);
    }
  } else if (m.t === 'ended') {
    gameOver(m.game);
  } else if (m.t === 'error' && m.code === 'unauthorized') {
    // This tab's session was ended (a logout on another tab or device): carry on as a guest.
    toast(t('signed_out'), 'error');
    store.user = null;
    loadMe().then(() => {
      socket.reconnect();
      // The screen shown may be the account's own (a profile with its password form, the
      // lobby's rated boxes): drawn again for the guest. A game screen follows the socket by
      // itself, and the home screen keeps what was chosen on it.
      if (/^#\/(g\/|$)/.test(location.hash) || !location.hash) renderHeader();
      else route();
    }, (e) => toast(errText(e), 'error'));
  } else if (m.t === 'error') {
    toast(errText(m), 'error');
  }
});
/** Whether a game is between two people (not against the computer, nor at one device). */
function againstPerson(g) {
  return g.you !== 'both' && !(g.red && g.red.ai_level) && !(g.blue && g.blue.ai_level);
}

/**
 * A game of this player's started, not asked for by this tab (a friend accepted a challenge
 * made in another tab, or before a reload): it is opened, unless this tab is in the middle of
 * another live game of the player's, which a notice with a link to the new one leaves alone.
 */
function gameStartedElsewhere(id) {
  const shown = /^#\/g\/(.+)$/.exec(location.hash);
  const current = shown && store.games.get(decodeURIComponent(shown[1]));
  sound.play('start');
  if (current && current.you && current.status === 'live') {
    const note = toast(h('span', {}, t('other_game_started'), ' ',
      h('a', { href: `#/g/${id}`, 'data-test': 'new-game-link', onclick: () => note.remove() }, t('go_to_game'))), 'info', 20000);
    return;
  }
  toast(t('your_game_started'));
  location.hash = `#/g/${id}`;
}

socket.onState((s) => {
  connState = s;
  const el = document.querySelector('[data-test=conn]');
  if (el) {
    el.className = `conn ${s}`;
    el.textContent = s === 'open' ? '' : t(`conn_${s}`);
    el.title = t(`conn_${s}`);
  }
});
onLangChange(() => {
  // What the live region said is in the old language: not to be read again.
  clearAnnouncement();
  // Switched from the header's select (in the open menu on a phone): the focus stays on it.
  const onSelect = document.activeElement && document.activeElement.id === 'lang-select';
  const wasOpen = menuOpen;
  route();
  if (!onSelect) return;
  if (wasOpen) setMenu(true);
  document.getElementById('lang-select').focus();
});
window.addEventListener('hashchange', route);

async function boot() {
  document.documentElement.lang = lang();
  try {
    const [, presets, levels] = await Promise.all([
      loadMe(),
      api('GET', '/api/presets').catch(() => ({ presets: [] })),
      api('GET', '/api/levels').catch(() => ({ levels: [] })),
    ]);
    store.presets = presets.presets || [];
    store.levels = levels.levels || [];
  } catch (e) {
    toast(errText(e), 'error');
  }
  socket.connect();
  route();
  document.body.dataset.ready = '1';
}

boot();
