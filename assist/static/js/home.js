// The first screen: a new game, the games this phone is running, and the
// club's history of games with their results.

import { h, mount, button } from './ui.js';
import { t, name, lang } from './i18n.js';
import * as storage from './storage.js';
import { link } from './sync.js';
import { workerNote } from './offline.js';

/** Draws the home screen (unless still() says the host went elsewhere meanwhile). */
export async function homeScreen(still) {
  const mine = (await storage.list()).filter((g) => !g.ended);
  if (still && !still()) return;
  const history = h('div', { class: 'history', dataset: { t: 'history' } }, h('p', { class: 'note' }, t('assist.loading')));
  mount(
    workerNote(() => homeScreen()),
    h('section', { class: 'hero' }, h('h2', {}, t('assist.home_title')), h('p', { class: 'note' }, t('assist.home_hint'))),
    button(t('assist.new_game'), () => { location.hash = '#/new'; }, 'primary', 'new-game'),
    mine.length ? h('section', { class: 'card' }, h('h3', {}, t('assist.running')),
      h('ul', { class: 'games' }, mine.map((g) => h('li', {},
        h('a', { href: `#/game/${g.id}`, dataset: { t: 'resume' } }, g.name || t('assist.default_name')),
        h('span', { class: 'sub' }, new Date(g.created).toLocaleString(lang())))))) : null,
    h('section', { class: 'card' }, h('h3', {}, t('assist.history')), history),
  );
  loadHistory(history);
}

async function loadHistory(el) {
  let games;
  try {
    const r = await fetch('/host/api/games?limit=100');
    games = (await r.json()).games || [];
    link.down = false;
  } catch (_) {
    link.down = true;
    el.replaceChildren(h('p', { class: 'note' }, t('assist.history_offline')));
    return;
  }
  if (!games.length) {
    el.replaceChildren(h('p', { class: 'note' }, t('assist.history_empty')));
    return;
  }
  el.replaceChildren(h('table', { class: 'seats-table' },
    h('thead', {}, h('tr', {}, [t('assist.col.date'), t('assist.col.game'), t('assist.col.players'), t('assist.col.result')].map((x) => h('th', {}, x)))),
    h('tbody', {}, games.map((g) => h('tr', { dataset: { id: g.id } },
      h('td', {}, new Date(g.created).toLocaleDateString(lang())),
      h('td', {}, g.ended ? h('a', { href: `/host/games/${g.id}`, target: '_blank' }, g.name) : g.name),
      h('td', {}, String(g.players)),
      h('td', {}, g.ended ? name('winner', g.winner) : t('assist.in_progress')))))));
}
