// Dealing the cards, three ways: (a) each player opens a link or scans its
// QR code on their own phone (the token rides in the link's fragment, and
// the page draws the code itself, so no request ever carries it); (b) the host's phone is passed round, one card
// at a time behind "tap to reveal / tap to hide", each card drawn as the
// online table draws it (what it does at night, how it wins); (c) the cards were dealt by
// hand and entered at the setup.

import { h } from './dom.js';
import { mount, button, guard } from './ui.js';
import { t, current } from './i18n.js';
import { name } from './engine.js';
import * as E from './engine.js';
import { roleCard, sideOf } from './rolecard.js';

let poll = null;

/** Draws the deal of the game's mode. */
export function dealScreen(G) {
  clearInterval(poll);
  const s = G.rec.settings;
  const ui = G.rec.ui;
  const done = () => { clearInterval(poll); ui.dealt = true; G.save(); G.render(); };
  if (s.deal === 'manual') { done(); return; }
  if (s.deal === 'pass') { passScreen(G, done); return; }
  const seen = new Set(ui.seen || []);
  const cards = G.rec.cards || [];
  const list = h('ol', { class: 'cards', dataset: { t: 'card-links' } }, cards.map((c) => {
    // The link opens the card in the host's language (the page offers the others).
    const [path, token] = c.url.split('#');
    const url = `${location.origin}${path}?lang=${current()}#${token}`;
    return h('li', { dataset: { seat: String(c.seat) }, class: seen.has(c.seat) ? 'seen' : '' },
      h('div', { class: 'card-who' }, G.who(c.seat), h('span', { class: 'tick' }, seen.has(c.seat) ? ` ✓ ${t('assist.deal.seen')}` : '')),
      qrImage(url, t('assist.deal.qr_alt', { Who: G.who(c.seat) }), c.seat),
      h('a', { class: 'link', href: url, target: '_blank', rel: 'noopener' }, url));
  }));
  mount(
    h('header', { class: 'step-head' }, h('h2', {}, t('assist.deal.links_title'))),
    h('p', { class: 'note' }, t('assist.deal.links_hint')),
    h('p', { class: 'count-line', dataset: { t: 'seen-count' } }, t('assist.deal.seen_count', { Seen: seen.size, All: cards.length })),
    list,
    button(t('assist.deal.start'), done, 'primary', 'start-night'));
  poll = setInterval(async () => {
    if (!document.body.contains(list)) { clearInterval(poll); return; }
    try {
      const r = await fetch(`/host/api/games/${G.rec.id}/cards`, { headers: { Authorization: `Bearer ${G.rec.token}` } });
      if (!r.ok) return;
      const v = (await r.json()).viewed || [];
      if (v.length !== seen.size) { ui.seen = v; G.save(); G.render(); }
    } catch (_) { /* offline: the list stays as it is */ }
  }, 3000);
}

function passScreen(G, done) {
  const ui = G.rec.ui;
  const s = G.rec.settings;
  ui.pass = ui.pass || { seat: 1, shown: false };
  const p = ui.pass;
  const n = s.names.length;
  const set = (seat, shown) => { p.seat = seat; p.shown = shown; G.save(); G.render(); };
  if (p.seat > n) {
    mount(h('header', { class: 'step-head' }, h('h2', {}, t('assist.deal.pass_done'))),
      h('p', { class: 'say' }, t('assist.deal.pass_back')),
      button(t('assist.deal.start'), done, 'primary', 'start-night'));
    return;
  }
  const who = G.who(p.seat);
  if (!p.shown) {
    mount(h('header', { class: 'step-head' }, h('div', { class: 'step-kicker' }, t('assist.deal.pass_title', { Seat: p.seat, All: n })),
      h('h2', {}, t('assist.deal.pass_to', { Who: who }))),
    h('button', { type: 'button', class: 'card-face hidden-card', dataset: { t: 'reveal' }, onclick: guard(() => set(p.seat, true)) }, t('assist.card.reveal')));
    return;
  }
  // The card shown is the card as the online table draws it (rolecard.js):
  // its name and side on the face, then what it does at night, how it wins
  // and a tip; hidden again, none of it stays on the screen.
  const role = s.roles[p.seat - 1];
  mount(h('header', { class: 'step-head' }, h('div', { class: 'step-kicker' }, who)),
    h('button', { type: 'button', class: `card-face shown with-card role-${role}`, dataset: { t: 'hide' }, onclick: guard(() => set(p.seat + 1, false)) },
      h('span', { class: 'role-name', dataset: { t: 'role' } }, name('role', role)),
      h('span', { class: 'role-side', dataset: { t: 'side' } }, t('web.card.team', { Team: t(`team.${sideOf(role)}`) })),
      h('span', { class: 'tap' }, t('assist.card.hide'))),
    roleCard(role, false, true));
}

/** The QR code of a card link, drawn here by the engine module (never fetched: the link holds the token). */
function qrImage(url, alt, seat) {
  const code = E.qr(url);
  if (!code.svg) return null;
  return h('img', { class: 'qr', alt, dataset: { t: 'card-qr', seat: String(seat) },
    src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(code.svg)}` });
}
