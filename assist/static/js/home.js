// The first screen: a new game, the games this phone is running, the games
// and the tournaments the logged-in account referees, and the club's
// history of games with their results. With a club on the phone the
// history is that club's games only, and a game of it still in progress
// (its phone gone) can be closed from there by the club's host.

import { h } from './dom.js';
import { mount, button, toast } from './ui.js';
import { t, current } from './i18n.js';
import { name } from './engine.js';
import * as storage from './storage.js';
import { link, send } from './sync.js';
import { workerNote } from './offline.js';
import { clubOnPhone } from './club.js';
import { followByAccount } from './follow.js';

/** Draws the home screen (unless still() says the host went elsewhere meanwhile). */
export async function homeScreen(still) {
  const mine = (await storage.list()).filter((g) => !g.ended);
  if (still && !still()) return;
  const history = h('div', { class: 'history', dataset: { t: 'history' } }, h('p', { class: 'note' }, t('assist.loading')));
  const invited = h('section', { class: 'card', hidden: true, dataset: { t: 'invitations' } });
  const running = h('section', { class: 'card', hidden: true, dataset: { t: 'run-tournaments' } });
  mount(
    workerNote(() => homeScreen()),
    h('section', { class: 'hero' }, h('h2', {}, t('assist.home_title')), h('p', { class: 'note' }, t('assist.home_hint'))),
    button(t('assist.new_game'), () => { location.hash = '#/new'; }, 'primary', 'new-game'),
    button(t('assist.club.manage'), () => { location.hash = '#/club'; }, 'secondary', 'club'),
    mine.length ? h('section', { class: 'card' }, h('h3', {}, t('assist.running')),
      h('ul', { class: 'games' }, mine.map((g) => h('li', { dataset: { id: g.id } },
        h('a', { href: `#/game/${g.id}`, dataset: { t: 'resume' } }, g.name || t('assist.default_name')),
        h('span', { class: 'sub' }, new Date(g.created).toLocaleString(current())),
        button(t('assist.delete.button'), () => confirmDelete(g), 'secondary small', 'delete'))))) : null,
    invited,
    running,
    h('section', { class: 'card' }, h('h3', {}, t('assist.history')), history),
  );
  loadInvitations(invited);
  loadTournaments(running);
  loadHistory(history);
}

/** The games the logged-in account is invited to referee: each followed with a tap, no code. */
async function loadInvitations(el) {
  const got = await send('GET', '/host/api/invitations');
  const list = got && got.res.ok ? got.body.invitations || [] : [];
  if (!list.length) return;
  el.hidden = false;
  el.replaceChildren(h('h3', {}, t('assist.invitations.title')),
    h('ul', { class: 'games' }, list.map((i) => h('li', { dataset: { game: i.game } },
      h('span', {}, t('assist.invitations.as', { Game: i.name || t('assist.default_name'), Name: i.as })), ' ',
      button(t('assist.invitations.follow'), () => followByAccount(i.game), 'primary', `follow-${i.game}`)))));
}

/**
 * The tournaments the logged-in account referees, or runs as its club's
 * owner or host: each a link to the tournament's organiser's screen (the
 * clubs' page, which shows that role's controls).
 */
async function loadTournaments(el) {
  const got = await send('GET', '/host/api/clubs/mine/tournaments');
  const list = got && got.res.ok ? got.body.tournaments || [] : [];
  if (!list.length) return;
  el.hidden = false;
  el.replaceChildren(h('h3', {}, t('assist.tournaments.title')),
    h('ul', { class: 'games' }, list.map((x) => h('li', { dataset: { tournament: x.tournament, role: x.role } },
      h('a', { href: `${x.link}?lang=${current()}`, dataset: { t: 'run-tournament' } }, x.name),
      h('span', { class: 'sub' }, ` · ${x.club_name} · ${t(`assist.tournaments.${x.role}`)} · ${t(`tournament.state.${x.state}`)}`)))));
}

async function loadHistory(el) {
  const c = clubOnPhone();
  let games;
  try {
    const r = c
      ? await fetch(`/host/api/games?limit=100&club=${encodeURIComponent(c.id)}`, { headers: c.token ? { Authorization: `Bearer ${c.token}` } : {} })
      : await fetch('/host/api/games?limit=100');
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
      h('td', {}, new Date(g.created).toLocaleDateString(current())),
      h('td', {}, g.ended ? h('a', { href: `/host/games/${g.id}`, target: '_blank' }, g.name) : g.name),
      h('td', {}, String(g.players)),
      h('td', {}, g.ended ? name('winner', g.winner) : [t('assist.in_progress'),
        c ? button(t('assist.history_close'), () => confirmClose(g, c), 'secondary small', 'close-game') : null]))))));
}

/** Asks once more, then closes a club's game still in progress (DELETE, by the club's code or login). */
function confirmClose(g, c) {
  let busy = false;
  const yes = async () => {
    if (busy) return;
    busy = true;
    try {
      const got = await send('DELETE', `/host/api/games/${g.id}`, undefined, c.token);
      if (!got) { toast(t('assist.delete.offline'), 'error'); return; }
      if (!got.res.ok && got.res.status !== 404) { toast(got.body.error.message, 'error'); return; }
      try { await storage.remove(g.id); } catch (_) { /* not on this phone */ }
      await homeScreen();
      toast(t('assist.history_closed'));
    } finally {
      busy = false;
    }
  };
  mount(
    h('header', { class: 'step-head' }, h('h2', {}, t('assist.history_close'))),
    h('p', { class: 'warn', dataset: { t: 'close-question' } }, t('assist.history_close_confirm', { Name: g.name || t('assist.default_name') })),
    h('div', { class: 'actions' },
      button(t('assist.history_close_yes'), yes, 'primary', 'close-yes'),
      button(t('assist.cancel'), () => homeScreen(), 'secondary', 'cancel')));
}

/** Asks once more, then deletes a game this phone runs from the club's history and from this phone. */
function confirmDelete(g) {
  const name = g.name || t('assist.default_name');
  let busy = false;
  const yes = async () => {
    if (busy) return;
    busy = true;
    try {
      const rec = await storage.get(g.id);
      if (rec && !rec.create) { // a game not yet sent is this phone's alone
        const got = await send('DELETE', `/host/api/games/${g.id}`, undefined, rec.token);
        if (!got) { toast(t('assist.delete.offline'), 'error'); return; }
        if (!got.res.ok && got.res.status !== 404) { toast(got.body.error.message, 'error'); return; }
      }
      await storage.remove(g.id);
      await homeScreen();
      toast(t('assist.delete.done'));
    } catch (_) {
      toast(t('assist.storage.failed'), 'error');
    } finally {
      busy = false;
    }
  };
  mount(
    h('header', { class: 'step-head' }, h('h2', {}, t('assist.delete.button'))),
    h('p', { class: 'warn', dataset: { t: 'delete-question' } }, t('assist.delete.confirm', { Name: name })),
    h('div', { class: 'actions' },
      button(t('assist.delete.yes'), yes, 'primary', 'delete-yes'),
      button(t('assist.cancel'), () => homeScreen(), 'secondary', 'cancel')));
}
