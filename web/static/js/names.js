// names.js: how the page names seats, players, roles and steps.

import { t } from './i18n.js';

/** SPEECHES are the steps where one player holds the floor on a clock. */
export const SPEECHES = new Set(['speech', 'defence', 'tie_speech', 'last_words']);

/** VOTES are the steps where everyone alive answers. */
export const VOTES = new Set(['vote', 'revote', 'all_vote']);

/** TIMINGS are the table's timings in the rulebook's order. */
export const TIMINGS = ['speech', 'defence', 'tie_speech', 'last_words', 'night', 'vote'];

/** timingOf names the table's timing of a step (lobby.timings_ms). */
export function timingOf(phase) {
  if (VOTES.has(phase)) return 'vote';
  return phase;
}

/** seatInfo returns the lobby's record of seat s. */
export function seatInfo(st, s) {
  return st.lobby && st.lobby.seats ? st.lobby.seats[s - 1] : undefined;
}

/** nameOf returns the name of the player in seat s; a bot is named from the
 * catalog, in the page's language. */
export function nameOf(st, s) {
  const i = seatInfo(st, s);
  if (!i || !i.taken) return t('web.free_seat');
  if (i.bot) return t('web.bot_name', { Seat: s });
  return i.name || t('web.seat', { Seat: s });
}

/** teamOf returns the side a role plays for. */
export function teamOf(role) {
  switch (role) {
    case 'mafia': case 'don': return 'mafia';
    case 'maniac': return 'maniac';
    case '': case undefined: return '';
    default: return 'town';
  }
}

/** isMafia reports whether a role belongs to the mafia. */
export function isMafia(role) { return role === 'mafia' || role === 'don'; }

/** players returns the number of seats at the table. */
export function players(st) {
  return (st.view && st.view.players) || (st.lobby && st.lobby.players) || 0;
}

/** seatLabel writes seat s in a sentence: its number and its player's
 * name ("3 (Nino)"), and with role given the card too ("3 (Nino, don)"),
 * for the log and the game-over timeline; see narrate's label. */
export function seatLabel(st, s, role) {
  // Without the lobby the names are not known: the number alone.
  if (!seatInfo(st, s)) return s;
  const name = nameOf(st, s);
  if (role) return t('web.who_role', { Seat: s, Name: name, Role: role });
  return t('web.who', { Seat: s, Name: name });
}
