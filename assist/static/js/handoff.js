// Handing a game over to another phone, and what the first phone sees
// afterwards. The game's menu shows a link and its QR code (drawn by the
// engine module, so it works offline) that carries the game's id and the
// host's token in the URL's fragment, which no request line carries. The
// other phone opening it (#/join/{id}/{token}) loads the settings and the
// entries from the server into its own storage and goes on from the same
// screen. The first phone, if it keeps entering, is refused with diverged
// by the server: it then says the game continues on another phone and
// offers to load the server's game, dropping its own unsynced entries after
// a confirmation that says how many.

import * as E from './engine.js';
import * as storage from './storage.js';
import { h } from './dom.js';
import { mount, button, toast } from './ui.js';
import { t, tn, current } from './i18n.js';
import { confirmUndo } from './undo.js';
import { namesScreen } from './names.js';
import { cohostScreen } from './cohost.js';

/** The game's menu: undo, open on another phone, back to the start. */
export function menuScreen(G) {
  mount(
    h('header', { class: 'step-head' }, h('h2', {}, t('assist.menu.title'))),
    h('div', { class: 'menu' },
      button(t('assist.menu.undo'), () => confirmUndo(G), 'secondary', 'menu-undo'),
      button(t('assist.menu.handoff'), () => handoffScreen(G), 'secondary', 'handoff'),
      button(t('assist.menu.cohost'), () => cohostScreen(G), 'secondary', 'menu-cohost'),
      button(t('assist.menu.names'), () => namesScreen(G), 'secondary', 'menu-names'),
      button(t('assist.home'), () => { location.hash = '#/'; }, 'secondary', 'menu-home'),
      button(t('assist.back'), () => G.render(), 'primary', 'back')));
}

/** The link that opens game rec on another phone (the token in the fragment). */
export function handoffLink(rec) {
  return `${location.origin}/host/?lang=${current()}#/join/${rec.id}/${rec.token}`;
}

/** Shows the hand-off link and its QR code. */
export function handoffScreen(G) {
  const link = handoffLink(G.rec);
  const waiting = G.syncer.waiting();
  const code = E.qr(link);
  const field = h('input', { type: 'text', readonly: true, class: 'link', value: link, dataset: { t: 'handoff-link' },
    onfocus: (e) => e.target.select() });
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      toast(t('assist.handoff.copied'));
    } catch (_) {
      field.focus();
      field.select();
    }
  };
  mount(
    h('header', { class: 'step-head' }, h('h2', {}, t('assist.handoff.title'))),
    G.rec.create ? h('p', { class: 'warn', dataset: { t: 'handoff-not-created' } }, t('assist.handoff.not_created')) : null,
    waiting > 0 ? h('p', { class: 'warn', dataset: { t: 'handoff-waiting' } }, tn('assist.handoff.waiting', waiting, { Count: waiting })) : null,
    h('p', { class: 'note' }, t('assist.handoff.hint')),
    code.svg ? h('img', { class: 'qr', alt: t('assist.handoff.qr_alt'), dataset: { t: 'handoff-qr' },
      src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(code.svg)}` }) : null,
    field,
    h('p', { class: 'warn' }, t('assist.handoff.secret')),
    h('p', { class: 'note' }, t('assist.handoff.stop')),
    h('div', { class: 'actions' },
      button(t('assist.handoff.copy'), copy, 'secondary', 'copy-link'),
      button(t('assist.back'), () => G.render(), 'primary', 'back')));
}

/** Loads game id from the server: {ok, game} or {ok: false, message}. */
async function fetchGame(id, token) {
  let res;
  let body;
  try {
    res = await fetch(`/host/api/games/${id}`, { headers: { Authorization: `Bearer ${token}` } });
    body = await res.json();
  } catch (_) {
    return { ok: false, offline: true, message: t('assist.join.offline') };
  }
  if (!res.ok) return { ok: false, message: t('assist.join.failed', { Message: (body.error && body.error.message) || res.status }) };
  return { ok: true, game: body };
}

/** How many of the phone's entries the server does not hold at their place. */
function unheld(local, server) {
  return local.filter((c, i) => !server.commands[i] || server.commands[i].id !== c.id).length;
}

/** The other phone: opens the hand-off link, loads the game, goes on. */
export async function joinScreen(id, token) {
  const retry = () => joinScreen(id, token);
  mount(h('p', { class: 'note', dataset: { t: 'joining' } }, t('assist.join.loading')));
  const r = await fetchGame(id, token);
  if (!r.ok) {
    mount(h('p', { class: 'error', dataset: { t: 'join-failed' } }, r.message),
      h('div', { class: 'actions' },
        button(t('assist.join.retry'), retry, 'primary', 'retry'),
        button(t('assist.home'), () => { location.hash = '#/'; }, 'secondary', 'home')));
    return;
  }
  const g = r.game;
  const local = await storage.get(id);
  const load = async () => {
    const rec = {
      id, token, settings: g.settings, cards: (local && local.cards) || [], commands: g.commands, synced: g.commands.length,
      created: (local && local.created) || new Date().toISOString(), ended: !!g.ended,
      // The deal happened on the first phone, unless the host still passes this one round.
      ui: { dealt: g.commands.length > 0 || g.settings.deal !== 'pass', resume: true },
    };
    try {
      await storage.save(rec);
    } catch (_) {
      toast(t('assist.storage.failed'), 'error');
      return;
    }
    location.replace(`#/game/${id}`);
    toast(t('assist.join.loaded'));
  };
  const drop = local ? unheld(local.commands || [], g) : 0;
  if (!drop) { load(); return; }
  mount(h('p', { class: 'warn', dataset: { t: 'join-replace' } }, tn('assist.join.replace', drop, { Count: drop })),
    h('div', { class: 'actions' },
      button(t('assist.diverged.confirm'), load, 'primary', 'confirm-join'),
      button(t('assist.cancel'), () => { location.replace(`#/game/${id}`); }, 'secondary', 'cancel-join')));
}

/** The first phone once the server holds another phone's entries. */
export function divergedScreen(G) {
  const reload = async () => {
    const r = await fetchGame(G.rec.id, G.rec.token);
    if (!r.ok) { toast(r.message, 'error'); return; }
    const drop = unheld(G.rec.commands, r.game);
    if (!drop) { G.replace(r.game); return; }
    mount(
      h('header', { class: 'step-head' }, h('h2', {}, t('assist.diverged.title'))),
      h('p', { class: 'warn', dataset: { t: 'drop-count', count: String(drop) } }, tn('assist.diverged.drop', drop, { Count: drop })),
      h('div', { class: 'actions' },
        button(t('assist.diverged.confirm'), () => G.replace(r.game), 'primary', 'confirm-reload'),
        button(t('assist.cancel'), () => G.render(), 'secondary', 'cancel-reload')));
  };
  mount(
    h('section', { class: 'announce diverged', dataset: { t: 'diverged' } },
      h('h2', {}, t('assist.diverged.title')),
      h('p', {}, t('assist.diverged.text'))),
    h('div', { class: 'actions' },
      button(t('assist.diverged.reload'), reload, 'primary', 'reload-game'),
      button(t('assist.home'), () => { location.hash = '#/'; }, 'secondary', 'home')));
}
