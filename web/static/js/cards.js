// cards.js: each card as a card: its name, its side, what it does at
// night and how it wins (web.role_night.*, web.role_win.*), in the page's
// language. The deal, the how-to dialog and the table draw it.

import { h } from './dom.js';
import { t } from './i18n.js';
import { roleName, teamName } from './narrate.js';
import { teamOf } from './names.js';

/** ROLES are the cards, in the order the how-to dialog shows them. */
export const ROLES = ['citizen', 'detective', 'doctor', 'mafia', 'don', 'maniac'];

/** roleCard returns role's card as an element (mine marks the player's
 * own). Without its top (the deal, where the player's card above shows
 * the name and the side) it is what the card does and how it wins. */
export function roleCard(role, mine, noTop) {
  const team = teamOf(role);
  return h('div', { class: `rcard role-${role} team-${team}${mine ? ' mine' : ''}`, 'data-card': role },
    noTop ? null : h('div', { class: 'rcard-top' },
      h('span', { class: 'rcard-name' }, roleName(role)),
      h('span', { class: 'rcard-side' }, t('web.card.team', { Team: teamName(team) }))),
    h('p', { class: 'rcard-night' }, t(`web.role_night.${role}`)),
    h('p', { class: 'rcard-win' }, t(`web.role_win.${role}`)),
    h('p', { class: 'rcard-tip' }, t(`web.role_help.${role}`)));
}
