// Small DOM helpers shared by the views: element builder, toasts, confirmations, the live region.

import { t } from './i18n.js';

/**
 * Builds an element: h('button', {class: 'x', onclick: fn}, 'text', child).
 * Attribute values false/null/undefined are skipped; `on*` functions become listeners.
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === false || v === null || v === undefined) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'class') el.className = v;
    else if (k === 'html') el.innerHTML = v;
    else if (k in el && typeof v !== 'string') el[k] = v;
    else el.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

/** Toasts shown at once; an older one goes when a new one comes past this. */
const MAX_TOASTS = 2;

/**
 * Shows a short message over the middle of the screen (text, or an element: a message with a
 * link), for `ms` milliseconds.
 */
export function toast(text, kind = 'info', ms = 4000) {
  const box = document.getElementById('toasts');
  const el = h('div', { class: `toast ${kind}`, role: kind === 'error' ? 'alert' : 'status' }, text);
  // The same words again replace the earlier ones, and at most two stay: quick repeats (hints,
  // refused moves) would otherwise pile up over the board.
  for (const old of [...box.children]) if (old.textContent === text) old.remove();
  // Over the middle of the part of a board on the screen (a game's, the analysis board), where
  // it hides no bar, status line or button; below a board scrolled almost out of sight; else
  // over the middle of the screen (web/app.css).
  const b = document.querySelector('main .board-host .board');
  const r = b && b.getBoundingClientRect();
  const top = r ? Math.max(r.top, 0) : 0;
  const bottom = r ? Math.min(r.bottom, innerHeight) : 0;
  const over = bottom - top >= 200;
  const half = Math.min(innerWidth * 0.92, 420) / 2;
  box.style.setProperty('--toast-y', over ? `${Math.round((top + bottom) / 2)}px` : r && r.height && r.bottom < innerHeight / 2 ? '75%' : '50%');
  box.style.setProperty('--toast-x', over ? `${Math.round(Math.max(half, Math.min(innerWidth - half, (r.left + r.right) / 2)))}px` : '50%');
  box.append(el);
  while (box.children.length > MAX_TOASTS) box.firstElementChild.remove();
  setTimeout(() => el.remove(), ms);
  return el;
}

// Counts announcements, so that a late one does not overwrite a newer one or a clearing.
let announced = 0;

/** Says something to screen readers through the polite live region. */
export function announce(text) {
  const live = document.getElementById('live');
  live.textContent = '';
  const n = ++announced;
  // Unless something newer (or a change of language, which empties the region) came first.
  requestAnimationFrame(() => { if (n === announced) live.textContent = text; });
}

/**
 * Empties the live region: what it last said was in the old language after a switch, and
 * should not be read again in it.
 */
export function clearAnnouncement() {
  announced += 1;
  const live = document.getElementById('live');
  if (live) live.textContent = '';
}

/**
 * A selector of an element's equivalent in a screen drawn anew (its data-test, move, square or
 * id), for a dialog to give the focus back to: a move may redraw the screen while it is open.
 */
function focusKey(el) {
  const d = (el && el.dataset) || {};
  if (d.test) return `[data-test="${d.test}"]`;
  if (d.ply !== undefined) return `[data-ply="${d.ply}"]`;
  if (d.sq) return `[data-sq="${d.sq}"]`;
  return el && el.id ? `#${CSS.escape(el.id)}` : null;
}

/** Whether an element can take the focus: there, not disabled, not hidden. */
export function usable(el) {
  return Boolean(el && el.isConnected && !el.disabled && !el.closest('[hidden]') && el.getClientRects().length);
}

/**
 * A modal dialog with a title, body and buttons; resolves with the value of the button pressed
 * (Escape resolves with null). Focus is kept inside and returned afterwards: to the element
 * focused before, or its equivalent in a redrawn screen, else to the first of `opts.fallback`
 * (selectors) that can take it. `opts.handle.close(v)` closes it from outside. The focus starts
 * on the button `opts.focus` names (its data-test), else on the primary one.
 */
export function modal(title, body, buttons, opts = {}) {
  return new Promise((resolve) => {
    const prev = document.activeElement === document.body ? null : document.activeElement;
    const key = focusKey(prev);
    const dlg = h('dialog', { class: 'modal', 'aria-labelledby': 'modal-title' });
    const close = (v) => {
      if (!dlg.isConnected) return;
      dlg.close();
      dlg.remove();
      const back = [prev, key && document.querySelector(key), ...(opts.fallback || []).map((s) => document.querySelector(s))].find(usable);
      if (back) back.focus();
      resolve(v);
    };
    if (opts.handle) opts.handle.close = close;
    dlg.append(
      h('h2', { id: 'modal-title' }, title),
      body instanceof Node ? body : h('p', {}, body || ''),
      h('div', { class: 'modal-buttons' },
        buttons.map((b) => h('button', {
          type: 'button', class: b.primary ? 'primary' : '', 'data-value': String(b.value), 'data-test': b.test || false, onclick: () => close(b.value),
        }, b.label))),
    );
    dlg.addEventListener('cancel', (e) => { e.preventDefault(); close(null); });
    document.body.append(dlg);
    dlg.showModal();
    const first = (opts.focus && dlg.querySelector(`[data-test="${opts.focus}"]`)) || dlg.querySelector('button.primary') || dlg.querySelector('button');
    if (first) first.focus();
  });
}

/**
 * Asks a yes/no question; resolves true when confirmed. `labels` names the two buttons by what
 * they do (`{ yes: 'Abort game', no: 'Keep playing' }`): a plain Cancel / Confirm is unclear
 * where the action itself is a cancelling (取消对局 with a 取消 button). `opts`: as modal()'s;
 * `opts.safe`: the question is about something that cannot be undone (resign, abort, log out),
 * and the focus starts on the button that keeps things as they are (Enter twice never resigns).
 */
export async function confirmDialog(title, text, labels = {}, opts = {}) {
  const v = await modal(title, text, [
    { label: labels.no || t('cancel'), value: false, test: 'confirm-no' },
    { label: labels.yes || t('confirm'), value: true, primary: true, test: 'confirm-yes' },
  ], opts.safe ? { ...opts, focus: 'confirm-no' } : opts);
  return v === true;
}

/** Formats milliseconds as m:ss, or m:ss.t under 10 seconds. */
export function fmtClock(ms) {
  const v = Math.max(0, ms);
  if (v < 10000) return `0:0${(v / 1000).toFixed(1)}`.replace(/^0:0(\d\d)/, '0:$1');
  const s = Math.ceil(v / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** Formats a time control object as "10+0 · 60s" in the current language. */
export function fmtTc(tc) {
  if (!tc) return t('tc_none');
  const parts = [];
  // Whole minutes as "10+5"; anything else as minutes and seconds, "0:12+0" (not "0.2+0").
  const clock = tc.clock_s % 60 === 0 ? String(tc.clock_s / 60) : `${Math.floor(tc.clock_s / 60)}:${String(tc.clock_s % 60).padStart(2, '0')}`;
  if (tc.clock_s) parts.push(`${clock}+${tc.inc_s || 0}`);
  if (tc.move_s) parts.push(t('tc_per_move', { s: tc.move_s }));
  return parts.length ? parts.join(' · ') : t('tc_unlimited');
}

/** Copies text to the clipboard; falls back to a selectable dialog. */
export async function copyText(text, what) {
  try {
    await navigator.clipboard.writeText(text);
    toast(t('copied', { what }));
  } catch {
    const ta = h('textarea', { class: 'copy-box', readonly: true, rows: 6, 'aria-label': what }, text);
    const p = modal(what, ta, [{ label: t('close'), value: true, primary: true }]);
    ta.select();
    await p;
  }
}

/** Saves text as a UTF-8 file named `name` through the browser's download. */
export function downloadText(text, name) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  const a = h('a', { href: url, download: name, hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
  // Revoked once the browser has taken the file.
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

/**
 * The form check the browser's own bubbles would make, in the page's language: the first of
 * `fields` ([input, message key]) left empty is focused and its message returned; null when
 * all are filled. Each is marked invalid or not for screen readers.
 */
export function emptyFieldMessage(fields) {
  let first = null;
  for (const [input, key] of fields) {
    // A password is taken as typed; a name of spaces is no name.
    const empty = (input.type === 'password' ? input.value : input.value.trim()) === '';
    if (empty) input.setAttribute('aria-invalid', 'true');
    else input.removeAttribute('aria-invalid');
    if (empty && !first) first = { input, key };
  }
  if (!first) return null;
  first.input.focus();
  return t(first.key);
}
