// hints.js: a first game with hints. A line under the table's moves says
// the current step, what to do now and why (web.hint.*). It is on for a
// player's first games on this device (until three games seen to the end,
// mafia.played) unless switched off (mafia.hints: '0' off, '1' on), and a
// tap hides it.

import { h } from './dom.js';
import { t } from './i18n.js';

const FIRST_GAMES = 3;

/** hintsOn reports whether the hints are shown. */
export function hintsOn() {
  const set = localStorage.getItem('mafia.hints');
  if (set === '0' || set === '1') return set === '1';
  return (+localStorage.getItem('mafia.played') || 0) < FIRST_GAMES;
}

/** setHints switches the hints on or off. */
export function setHints(on) { localStorage.setItem('mafia.hints', on ? '1' : '0'); }

/** gameSeen counts a game the player saw to its end, once per table. */
export function gameSeen(id) {
  const key = `mafia.played.${id}`;
  if (localStorage.getItem(key)) return;
  localStorage.setItem(key, '1');
  localStorage.setItem('mafia.played', String((+localStorage.getItem('mafia.played') || 0) + 1));
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

/** renderHint returns the hint line, or null. off hides the hints. */
export function renderHint(st, off) {
  if (!hintsOn()) return null;
  const k = hintKey(st);
  if (!k) return null;
  return h('div', { class: 'hint-line', id: 'hint', 'data-hint': k[0] },
    h('p', {}, h('b', {}, t('web.hint.label'), ': '), h('span', { class: 'hint-text' }, t(k[0], k[1]))),
    h('button', { type: 'button', class: 'small', key: 'hint-off', id: 'hint-off', 'aria-label': t('web.hint.off'), title: t('web.hint.off'), on: { click: off } }, '×'));
}
