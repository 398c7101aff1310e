// The page without the server: the service worker that keeps the page on
// the phone (/host/sw.js), the note for an address where the browser allows
// none, and a game made on the phone when the server cannot be reached (the
// engine here deals from a seed of the phone's own randomness; sync.js sends
// the game to the server first when the connection returns).

import * as E from './engine.js';
import { h } from './dom.js';
import { button } from './ui.js';
import { t } from './i18n.js';
import { randomBytes, randomHex } from './storage.js';

const NOTED = 'assist.no_worker_noted';

/** Can this address keep the page on the phone? */
export const canKeep = () => window.isSecureContext && 'serviceWorker' in navigator;

/** Registers the service worker that keeps the page (where the browser allows one). */
export async function keepOnPhone() {
  if (!canKeep()) return;
  try {
    await navigator.serviceWorker.register('/host/sw.js', { scope: '/host/' });
  } catch (_) {
    // The page works as before; it only cannot open without the server.
  }
}

/**
 * The note, shown until the host acknowledges it, that this address (plain
 * http on the local network) cannot open the page without the server; null
 * where the page is kept, or once acknowledged.
 */
export function workerNote(redraw) {
  if (canKeep()) return null;
  try { if (localStorage.getItem(NOTED)) return null; } catch (_) { /* private mode */ }
  return h('section', { class: 'card', dataset: { t: 'no-worker' } },
    h('p', { class: 'warn' }, t('assist.offline.no_sw')),
    button(t('assist.offline.ok'), () => {
      try { localStorage.setItem(NOTED, '1'); } catch (_) { /* private mode */ }
      redraw();
    }, 'secondary small', 'no-worker-ok'));
}

/** A deal's seed: 64 random bits in decimal. */
function newSeed() {
  let n = 0n;
  for (const x of randomBytes(8)) n = (n << 8n) | BigInt(x);
  return n.toString();
}

/**
 * Makes a game on this phone from the setup's request (the body the server
 * would have been sent): {rec} with the deal, a fresh id and host token and
 * the create to send later (rec.create), or {error} with the engine's
 * refusal. Card links are refused: they need the server.
 */
export function makeHere(body) {
  const seed = body.deal === 'manual' ? '0' : newSeed();
  const r = E.deal(body, seed);
  if (r.error) return { error: r.error };
  const id = randomHex(8);
  const token = randomHex(24);
  const created = new Date().toISOString();
  const create = { ...body, id, host_token: token, dealt: r.settings.roles, created };
  if (body.deal !== 'manual') create.seed = seed;
  return { rec: { id, token, settings: r.settings, cards: [], commands: [], synced: 0, created, ui: {}, create } };
}
