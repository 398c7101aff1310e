// Live co-hosting, the host's side: inviting a referee (or a second host)
// by a one-time link and its QR code, and the corrections they propose.
// The host's phone stays the one writer of the game's entries: it reads the
// corrections with the game (GET /host/api/games/{id}/live) every few
// seconds, in the server's order; a foul a co-host adds is entered here at
// once as the host's own foul entry and marked applied; any other
// correction waits in the list, where the host marks it done (after fixing
// the game, with Undo and the entries again) or declines it. Offline, the
// reads pause and resume with the connection.

import * as E from './engine.js';
import { h } from './dom.js';
import { mount, button, toast } from './ui.js';
import { t, current } from './i18n.js';
import { send } from './sync.js';

// How often the corrections are read: every second once this phone invited
// someone (rec.cohosts), otherwise now and then (a phone the game moved to
// learns of the co-hosts so).
const EVERY = 1000;
const SELDOM = 15000;

/** A correction as both phones list it: "Nino: a foul for 3 · Levan". */
export function fixLine(fix, who) {
  return t(`assist.cohost.${fix.kind}`, { By: fix.by, Who: fix.seat ? who(fix.seat) : '', Count: fix.count || 0, Text: fix.text || '' });
}

/** The list of corrections, each with its writer and its state; act(fix) adds the host's buttons. */
export function fixList(fixes, who, act) {
  if (!fixes.length) return h('p', { class: 'note', dataset: { t: 'no-fixes' } }, t('assist.cohost.none'));
  return h('ol', { class: 'fixes', dataset: { t: 'fixes' } }, fixes.map((f) => h('li', { dataset: { seq: String(f.seq), state: f.state } },
    h('span', {}, fixLine(f, who)), ' ', h('em', {}, t(`assist.cohost.${f.state}`)), act ? act(f) : null)));
}

/**
 * Watches game G's corrections while it is open: returns a stop function.
 * Pending fouls are entered in the server's order, one at a time.
 */
export function watchFixes(G) {
  let stopped = false;
  let timer = null;
  const tick = async () => {
    timer = null;
    if (stopped) return;
    if (!G.rec.create && !G.diverged()) await readFixes(G);
    if (!stopped) timer = setTimeout(tick, G.rec.cohosts ? EVERY : SELDOM);
  };
  timer = setTimeout(tick, EVERY);
  return () => { stopped = true; clearTimeout(timer); };
}

/** Reads the corrections once, and applies the fouls that wait. */
async function readFixes(G) {
  const got = await send('GET', `/host/api/games/${G.rec.id}/live`, undefined, G.rec.token);
  if (!got || !got.res.ok) return;
  G.fixes = got.body.fixes || [];
  G.cohosts = got.body.cohosts || [];
  if (G.cohosts.length && !G.rec.cohosts) { G.rec.cohosts = G.cohosts.length; G.save(); }
  // A correction that waits for the host is said once on this phone (the
  // list is in the game's menu: Invite a referee).
  G.seenFixes = G.seenFixes || new Set();
  for (const f of G.fixes) {
    if (f.state !== 'proposed' || f.kind === 'foul_add' || G.seenFixes.has(f.seq)) continue;
    G.seenFixes.add(f.seq);
    toast(fixLine(f, (s) => G.who(s)));
  }
  for (const f of G.fixes) {
    if (f.state !== 'proposed' || f.kind !== 'foul_add') continue;
    if (G.saving) return; // a tap's entries are being saved: next time
    await applyFoul(G, f);
  }
}

/**
 * Enters a co-host's foul as the host's own entry, then marks it applied.
 * The phone keeps which correction each entry applied (rec.fixed, saved
 * with the entry), so a correction whose mark was lost on the way is
 * marked again, never entered twice.
 */
async function applyFoul(G, f) {
  G.rec.fixed = G.rec.fixed || {};
  const done = G.rec.fixed[f.seq];
  if (done) { await settle(G, f, 'applied', done); return; }
  const foul = { verb: 'foul', target: f.seat };
  if (G.refusal(foul)) { // the engine would refuse it (the seat is out, the game over): declined
    await settle(G, f, 'declined', 0);
    return;
  }
  const entry = G.rec.commands.length + 1;
  G.rec.fixed[f.seq] = entry;
  if (!(await G.do([foul]))) { // not saved on the phone: tried again at the next read
    delete G.rec.fixed[f.seq];
    return;
  }
  toast(t('assist.cohost.foul_given', { By: f.by, Who: G.who(f.seat) }));
  await settle(G, f, 'applied', entry);
}

/** Marks a correction applied or declined on the server. */
async function settle(G, f, state, entry) {
  const got = await send('PUT', `/host/api/games/${G.rec.id}/fixes/${f.seq}`, { state, entry }, G.rec.token);
  if (got && got.res.ok) f.state = state;
}

/** The invitation and the corrections, from the game's menu. */
export function cohostScreen(G, made) {
  // A tournament's table names its referee (the game's club fields): the invitation is theirs by default.
  const named = (G.rec.settings.club && G.rec.settings.club.referee) || '';
  const name = h('input', { type: 'text', maxlength: 32, value: named, dataset: { t: 'cohost-name' }, placeholder: t('assist.cohost.name') });
  const invite = async () => {
    const got = await send('POST', `/host/api/games/${G.rec.id}/cohosts`, { name: name.value }, G.rec.token);
    if (!got) { toast(t('assist.join.offline'), 'error'); return; }
    if (!got.res.ok) { toast((got.body.error && got.body.error.message) || String(got.res.status), 'error'); return; }
    G.cohosts = got.body.cohosts;
    G.rec.cohosts = G.cohosts.length;
    G.save();
    cohostScreen(G, `${location.origin}/host/?lang=${current()}#/follow/${G.rec.id}/${got.body.code}`);
  };
  const code = made ? E.qr(made) : null;
  const act = (f) => (f.state === 'proposed' && f.kind !== 'foul_add' ? h('span', { class: 'actions' },
    button(t('assist.cohost.apply'), async () => { await settle(G, f, 'applied', 0); cohostScreen(G); }, 'secondary small', `fix-apply-${f.seq}`),
    button(t('assist.cohost.decline'), async () => { await settle(G, f, 'declined', 0); cohostScreen(G); }, 'secondary small', `fix-decline-${f.seq}`)) : null);
  const waiting = (G.fixes || []).some((f) => f.state === 'proposed' && f.kind !== 'foul_add');
  mount(
    h('header', { class: 'step-head', dataset: { t: 'cohost-screen' } }, h('h2', {}, t('assist.cohost.title'))),
    h('p', { class: 'note' }, t('assist.cohost.hint')),
    made ? [
      code && code.svg ? h('img', { class: 'qr', alt: t('assist.cohost.qr_alt'), dataset: { t: 'cohost-qr' },
        src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(code.svg)}` }) : null,
      h('input', { type: 'text', readonly: true, class: 'link', value: made, dataset: { t: 'cohost-link' }, onfocus: (e) => e.target.select() }),
      h('p', { class: 'warn' }, t('assist.cohost.secret')),
    ] : h('div', { class: 'actions' }, name, button(t('assist.cohost.make'), invite, 'primary', 'cohost-make')),
    (G.cohosts || []).length ? h('p', { class: 'note', dataset: { t: 'cohosts' } }, G.cohosts.map((c) => c.name).join(', ')) : null,
    h('h3', {}, t('assist.cohost.list')),
    fixList(G.fixes || [], (s) => G.who(s), act),
    waiting ? h('p', { class: 'note' }, t('assist.cohost.undo_hint')) : null,
    h('div', { class: 'actions' }, button(t('assist.back'), () => G.render(), 'primary', 'back')));
}
