// hints.js: a first game with hints. A line under the table's moves says
// the current step, what to do now and why (web.hint.*). It is on for a
// player's first games unless switched off (mafia.hints: '0' off, '1' on),
// and a tap hides it. A player's games are the account's where one is
// logged in (the games its page counts: GET /api/account/me's games, read
// at the page's load; after a sign-up or a log-in, which do not carry it,
// GET /api/players/{name}'s), else the
// games this device saw to the end (mafia.played): a player of many games
// on a new phone sees none, a new account on a shared phone sees them.

import { h } from './dom.js';
import { t } from './i18n.js';
import { boot } from './boot.js';
import { account, accountApi } from './account.js';

const FIRST_GAMES = 3;

// counted holds each account's games by name, as its page counts them:
// null while asked, -1 when the page could not be had (the device's count
// stands in).
const counted = new Map();

function accountGames(name) {
  if (!counted.has(name)) {
    counted.set(name, null);
    accountApi.player(name).then((p) => counted.set(name, +p.games || 0), () => counted.set(name, -1))
      .then(() => document.dispatchEvent(new Event('mafia-hints')));
  }
  return counted.get(name);
}

/** gamesPlayed is how many games the player has played: the account's
 * when logged in, else this device's; undefined while not yet known (the
 * page has not heard who is logged in, or the account's count). */
export function gamesPlayed() {
  const device = +localStorage.getItem('mafia.played') || 0;
  if (!boot.accounts) return device;
  const a = account();
  if (a === undefined) return undefined;
  if (!a) return device;
  if (typeof a.games === 'number') return a.games;
  const n = accountGames(a.name);
  if (n === null) return undefined;
  return n < 0 ? device : n;
}

/** hintsOn reports whether the hints are shown: undefined while the
 * player's games are not yet known (none are shown meanwhile). */
export function hintsOn() {
  const set = localStorage.getItem('mafia.hints');
  if (set === '0' || set === '1') return set === '1';
  const n = gamesPlayed();
  return n === undefined ? undefined : n < FIRST_GAMES;
}

/** setHints switches the hints on or off. */
export function setHints(on) { localStorage.setItem('mafia.hints', on ? '1' : '0'); }

/** gameSeen counts a game the player saw to its end, once per table. */
export function gameSeen(id) {
  const key = `mafia.played.${id}`;
  if (localStorage.getItem(key)) return;
  localStorage.setItem(key, '1');
  localStorage.setItem('mafia.played', String((+localStorage.getItem('mafia.played') || 0) + 1));
  // The account's count has grown too: asked again when next needed.
  counted.clear();
}

/** hintKey returns the hint for the seat's current step: [id, data], or
 * null when there is none (a spectator, the end). */
export function hintKey(st) {
  const v = st.view;
  if (!st.seat) return null;
  if (!v) return st.lobby && st.lobby.status !== 'ended' ? ['web.hint.wait', {}] : null;
  const me = (v.seats || [])[st.seat - 1] || {};
  const speaker = v.speaker || 0;
  const mine = speaker === st.seat;
  const legal = v.legal || {};
  switch (v.phase) {
    case 'ended': return null;
    case 'night': {
      if (me.alive === false) return ['web.hint.out', {}];
      const moves = ['kill', 'check', 'heal', 'shoot'].some((k) => legal[k] && legal[k].length);
      if (moves) return ['web.hint.night_move', {}];
      if (v.round === 1 && v.rules && v.rules.first_night === 'meeting') return ['web.hint.meeting', {}];
      return ['web.hint.night_wait', {}];
    }
    case 'last_words':
      return mine ? ['web.hint.my_last_words', {}] : ['web.hint.last_words', { Seat: speaker }];
  }
  if (me.alive === false) return ['web.hint.out', {}];
  switch (v.phase) {
    case 'speech': return mine ? ['web.hint.my_speech', {}] : ['web.hint.speech', { Seat: speaker }];
    case 'defence': case 'tie_speech': return mine ? ['web.hint.my_defence', {}] : ['web.hint.defence', { Seat: speaker }];
    case 'vote': case 'revote': return v.voted || st.waitView ? ['web.hint.voted', {}] : ['web.hint.vote', {}];
    case 'all_vote': return v.voted || st.waitView ? ['web.hint.voted', {}] : ['web.hint.all_vote', {}];
  }
  return null;
}

/** renderHint returns the hint line, or null. Its × (data-act hint-off)
 * is acted on by the table screen's listener (table.js). */
export function renderHint(st) {
  const k = hintKey(st);
  if (!k || !hintsOn()) return null;
  return h('div', { class: 'hint-line', id: 'hint', 'data-hint': k[0] },
    h('p', {}, h('b', {}, t('web.hint.label'), ': '), h('span', { class: 'hint-text' }, t(k[0], k[1]))),
    h('button', { type: 'button', class: 'small', key: 'hint-off', id: 'hint-off', 'aria-label': t('web.hint.off'), title: t('web.hint.off'), 'data-act': 'hint-off' }, '×'));
}
