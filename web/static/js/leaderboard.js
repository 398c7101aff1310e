// leaderboard.js: the leaderboards, /ratings (GET /api/ratings): the rated
// games' players by their rating's ordinal (mu - 3 sigma, docs/ratings.md),
// overall or as a side, for all time or a season (a year), of everyone or
// of one club's members (a club the viewer belongs to, from their page's
// clubs), each name linking to the player's page.

import { h, patch } from './dom.js';
import { t } from './i18n.js';
import { call } from './api.js';
import { me, accountApi } from './account.js';

const KINDS = ['overall', 'town', 'mafia'];

/** leaderboardScreen returns the leaderboard screen. */
export function leaderboardScreen({ navigate }) {
  const el = h('div', { class: 'screen leaderboard' });
  const part = h('section', { class: 'part', id: 'leaderboard', 'aria-labelledby': 'board-h' });
  el.append(part);
  const params = new URLSearchParams(location.search);
  let kind = KINDS.includes(params.get('kind')) ? params.get('kind') : 'overall';
  let season = /^\d{4}$/.test(params.get('season') || '') ? params.get('season') : '';
  let club = params.get('club') || '';
  let clubs = []; // the viewer's clubs: {id, name}
  let board = null;
  let error = '';
  const thisYear = new Date().getUTCFullYear();
  const seasons = [thisYear, thisYear - 1, thisYear - 2].map(String);

  const link = (path, text, attrs = {}) => h('a', {
    href: path, ...attrs, on: { click: (ev) => { ev.preventDefault(); navigate(path); } },
  }, text);
  const num = (x) => x.toFixed(1);

  function draw() {
    document.title = t('web.rated.leaderboard');
    const rows = board ? board.standings : [];
    patch(part,
      h('h2', { id: 'board-h' }, t('web.rated.leaderboard')),
      h('div', { class: 'row wrap', role: 'group', id: 'board-kinds' }, KINDS.map((k) => h('button', {
        type: 'button', key: `kind-${k}`, 'data-kind': k, class: k === kind ? 'primary' : 'secondary', 'aria-pressed': String(k === kind),
        on: { click: () => { kind = k; load(); } },
      }, t(`web.rated.kind_${k}`)))),
      h('div', { class: 'field' }, h('label', { for: 'board-season' }, t('web.rated.season')),
        h('select', { id: 'board-season', key: 'season', on: { change: (ev) => { season = ev.target.value; load(); } } },
          h('option', { value: '', selected: season === '' }, t('web.rated.all_time')),
          seasons.map((y) => h('option', { value: y, selected: y === season }, y)))),
      clubs.length || club ? h('div', { class: 'field' }, h('label', { for: 'board-club' }, t('web.club.board')),
        h('select', { id: 'board-club', key: 'club', on: { change: (ev) => { club = ev.target.value; load(); } } },
          h('option', { value: '', selected: club === '' }, t('web.club.board_all')),
          clubs.some((c) => c.id === club) || !club ? null : h('option', { value: club, selected: true }, club),
          clubs.map((c) => h('option', { value: c.id, selected: c.id === club }, c.name)))) : null,
      error ? h('p', { class: 'error', role: 'alert' }, error) : null,
      !board && !error ? h('p', { class: 'note' }, '…') : null,
      board && !rows.length ? h('p', { class: 'note', id: 'board-empty' }, t('web.rated.empty')) : null,
      rows.length ? h('table', { class: 'tallies board', id: 'board' },
        h('thead', {}, h('tr', {},
          h('th', { scope: 'col' }, t('web.rated.rank')), h('th', { scope: 'col' }, t('web.rated.player')),
          h('th', { scope: 'col' }, t('web.rated.ordinal')), h('th', { scope: 'col' }, t('web.rated.games')),
          h('th', { scope: 'col' }, t('web.rated.wins')))),
        h('tbody', {}, rows.map((r) => h('tr', { 'data-player': r.name, 'data-ordinal': r.ordinal, 'data-mu': r.mu, 'data-sigma': r.sigma },
          h('td', { class: 'n' }, String(r.rank)),
          h('th', { scope: 'row' }, link(`/players/${encodeURIComponent(r.name)}`, r.name),
            r.bot ? h('span', { class: 'badge bot-account' }, t('web.account.bot_badge')) : null),
          h('td', { class: 'n', title: `μ ${num(r.mu)} σ ${num(r.sigma)}` }, num(r.ordinal)),
          h('td', { class: 'n' }, String(r.games)),
          h('td', { class: 'n' }, String(r.wins)))))) : null,
      h('p', {}, link('/', t('web.rated.back'), { class: 'button secondary', id: 'board-back' })));
  }

  function load() {
    board = null;
    error = '';
    const q = new URLSearchParams({ kind });
    if (season) q.set('season', season);
    if (club) q.set('club', club);
    history.replaceState({}, '', `/ratings?${q}`);
    draw();
    call('GET', `/api/ratings?${q}`).then((got) => { board = got; draw(); }, (e) => { error = e.message; draw(); });
  }

  load();
  me().then((a) => (a ? accountApi.player(a.name) : null)).then((p) => {
    if (p && p.clubs && p.clubs.length) { clubs = p.clubs; draw(); }
  }, () => {});
  return { el, render: draw, destroy: () => {} };
}
