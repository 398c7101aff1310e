// howto.js: how to play, in short: the night, the day, the vote, the
// fouls, the end, and every card as a card (cards.js: web.role_night.*,
// web.role_win.*, web.role_help.*), in the page's language, with the
// switch of the first games' hints (hints.js). The header opens it on
// every screen; the table opens it at the player's own card (openHowto).

import { h, patch } from './dom.js';
import { t } from './i18n.js';
import { roleName } from './narrate.js';
import { ROLES, roleCard } from './cards.js';
import { hintsOn, setHints } from './hints.js';

let opener = null;

/** openHowto opens the how-to dialog, at role's card when given. */
export function openHowto(role) { if (opener) opener(role); }

/** howtoDialog returns the dialog element and a function that opens it
 * (drawn anew in the current language each time). */
export function howtoDialog() {
  const dlg = h('dialog', { id: 'howto', class: 'howto', 'aria-labelledby': 'howto-h' });
  const open = (role) => {
    const mine = typeof role === 'string' ? role : '';
    const on = hintsOn();
    patch(dlg,
      h('div', { class: 'howto-top' },
        h('h2', { id: 'howto-h' }, t('web.howto.heading')),
        h('button', { type: 'button', class: 'small', key: 'howto-close', 'aria-label': t('web.close'), on: { click: () => dlg.close() } }, '×')),
      ['intro', 'night', 'day', 'vote', 'fouls', 'end'].map((k) => h('p', { 'data-part': k }, t(`web.howto.${k}`))),
      h('h3', {}, t('web.howto.roles')),
      h('div', { class: 'roles rcards' }, ROLES.map((r) => h('div', { class: `role r-${r}`, 'data-role-help': r, 'aria-label': roleName(r) }, roleCard(r, r === mine)))),
      h('button', {
        type: 'button', id: 'hints-toggle', key: `hints-${on}`, 'aria-pressed': on ? 'true' : 'false',
        on: { click: () => { setHints(!on); open(mine); document.dispatchEvent(new Event('mafia-hints')); } },
      }, t('web.hint.toggle')));
    if (!dlg.open) dlg.showModal();
    if (mine) {
      const el = dlg.querySelector(`.rcard[data-card="${mine}"]`);
      if (el) el.scrollIntoView({ block: 'center' });
    }
  };
  opener = open;
  return { dlg, open };
}
