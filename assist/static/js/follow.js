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
// host's phone applies (cohost.js). A correction of an earlier night (the
// mafia's shot, a check, the Doctor's save; a vote, repeat vote or "shall
// all of them leave?", whose hands this phone taps, the ones entered
// marked at first) rewrites the host's entries from there: this phone
// replays the whole list again at each read, so it shows the corrected game.

import * as E from './engine.js';
import * as storage from './storage.js';
import { h } from './dom.js';
import { mount, button, toast, range, seatGrid } from './ui.js';
import { t, tn, current } from './i18n.js';
import { name } from './engine.js';
import { send } from './sync.js';
import { fixList, recordedVote, CLOCK_EVERY } from './cohost.js';
import { fmt, beep, unlockAudio } from './timer.js';

const EVERY = 1000;
// The host's phone tells its clock every CLOCK_EVERY ms: a clock not heard
// of for this long is the host's phone gone (its network, its battery).
const LOST = 3 * CLOCK_EVERY;
const TICK = 200;
const keyOf = (id) => `assist.cohost.${id}`;

let running = null; // the game followed now: {id, stop}

/** Stops following (another route). */
export function stopFollowing() {
  if (running) running.stop();
  running = null;
}

/**
 * Follows game id by the invitation that names the logged-in account (no
 * code): the key it gets replaces any this phone held.
 */
export async function followByAccount(id) {
  const got = await send('POST', `/host/api/games/${id}/cohosts/account`, {});
  if (!got) { toast(t('assist.join.offline'), 'error'); return; }
  if (!got.res.ok) { toast((got.body.error && got.body.error.message) || String(got.res.status), 'error'); return; }
  localStorage.setItem(keyOf(id), got.body.key);
  location.hash = `#/follow/${id}`;
}

/** Opens the invitation (code) or the game this phone follows already. */
export async function followScreen(id, code) {
  stopFollowing();
  mount(h('p', { class: 'note', dataset: { t: 'follow-loading' } }, t('assist.follow.loading')));
  let key = localStorage.getItem(keyOf(id));
  if (code) {
    // A new link (the host gave this person a new code) replaces the key
    // this phone held; the link this phone spent already keeps it.
    const got = await send('POST', `/host/api/games/${id}/cohosts/join`, { code });
    const spentHere = key && got && got.body.error && got.body.error.code === 'invite_used';
    if (got && got.res.ok) {
      key = got.body.key;
      localStorage.setItem(keyOf(id), key);
    } else if (!spentHere) {
      failed(id, code, got ? (got.body.error && got.body.error.message) || String(got.res.status) : t('assist.join.offline'));
      return;
    }
  }
  if (code) history.replaceState(null, '', `/host/?lang=${current()}#/follow/${id}`);
  if (!key) { failed(id, code, t('assist.error.not_cohost')); return; }
  const F = { id, key, live: null, offline: false, stopped: false, timer: null, clock: null, sound: false };
  F.ticker = setInterval(() => showClock(F), TICK);
  window.__followClockLeft = () => (F.clock ? Math.round(clockLeft(F.clock)) : null); // for the tests
  F.stop = () => { F.stopped = true; clearTimeout(F.timer); clearInterval(F.ticker); };
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
  // The entries' ids, not their count: a rewrite may keep the count.
  const sig = (L) => JSON.stringify([L.commands.map((c) => c.id), L.fixes]);
  const before = F.live ? sig(F.live) : '';
  const was = F.offline;
  F.offline = false;
  F.live = got.body;
  F.clock = heardClock(got.body.clock, got.body.now);
  window.__followReads = (window.__followReads || 0) + 1; // for the tests: a read done
  if (was || before !== sig(F.live)) draw(F);
  showClock(F);
}

/**
 * The host's clock as this phone shows it from a read: the time left now
 * (the server counts how long ago it heard the host, so the two phones'
 * own clocks need not agree), from which it ticks on its own (since).
 * Not heard of for LOST ms, it stops where it would be and says so.
 */
function heardClock(c, now) {
  if (!c || !c.key) return null;
  const ago = Math.max(0, Date.parse(now) - Date.parse(c.at));
  const left = c.running ? Math.max(0, c.left - ago) : c.left;
  const lost = ago > LOST;
  return { key: c.key, seat: c.seat, total: c.total, left, running: c.running && !lost && left > 0, lost, since: Date.now() };
}

/** The clock's time left now. */
function clockLeft(c) {
  return c.running ? Math.max(0, c.left - (Date.now() - c.since)) : c.left;
}

/** Draws the clock (every TICK ms), with the signals at 10 s and 0 if the sound is on. */
function showClock(F) {
  const box = document.querySelector('[data-t="follow-clock-box"]');
  if (!box) return;
  const c = F.clock;
  box.hidden = !c;
  if (!c) { F.shown = null; return; }
  const ms = clockLeft(c);
  const who = F.live ? t('assist.who', { Seat: c.seat, Name: F.live.settings.names[c.seat - 1] || '' }) : String(c.seat);
  const face = box.querySelector('[data-t="follow-clock"]');
  // Only what changed is written: the page draws nothing between the seconds.
  if (face.textContent !== fmt(ms)) face.textContent = fmt(ms);
  Object.assign(face.dataset, { seat: String(c.seat), left: String(Math.round(ms)), running: String(c.running), key: c.key });
  face.classList.toggle('warn', ms <= 10000); // toggling to the state it has changes nothing
  face.classList.toggle('zero', ms === 0);
  face.classList.toggle('paused', !c.running && ms > 0);
  const bar = box.querySelector('.clock-bar');
  const width = `${c.total ? Math.round((1000 * ms) / c.total) / 10 : 0}%`;
  if (bar.style.width !== width) bar.style.width = width;
  const floor = box.querySelector('[data-t="follow-clock-floor"]');
  const line = t('assist.follow.clock_floor', { Who: who }) + (c.running || c.lost || ms === 0 ? '' : ` · ${t('assist.follow.clock_paused')}`);
  if (floor.textContent !== line) floor.textContent = line;
  box.querySelector('[data-t="follow-clock-lost"]').hidden = !c.lost;
  // The signals, once each, when this phone sees the clock pass them.
  const was = F.shown && F.shown.key === c.key ? F.shown.ms : null;
  if (F.sound && was !== null) {
    if (was > 10000 && ms <= 10000 && ms > 0 && c.total > 10000) beep('warn');
    if (was > 0 && ms === 0) beep('end');
  }
  F.shown = { key: c.key, ms };
}

/** The clock's box: the floor, the time, the bar, the host not heard, the sound switch. */
function clockBox(F) {
  const sound = button(t('assist.follow.sound_on'), () => {
    F.sound = !F.sound;
    if (F.sound) unlockAudio();
    sound.textContent = t(F.sound ? 'assist.follow.sound_off' : 'assist.follow.sound_on');
    sound.dataset.on = String(F.sound);
  }, 'secondary', 'follow-sound');
  sound.dataset.on = 'false';
  return h('div', { class: 'timer follow-clock', hidden: true, dataset: { t: 'follow-clock-box' } },
    h('p', { class: 'say', dataset: { t: 'follow-clock-floor' } }),
    h('div', { class: 'clock', dataset: { t: 'follow-clock' } }),
    h('div', { class: 'clock-track' }, h('div', { class: 'clock-bar' })),
    h('p', { class: 'warn', hidden: true, dataset: { t: 'follow-clock-lost' } }, t('assist.follow.clock_lost')),
    h('div', { class: 'row' }, sound));
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
    part.replaceChildren(...live.filter((x) => x != null)); // h() leaves out a null child; replaceChildren writes "null"
    document.querySelector('[data-t="follow-fixes"]').replaceChildren(fixList(L.fixes, who));
    return;
  }
  const seats = range(names.length);
  // The kinds of correction: the votes ('revote', 'all_vote' are a day's
  // other votes), the night moves, and a note in words.
  const votes = ['vote', 'revote', 'all_vote'];
  const kind = h('select', { dataset: { t: 'fix-kind' } },
    ['vote', 'revote', 'all_vote', 'shot', 'check', 'don_check', 'save', 'night'].map((k) => h('option', { value: k }, t(`assist.follow.kind_${k}`))));
  const nobody = h('option', { value: '0' }, t('assist.follow.miss')); // the mafia's shot: nobody
  const seat = h('select', { dataset: { t: 'fix-seat' }, 'aria-label': t('assist.follow.seat') }, seats.map((s) => h('option', { value: String(s) }, who(s))), nobody);
  const round = h('input', { type: 'number', min: 1, value: 1, dataset: { t: 'fix-round' }, 'aria-label': t('assist.follow.round') });
  // The round's box names what it counts: a vote's day, a shot's night.
  const roundName = h('span', { dataset: { t: 'fix-round-name' } }, t('assist.follow.round'));
  const roundBox = h('label', {}, roundName, ' ', round);
  const count = h('input', { type: 'number', min: 0, max: names.length, value: 0, dataset: { t: 'fix-count' }, 'aria-label': t('assist.follow.count') });
  const text = h('input', { type: 'text', maxlength: 200, dataset: { t: 'fix-text' }, placeholder: t('assist.follow.text') });
  // A day's vote: the voters' seats, with the day in the round's box (the host's phone replays the vote with them).
  const voters = h('input', { type: 'text', inputmode: 'numeric', maxlength: 60, dataset: { t: 'fix-voters' }, placeholder: t('assist.follow.voters') });
  // The hands of the vote chosen, as seats to tap: they write the voters' box.
  const handsBox = h('div', { dataset: { t: 'fix-hands' } });
  const typed = () => [...new Set(voters.value.split(/[^0-9]+/).filter(Boolean).map(Number))];
  const which = () => (kind.value === 'vote' ? '' : kind.value);
  const drawHands = () => {
    const v = votes.includes(kind.value) ? recordedVote(E.protocol(), Number(round.value), which(), Number(seat.value)) : null;
    if (!v) { handsBox.replaceChildren(); return; }
    const hands = typed();
    handsBox.replaceChildren(h('p', { class: 'note' }, t('assist.follow.hands')), seatGrid({
      seats: v.seats,
      label: (s) => [names[s - 1], ''],
      selected: (s) => hands.includes(s),
      onpick: (s) => {
        voters.value = (hands.includes(s) ? hands.filter((x) => x !== s) : [...hands, s]).sort((a, b) => a - b).join(' ');
        drawHands();
      },
    }));
  };
  // Choosing the vote (its kind, day, candidate) marks the hands entered.
  const fill = () => {
    const v = votes.includes(kind.value) ? recordedVote(E.protocol(), Number(round.value), which(), Number(seat.value)) : null;
    voters.value = v ? v.hands.join(' ') : '';
    drawHands();
  };
  const nameRound = () => {
    const what = t(votes.includes(kind.value) ? 'assist.follow.day' : 'assist.follow.round');
    roundName.textContent = what;
    round.setAttribute('aria-label', what);
    nobody.textContent = t(kind.value === 'shot' ? 'assist.follow.miss' : 'assist.follow.nobody');
    fill();
  };
  kind.addEventListener('change', nameRound);
  round.addEventListener('change', fill);
  seat.addEventListener('change', fill);
  voters.addEventListener('input', drawHands);
  nameRound();
  const sendFix = () => {
    const hands = typed();
    const day = Number(round.value);
    if (kind.value === 'all_vote') return propose(F, { kind: 'vote', vote: 'all_vote', seat: 0, round: day, voters: hands, count: hands.length });
    if (votes.includes(kind.value) && (hands.length || kind.value !== 'vote')) {
      return propose(F, { kind: 'vote', vote: which(), seat: Number(seat.value), round: day, voters: hands, count: hands.length });
    }
    if (kind.value === 'vote') return propose(F, { kind: 'vote', seat: Number(seat.value), count: Number(count.value) });
    if (kind.value === 'night') return propose(F, { kind: 'night', seat: Number(seat.value), text: text.value });
    return propose(F, { kind: kind.value, seat: Number(seat.value), round: day });
  };
  mount(
    clockBox(F),
    h('div', { dataset: { t: 'follow-live', game: F.id } }, live),
    h('h3', {}, t('assist.follow.propose')),
    h('div', { class: 'actions' }, kind, seat, roundBox, count, voters, text, button(t('assist.follow.send'), sendFix, 'secondary', 'fix-send')),
    handsBox,
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
