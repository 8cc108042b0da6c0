// Shared helpers of the browser tests: Debian's Chromium driven by playwright-core, against a
// running `jungle serve` whose URL is in JUNGLE_URL (scripts/test-e2e.sh starts one).

import { chromium } from 'playwright-core';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const ARTIFACTS = path.join(here, 'artifacts');
export const BASE = process.env.JUNGLE_URL || '';
/** Longest wait for anything the page should show. */
export const WAIT = 15000;

if (!BASE) throw new Error('JUNGLE_URL is not set: run scripts/test-e2e.sh, or start `jungle serve` and export JUNGLE_URL');

const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Starts Debian's Chromium (never a downloaded browser). */
export async function launch() {
  return chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ARGS, timeout: 30000 });
}

/**
 * Opens the client in a fresh browser context (its own cookies, so its own player) and waits
 * until it has a session. `opts`: locale, viewport, isMobile, hasTouch, hash.
 */
export async function openPlayer(browser, opts = {}) {
  const context = await browser.newContext({
    locale: opts.locale || 'en-US',
    viewport: opts.viewport || { width: 1200, height: 900 },
    isMobile: opts.isMobile || false,
    hasTouch: opts.hasTouch || false,
    deviceScaleFactor: 1,
  });
  context.setDefaultTimeout(WAIT);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.errors = errors;
  await page.goto(BASE + (opts.hash || '/'));
  await page.waitForSelector('body[data-ready="1"]');
  await page.waitForSelector('[data-test=me]');
  return { context, page };
}

/** Saves a screenshot under e2e/artifacts/ (and, with `keep`, copies it to doc/screenshots/). */
export async function shot(page, name, keep = false) {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const file = path.join(ARTIFACTS, `${name}.png`);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: file, fullPage: false });
  if (keep && process.env.KEEP_SCREENSHOTS === '1') {
    const dir = path.join(here, '..', 'doc', 'screenshots');
    fs.mkdirSync(dir, { recursive: true });
    fs.copyFileSync(file, path.join(dir, `${name}.png`));
  }
  return file;
}

/** A name nobody has registered yet. */
export function uniqueName(prefix) {
  return `${prefix}${Date.now().toString(36).slice(-5)}${Math.floor(Math.random() * 1000)}`;
}

/** Registers the page's (guest) player under `name`. */
export async function register(page, name, password = 'correct horse 42') {
  await page.goto(`${BASE}/#/login`);
  const form = page.locator('[data-test=register-form]');
  await form.locator('input[name=name]').fill(name);
  await form.locator('input[name=password]').fill(password);
  await form.locator('input[name=password2]').fill(password);
  await form.locator('button[type=submit]').click();
  await page.waitForFunction((n) => document.querySelector('[data-test=me]')?.textContent === n, name);
}

/** The id of the game the page shows (from `#/g/{id}`). */
export async function gameId(page) {
  await page.waitForURL(/#\/g\/[^/]+$/);
  await page.locator('.player.bottom .pinfo').waitFor();
  await page.locator('.board .piece').first().waitFor();
  return decodeURIComponent(new URL(page.url()).hash.replace('#/g/', ''));
}

/** Number of moves in the move list. */
export async function moveCount(page) {
  return page.locator('.moves .mv[data-ply]').count();
}

/** Waits until the move list holds `n` moves. */
export async function waitMoves(page, n) {
  try {
    await page.waitForFunction((k) => document.querySelectorAll('.moves .mv[data-ply]').length >= k, n);
  } catch (e) {
    await shot(page, `failed-wait-${n}-moves-${Date.now()}`).catch(() => {});
    throw e;
  }
}

/** Plays a coordinate move by clicking the two squares (click-click). */
export async function clickMove(page, move) {
  const before = await moveCount(page);
  await page.locator(`.board [data-sq="${move.slice(0, 2)}"]`).click();
  await page.locator(`.board [data-sq="${move.slice(2, 4)}"].dest, .board [data-sq="${move.slice(2, 4)}"].dest-capture`).click();
  await waitMoves(page, before + 1);
}

/** Plays a move by tapping the two squares (touch). */
export async function tapMove(page, move) {
  const before = await moveCount(page);
  await page.locator(`.board [data-sq="${move.slice(0, 2)}"]`).tap();
  await page.locator(`.board [data-sq="${move.slice(2, 4)}"].dest, .board [data-sq="${move.slice(2, 4)}"].dest-capture`).tap();
  await waitMoves(page, before + 1);
}

/** Waits for the end-of-game dialog and returns its text. */
export async function endingText(page) {
  const dlg = page.locator('dialog.modal[open]');
  await dlg.waitFor();
  return dlg.innerText();
}

/** A fixed legal sequence that ends with Red's leopard entering Blue's den (checked with `jungle moves`). */
export const DEN_WIN = ['e3d3', 'a7a6', 'd3d4', 'a6a5', 'd4d5', 'a5a4', 'd5d6', 'b8b7', 'd6d7', 'f8f7', 'd7d8', 'g9g8', 'd8d9'];
