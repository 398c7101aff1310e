// howto.js: how to play, in short: the night, the day, the vote, the
// fouls, the end, and every card explained (web.howto.*, web.role_help.*),
// in the page's language. The header opens it on every screen.

import { h, patch } from './dom.js';
import { t } from './i18n.js';
import { roleName } from './narrate.js';

const ROLES = ['citizen', 'detective', 'doctor', 'mafia', 'don', 'maniac'];

/** howtoDialog returns the dialog element and a function that opens it
 * (drawn anew in the current language each time). */
export function howtoDialog() {
  const dlg = h('dialog', { id: 'howto', class: 'howto', 'aria-labelledby': 'howto-h' });
  const open = () => {
    patch(dlg,
      h('div', { class: 'howto-top' },
        h('h2', { id: 'howto-h' }, t('web.howto.heading')),
        h('button', { type: 'button', class: 'small', key: 'howto-close', 'aria-label': t('web.close'), on: { click: () => dlg.close() } }, '×')),
      ['intro', 'night', 'day', 'vote', 'fouls', 'end'].map((k) => h('p', { 'data-part': k }, t(`web.howto.${k}`))),
      h('h3', {}, t('web.howto.roles')),
      h('dl', { class: 'roles' }, ROLES.map((r) => [
        h('dt', { class: `role r-${r}`, 'data-role-help': r }, roleName(r)),
        h('dd', {}, t(`web.role_help.${r}`))])));
    if (!dlg.open) dlg.showModal();
  };
  return { dlg, open };
}
