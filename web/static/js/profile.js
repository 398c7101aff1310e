// profile.js: a player's page, /players/{name} (GET /api/players/{name}):
// the name, games played and won, wins by side and by card, and the recent
// games, each linking to its game's review at /t/{id}/review, and the
// ratings (overall, as the town, as the mafia), each linking to its board;
// the player's clubs and their in-person games for them (counted in the
// tallies too); on one's own page, one's tables in online tournaments now
// (the tournament, round, table, seat and the link to sit).

import { h, patch } from './dom.js';
import { t, tn, current } from './i18n.js';
import { accountApi, account } from './account.js';
import { roleName } from './narrate.js';
import { signed } from './gameover.js';

const SIDES = ['town', 'mafia', 'maniac'];
const ROLES = ['citizen', 'detective', 'doctor', 'mafia', 'don', 'maniac'];

// gameRating is what a rated game did to the overall rating, or null.
function gameRating(g) {
  const o = (g.ratings || []).find((r) => r.kind === 'overall');
  if (!o) return null;
  const d = o.after.ordinal - o.before.ordinal;
  return [' ', h('span', {
    class: `badge rating-delta ${d >= 0 ? 'up' : 'down'}`, 'data-before': o.before.ordinal, 'data-after': o.after.ordinal,
  }, t('web.rated_seat.delta', { Delta: signed(d) }))];
}

// dateOf writes a day in the page's language and its custom (Dec 5,
// 2026; 5 дек. 2026 г.), not the browser's; in Georgian, where a browser
// may hold no Georgian calendar (it then answers in English), as Georgia
// writes it in figures: 05.12.2026.
function dateOf(ms) {
  const d = new Date(ms);
  const l = current();
  if (Intl.DateTimeFormat.supportedLocalesOf([l]).length) {
    const s = new Intl.DateTimeFormat(l, { dateStyle: 'medium' }).format(d);
    if (l !== 'ka' || /[\u10D0-\u10FF]/.test(s)) return s;
  }
  const two = (n) => String(n).padStart(2, '0');
  return `${two(d.getDate())}.${two(d.getMonth() + 1)}.${d.getFullYear()}`;
}

/** profileScreen returns the page of the player named name. */
export function profileScreen(name, { navigate }) {
  const el = h('div', { class: 'screen profile' });
  const part = h('section', { class: 'part', id: 'profile', 'aria-labelledby': 'profile-h' });
  el.append(part);
  let p = null;
  let error = '';

  const link = (path, text, attrs = {}) => h('a', {
    href: path, ...attrs, on: { click: (ev) => { ev.preventDefault(); navigate(path); } },
  }, text);

  const tallies = (title, id, keys, of, label) => {
    const rows = keys.filter((k) => of[k]).map((k) => h('tr', { 'data-key': k },
      h('th', { scope: 'row' }, label(k)), h('td', { class: 'n' }, String(of[k].games)), h('td', { class: 'n' }, String(of[k].wins))));
    if (!rows.length) return null;
    return h('table', { class: 'tallies', id },
      h('caption', {}, title),
      h('thead', {}, h('tr', {}, h('th', {}, ''), h('th', { scope: 'col' }, t('web.profile.games')), h('th', { scope: 'col' }, t('web.profile.wins')))),
      h('tbody', {}, rows));
  };

  function draw() {
    document.title = t('web.profile.title', { Name: p ? p.name : name });
    if (error) {
      patch(part, h('p', { class: 'error', role: 'alert' }, error));
      return;
    }
    if (!p) {
      patch(part, h('p', { class: 'note' }, '…'));
      return;
    }
    const me = account();
    patch(part,
      h('h2', { id: 'profile-h' }, p.name, p.bot ? h('span', { class: 'badge bot-account' }, t('web.account.bot_badge')) : null),
      p.owner ? h('p', { class: 'note', id: 'owner' }, t('web.profile.owner'), ' ',
        link(`/players/${encodeURIComponent(p.owner)}`, p.owner)) : null,
      h('p', { id: 'played' }, tn('web.profile.played', p.games), ' · ', tn('web.profile.won', p.wins)),
      // The account's own tables in online tournaments now (its own page
      // only: the server sends them to the account alone).
      p.tournament_tables && p.tournament_tables.length ? h('section', { id: 'my-tables', class: 'my-tables' },
        h('h3', {}, t('web.profile.tables')),
        h('ul', { class: 'plain' }, p.tournament_tables.map((x) => h('li', { 'data-tournament': x.tournament, 'data-state': x.state },
          h('p', { class: 'my-table' }, t('web.profile.table', { Name: x.name, Round: x.round, Table: x.table, Seat: x.seat })),
          h('p', { class: 'note' }, t(x.state === 'playing' ? 'web.profile.table_playing' : 'web.profile.table_waiting')),
          link(x.link, t('web.profile.sit'), { class: 'button sit-table', 'data-link': x.link }))))) : null,
      // The tournaments the account referees, or runs as its club's owner
      // or host (its own page only), each linking to the tournament's
      // organiser's screen, which shows that role's controls.
      p.tournaments_run && p.tournaments_run.length ? h('section', { id: 'my-tournaments', class: 'my-tables' },
        h('h3', {}, t('web.profile.run')),
        h('ul', { class: 'plain' }, p.tournaments_run.map((x) => h('li', { 'data-tournament': x.tournament, 'data-role': x.role },
          // The organiser's screen is the clubs' page, not this app's: a plain link.
          h('a', { href: `${x.link}?lang=${current()}`, class: 'run-link' }, x.name),
          h('span', { class: 'note' }, ` · ${x.club_name} · ${t(`web.profile.run_${x.role}`)} · ${t(`tournament.state.${x.state}`)}`))))) : null,
      // The clubs (docs/club.md): each linking to its leaderboard; the
      // in-person games of the roster entries linked to the account.
      p.clubs && p.clubs.length ? h('p', { id: 'clubs' }, t('web.club.clubs'), ': ', p.clubs.map((c, i) => [i ? ', ' : '',
        link(`/ratings?club=${encodeURIComponent(c.id)}`, c.name, { 'data-club': c.id }),
        c.role ? ` (${t(`web.club.role_${c.role}`)})` : ''])) : null,
      p.in_person && p.in_person.games ? h('p', { id: 'in-person' }, t('web.club.in_person'), ': ',
        tn('web.profile.played', p.in_person.games), ' · ', tn('web.profile.won', p.in_person.wins)) : null,
      tallies(t('web.profile.by_side'), 'by-side', SIDES, p.by_side, (k) => t(`team.${k}`)),
      tallies(t('web.profile.by_role'), 'by-role', ROLES, p.by_role, roleName),
      // The ratings (docs/ratings.md): per kind, the ordinal (mu - 3 sigma) and the games.
      p.ratings && p.ratings.length ? h('section', { id: 'ratings', class: 'ratings' }, h('h3', {}, t('web.profile.ratings')),
        h('table', { class: 'tallies', id: 'ratings-table' },
          h('thead', {}, h('tr', {}, h('th', {}, ''), h('th', { scope: 'col' }, t('web.rated.ordinal')),
            h('th', { scope: 'col' }, t('web.profile.games')), h('th', { scope: 'col' }, t('web.profile.wins')))),
          h('tbody', {}, p.ratings.map((r) => h('tr', { 'data-kind': r.kind, 'data-ordinal': r.ordinal, 'data-mu': r.mu, 'data-sigma': r.sigma },
            h('th', { scope: 'row' }, link(`/ratings?kind=${r.kind}`, t(`web.rated.kind_${r.kind}`))),
            h('td', { class: 'n', title: `μ ${r.mu.toFixed(1)} σ ${r.sigma.toFixed(1)}` }, r.ordinal.toFixed(1)),
            h('td', { class: 'n' }, String(r.games)), h('td', { class: 'n' }, String(r.wins))))))) : null,
      h('h3', {}, t('web.profile.recent')),
      p.recent.length ? h('ol', { class: 'recent', id: 'recent' }, p.recent.map((g) => h('li', { 'data-table': g.table },
        link(`/t/${g.table}/review`, g.name || g.table),
        ' ', h('span', { class: `badge role r-${g.role}` }, roleName(g.role)),
        ' ', h('span', { class: `result ${g.won ? 'won' : 'lost'}` }, t(g.won ? 'web.profile.game_won' : 'web.profile.game_lost')),
        gameRating(g),
        ' ', h('time', { datetime: new Date(g.ended_ms).toISOString() }, dateOf(g.ended_ms))))) :
        h('p', { class: 'note', id: 'no-games' }, t('web.profile.none')),
      me && me.name === p.name ? h('p', {}, link('/account', t('web.account.settings'), { class: 'button secondary', id: 'settings' })) : null);
  }

  accountApi.player(name).then((got) => { p = got; draw(); }, (e) => { error = e.message; draw(); });
  draw();
  return { el, render: draw, destroy: () => {} };
}
