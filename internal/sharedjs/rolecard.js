// rolecard.js: each card as a card: its name, its side, what it does at
// night, how it wins and a tip (the catalogs' role.*, team.*,
// web.card.team, web.role_night.*, web.role_win.*, web.role_help.*), in
// the page's language. The browser client's deal, how-to dialog and table,
// and the host's assistant's night-1 card round (the phone passed round)
// draw it.

import { h } from './dom.js';
import { t } from './i18n.js';

/** ROLES are the cards, in the order the how-to dialog shows them. */
export const ROLES = ['citizen', 'detective', 'doctor', 'mafia', 'don', 'maniac'];

/** sideOf returns the side a card plays for: town, mafia or maniac. */
export function sideOf(role) {
  switch (role) {
    case 'mafia': case 'don': return 'mafia';
    case 'maniac': return 'maniac';
    default: return 'town';
  }
}

/** roleCard returns role's card as an element (mine marks the player's
 * own). Without its top (where the card shown above it already gives the
 * name and the side) it is what the card does and how it wins. */
export function roleCard(role, mine, noTop) {
  const team = sideOf(role);
  return h('div', { class: `rcard role-${role} team-${team}${mine ? ' mine' : ''}`, 'data-card': role },
    noTop ? null : h('div', { class: 'rcard-top' },
      h('span', { class: 'rcard-name' }, t(`role.${role}`)),
      h('span', { class: 'rcard-side' }, t('web.card.team', { Team: t(`team.${team}`) }))),
    h('p', { class: 'rcard-night' }, t(`web.role_night.${role}`)),
    h('p', { class: 'rcard-win' }, t(`web.role_win.${role}`)),
    h('p', { class: 'rcard-tip' }, t(`web.role_help.${role}`)));
}
