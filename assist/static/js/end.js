// The end of the game: the result, every seat's card and fate, and the
// protocol (a printable page, JSON and CSV) once the server holds every
// entry. A wrong last entry can still be taken back (the result reopens).

import { h } from './dom.js';
import { mount, button } from './ui.js';
import { t, tn, current } from './i18n.js';
import { name } from './engine.js';
import * as E from './engine.js';
import { scoreCard, linkCard } from './club.js';

/** Draws the result. */
export function endScreen(G) {
  const st = G.state;
  const p = E.protocol();
  const waiting = G.syncer.waiting();
  const id = G.rec.id;
  const rows = p.seats.map((s) => h('tr', { class: s.out ? 'out' : '' },
    h('td', {}, String(s.seat)), h('td', {}, s.name), h('td', {}, name('role', s.role)),
    h('td', {}, s.out ? t(`assist.fate.${s.out.cause}`, { Round: s.out.round }) : t('assist.fate.in')),
    h('td', {}, String(s.fouls || 0))));
  mount(
    h('section', { class: 'announce end', dataset: { t: 'result', winner: st.winner } },
      h('h2', {}, name('winner', st.winner))),
    h('table', { class: 'seats-table end-table' },
      h('thead', {}, h('tr', {}, ['#', t('assist.col.name'), t('assist.col.role'), t('assist.col.fate'), t('assist.col.fouls')].map((x) => h('th', {}, x)))),
      h('tbody', {}, rows)),
    waiting > 0
      ? h('p', { class: 'warn', dataset: { t: 'waiting' } }, tn('assist.end.waiting', waiting, { Count: waiting }))
      : h('div', { class: 'actions', dataset: { t: 'exports' } },
        h('a', { class: 'btn primary', href: `/host/games/${id}?lang=${current()}`, target: '_blank', dataset: { t: 'print' } }, t('assist.end.print')),
        h('a', { class: 'btn secondary', href: `/host/api/games/${id}/protocol.json`, download: `mafia-${id}.json` }, t('assist.end.json')),
        h('a', { class: 'btn secondary', href: `/host/api/games/${id}/protocol.csv?lang=${current()}`, download: `mafia-${id}.csv` }, t('assist.end.csv')),
        h('a', { class: 'btn secondary', href: `/host/api/games/${id}/protocol.csv?header=ids`, download: `mafia-${id}.ids.csv`, dataset: { t: 'csv-ids' } }, t('assist.club.csv_ids'))),
    waiting === 0 && !G.rec.create ? scoreCard(G, p) : null,
    waiting === 0 && !G.rec.create ? linkCard(G) : null,
    p.undone ? h('p', { class: 'note', dataset: { t: 'undone' } }, tn('assist.correction.count', p.undone, { Count: p.undone })) : null,
    h('details', { class: 'log' }, h('summary', {}, t('assist.end.log')), h('ol', {}, E.log().map((l) => h('li', {}, l)))),
    h('div', { class: 'actions' },
      G.undoButton(),
      button(t('assist.home'), () => { location.hash = '#/'; }, 'secondary', 'home')));
}
