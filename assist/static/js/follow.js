// Live co-hosting, the referee's side: the phone of a referee (or a second
// host) the host invited follows the game and proposes corrections. The
// invitation's link (#/follow/{id}/{code}) carries a one-time code: this
// phone spends it for a key of its own (kept in localStorage under the
// game's id), and the address loses the code. Every second the page reads
// the game (GET /host/api/games/{id}/live) and replays the host's entries
// through the same engine, so it shows what the host's phone shows: the
// step, the speaker, each seat's card and fouls, who is out, the game's
// log (the votes), and the corrections with who proposed them. Offline it
// keeps the last game it saw and says so; it catches up at the next read.
// It never enters the game's entries: a correction is a proposal the
// host's phone applies (cohost.js).

import * as E from './engine.js';
import * as storage from './storage.js';
import { h } from './dom.js';
import { mount, button, toast, range } from './ui.js';
import { t, tn, current } from './i18n.js';
import { name } from './engine.js';
import { send } from './sync.js';
import { fixList } from './cohost.js';

const EVERY = 1000;
const keyOf = (id) => `assist.cohost.${id}`;

let running = null; // the game followed now: {id, stop}

/** Stops following (another route). */
export function stopFollowing() {
  if (running) running.stop();
  running = null;
}

/** Opens the invitation (code) or the game this phone follows already. */
export async function followScreen(id, code) {
  stopFollowing();
  mount(h('p', { class: 'note', dataset: { t: 'follow-loading' } }, t('assist.follow.loading')));
  let key = localStorage.getItem(keyOf(id));
  if (code && !key) {
    const got = await send('POST', `/host/api/games/${id}/cohosts/join`, { code });
    if (!got || !got.res.ok) {
      failed(id, code, got ? (got.body.error && got.body.error.message) || String(got.res.status) : t('assist.join.offline'));
      return;
    }
    key = got.body.key;
    localStorage.setItem(keyOf(id), key);
  }
  if (code) history.replaceState(null, '', `/host/?lang=${current()}#/follow/${id}`);
  if (!key) { failed(id, code, t('assist.error.not_cohost')); return; }
  const F = { id, key, live: null, offline: false, stopped: false, timer: null };
  F.stop = () => { F.stopped = true; clearTimeout(F.timer); };
  running = F;
  const tick = async () => {
    F.timer = null;
    await read(F);
    if (!F.stopped) F.timer = setTimeout(tick, EVERY);
  };
  await tick();
}

function failed(id, code, message) {
  mount(h('p', { class: 'error', dataset: { t: 'follow-failed' } }, t('assist.follow.failed', { Message: message })),
    h('div', { class: 'actions' },
      button(t('assist.join.retry'), () => followScreen(id, code), 'primary', 'retry'),
      button(t('assist.home'), () => { location.hash = '#/'; }, 'secondary', 'home')));
}

/** Reads the game once and draws it if anything changed. */
async function read(F) {
  const got = await send('GET', `/host/api/games/${F.id}/live`, undefined, F.key);
  if (F.stopped) return;
  if (!got) {
    if (!F.offline) { F.offline = true; draw(F); }
    return;
  }
  if (!got.res.ok) {
    F.stop();
    failed(F.id, null, (got.body.error && got.body.error.message) || String(got.res.status));
    return;
  }
  const before = F.live ? JSON.stringify([F.live.commands.length, F.live.fixes]) : '';
  const was = F.offline;
  F.offline = false;
  F.live = got.body;
  if (was || before !== JSON.stringify([F.live.commands.length, F.live.fixes])) draw(F);
}

/** Proposes a correction; its id makes a repeat the same correction. */
async function propose(F, fix) {
  const got = await send('POST', `/host/api/games/${F.id}/fixes`, { id: storage.newID(), ...fix }, F.key);
  if (!got) { toast(t('assist.join.offline'), 'error'); return; }
  if (!got.res.ok) { toast((got.body.error && got.body.error.message) || String(got.res.status), 'error'); return; }
  toast(t('assist.follow.sent'));
  F.live.fixes = [...F.live.fixes.filter((f) => f.seq !== got.body.fix.seq), got.body.fix];
  draw(F);
}

/**
 * Draws the game. The first draw mounts the screen; later ones replace the
 * game's part only, so the correction being typed and the scroll stay.
 */
function draw(F) {
  const part = document.querySelector('[data-t="follow-live"]');
  if (!F.live) {
    const warn = h('p', { class: 'warn', dataset: { t: 'follow-offline' } }, t('assist.follow.offline'));
    if (part) part.replaceChildren(warn); else mount(warn);
    return;
  }
  const L = F.live;
  const names = L.settings.names;
  const who = (s) => t('assist.who', { Seat: s, Name: names[s - 1] || '' });
  const live = gamePart(F, who);
  if (part && part.dataset.game === F.id) {
    part.replaceChildren(...live);
    document.querySelector('[data-t="follow-fixes"]').replaceChildren(fixList(L.fixes, who));
    return;
  }
  const seats = range(names.length);
  const kind = h('select', { dataset: { t: 'fix-kind' } },
    h('option', { value: 'vote' }, t('assist.follow.kind_vote')), h('option', { value: 'night' }, t('assist.follow.kind_night')));
  const seat = h('select', { dataset: { t: 'fix-seat' }, 'aria-label': t('assist.follow.seat') }, seats.map((s) => h('option', { value: String(s) }, who(s))));
  const count = h('input', { type: 'number', min: 0, max: names.length, value: 0, dataset: { t: 'fix-count' }, 'aria-label': t('assist.follow.count') });
  const text = h('input', { type: 'text', maxlength: 200, dataset: { t: 'fix-text' }, placeholder: t('assist.follow.text') });
  const sendFix = () => (kind.value === 'vote'
    ? propose(F, { kind: 'vote', seat: Number(seat.value), count: Number(count.value) })
    : propose(F, { kind: 'night', seat: Number(seat.value), text: text.value }));
  mount(
    h('div', { dataset: { t: 'follow-live', game: F.id } }, live),
    h('h3', {}, t('assist.follow.propose')),
    h('div', { class: 'actions' }, kind, seat, count, text, button(t('assist.follow.send'), sendFix, 'secondary', 'fix-send')),
    h('h3', {}, t('assist.cohost.list')),
    h('div', { dataset: { t: 'follow-fixes' } }, fixList(L.fixes, who)));
}

/** The game as the host's phone shows it: the step, the seats, the log. */
function gamePart(F, who) {
  const L = F.live;
  const st = E.start(L.settings, L.commands).state;
  const seats = range(L.settings.names.length);
  const phase = name('phase', st.phase);
  const open = document.querySelector('[data-t="follow-log"]');
  return [
    h('header', { class: 'step-head', dataset: { t: 'follow' } },
      h('h2', { dataset: { t: 'follow-step', phase: st.phase, round: String(st.round) } },
        st.round ? `${phase} · ${st.round}` : phase),
      st.speaker ? h('p', { class: 'say', dataset: { t: 'follow-speaker' } }, who(st.speaker)) : null),
    F.offline ? h('p', { class: 'warn', dataset: { t: 'follow-offline' } }, t('assist.follow.offline')) : null,
    h('p', { class: 'note' }, t('assist.follow.you', { Name: L.you })),
    h('ul', { class: 'follow-seats' }, seats.map((s) => {
      const out = !st.alive.includes(s);
      return h('li', { class: out ? 'out' : '', dataset: { seat: String(s), fouls: String(st.fouls[s] || 0), out: String(out) } },
        h('span', { class: 'nm' }, who(s)), ' ',
        h('span', { class: 'sub' }, name('role', st.roles[s])), ' ',
        st.fouls[s] ? h('span', { class: 'mark', dataset: { t: `fouls-${s}` } }, tn('assist.fouls.count', st.fouls[s], { Count: st.fouls[s] })) : null,
        out ? h('em', {}, ` ${t('assist.follow.out')}`) : null,
        out || st.phase === 'ended' ? null : h('span', { class: 'actions' },
          button(t('assist.follow.foul_add'), () => propose(F, { kind: 'foul_add', seat: s }), 'secondary small', `foul-add-${s}`),
          st.fouls[s] ? button(t('assist.follow.foul_remove'), () => propose(F, { kind: 'foul_remove', seat: s }), 'secondary small', `foul-remove-${s}`) : null));
    })),
    h('details', { class: 'log', open: !!(open && open.open), dataset: { t: 'follow-log' } },
      h('summary', {}, t('assist.end.log')), h('ol', {}, E.log().slice(-12).map((l) => h('li', {}, l)))),
  ];
}
