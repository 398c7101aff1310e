// Correcting the players' names after the game was made (a misspelt name,
// or two players who swapped chairs before the deal): the seats and their
// cards stay. The server keeps every change in the game's record, and the
// protocol lists them; a game not yet on the server (made on this phone
// offline) is corrected here, and the server gets the names with the game.

import * as storage from './storage.js';
import { h } from './dom.js';
import { mount, button, range, toast } from './ui.js';
import { t } from './i18n.js';
import { send } from './sync.js';

/** Draws the names form for game G. */
export function namesScreen(G) {
  const names = [...G.rec.settings.names];
  let busy = false;
  const save = async () => {
    if (busy) return;
    const want = names.map((n, i) => n.trim() || G.rec.settings.names[i]);
    busy = true;
    try {
      if (!G.rec.create) {
        const got = await send('PUT', `/host/api/games/${G.rec.id}/names`, { names: want }, G.rec.token);
        if (!got) { toast(t('assist.rename.offline'), 'error'); return; }
        if (!got.res.ok) { toast(got.body.error.message, 'error'); return; }
      } else {
        G.rec.create.names = want; // the game waits to be sent: it goes with these names
      }
      G.rec.settings.names = want;
      try {
        await storage.save(G.rec);
      } catch (_) {
        toast(t('assist.storage.failed'), 'error');
        return;
      }
      G.render();
      toast(t('assist.rename.saved'));
    } finally {
      busy = false;
    }
  };
  mount(
    h('header', { class: 'step-head' }, h('h2', {}, t('assist.menu.names'))),
    h('p', { class: 'note' }, t('assist.rename.hint')),
    h('ol', { class: 'names' }, range(names.length).map((s) => h('li', {}, h('span', { class: 'n' }, String(s)),
      h('input', { type: 'text', maxlength: '32', value: names[s - 1], dataset: { t: `rename-${s}` }, 'aria-label': t('assist.setup.seat', { Seat: s }),
        oninput: (e) => { names[s - 1] = e.target.value; } })))),
    h('div', { class: 'actions' },
      button(t('assist.rename.save'), save, 'primary', 'save-names'),
      button(t('assist.back'), () => G.render(), 'secondary', 'back')));
}
