// votes.js: the vote as people see it at a table. While a vote, a revote
// or "shall all of them leave?" runs, who has voted (the public vote_made:
// never for whom, which is secret until the close) as a mark on each living
// seat, and "5 of 9 have voted"; once it closes, who voted for whom as a
// grid (voters by candidates, or yes and no), which stays for the day,
// until the night. The log draws the same grid under each closed vote.

import { h } from './dom.js';
import { t, tn } from './i18n.js';
import { nameOf } from './names.js';

const VOTE_PHASES = new Set(['vote', 'revote', 'all_vote']);

// MANY_COLUMNS is the most candidates a grid shows beside the voters'
// names; past it a voter is its seat number (app.css: .vgrid.many).
const MANY_COLUMNS = 5;

/** votersNow returns the seats that have voted in the running vote: the
 * vote_made events since it began. */
export function votersNow(events) {
  const seats = new Set();
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i];
    if (e.kind === 'vote_began' || e.kind === 'all_vote_began') break;
    if (e.kind === 'vote_made') seats.add(e.actor);
  }
  return seats;
}

/** todaysVotes returns today's closed votes, in order: each the closing
 * event (vote_closed or all_vote_closed) with its candidates (from its
 * vote_began or the tie before an all-vote) and the seats that voted of
 * their own (the rest were counted for the last candidate). */
export function todaysVotes(events) {
  let from = 0;
  for (let i = events.length - 1; i >= 0; i--) {
    if (events[i].kind === 'night_began' || events[i].kind === 'day_began') { from = i; break; }
  }
  const out = [];
  let cands = [];
  let made = new Set();
  for (let i = from; i < events.length; i++) {
    const e = events[i];
    if (e.kind === 'vote_began') { cands = e.candidates || []; made = new Set(); }
    if (e.kind === 'tie') cands = e.candidates || [];
    if (e.kind === 'all_vote_began') made = new Set();
    if (e.kind === 'vote_made') made.add(e.actor);
    if (e.kind === 'vote_closed' || e.kind === 'all_vote_closed') out.push({ e, cands, made, i });
  }
  return out;
}

/** closedVoteAt returns the closed vote of events[i] (a vote_closed or an
 * all_vote_closed), with its candidates and who voted of their own. */
export function closedVoteAt(events, i) {
  let cands = [];
  let made = new Set();
  for (let j = i - 1; j >= 0; j--) {
    const e = events[j];
    if (e.kind === 'vote_made') made.add(e.actor);
    if (e.kind === 'vote_began') { cands = e.candidates || []; break; }
    if (e.kind === 'all_vote_began') {
      for (let k = j - 1; k >= 0; k--) {
        if (events[k].kind === 'tie') { cands = events[k].candidates || []; break; }
        if (events[k].kind === 'day_began') break;
      }
      break;
    }
  }
  return { e: events[i], cands, made, i };
}

/** voteGrid returns one closed vote as a table: a row per voter (seat and
 * name), a column per candidate (or yes and no in an all-vote), a mark
 * where the vote went (a hollow one for a seat that did not vote and was
 * counted for the last candidate), and the counts under each column. */
export function voteGrid(st, cv, id) {
  const { e } = cv;
  // A game recorded before vote_made told who voted has none: every
  // counted vote is drawn as a vote then.
  const known = cv.made.size > 0;
  const made = known ? cv.made : new Set((e.ballot || []).map((c, i) => (c ? i + 1 : 0)).filter((s) => s));
  const all = e.kind === 'all_vote_closed';
  const cols = all ? ['yes', 'no'] : (cv.cands.length ? cv.cands : [...new Set((e.ballot || []).filter((c) => c))]);
  const rows = [];
  if (all) {
    const yes = new Set(e.seats || []);
    for (const s of made) rows.push([s, yes.has(s) ? 'yes' : 'no', true]);
    rows.sort((a, b) => a[0] - b[0]);
  } else {
    (e.ballot || []).forEach((c, i) => { if (c) rows.push([i + 1, c, made.has(i + 1)]); });
  }
  const count = new Map(cols.map((c) => [c, 0]));
  for (const [, c] of rows) count.set(c, (count.get(c) || 0) + 1);
  const head = all ? (c) => t(c === 'yes' ? 'web.votes.yes' : 'web.votes.no') : (c) => String(c);
  const title = all ? t('web.votes.all_caption') : t(e.phase === 'revote' ? 'web.votes.revote_caption' : 'web.votes.caption');
  // Many columns (a big table's day of many candidates) leave the voters'
  // names no room on a phone: a row then shows the voter's seat number, its
  // name kept for a screen reader and as the number's title, so that the
  // grid fits its box at 360 px with no scroll of its own.
  const many = cols.length > MANY_COLUMNS;
  return h('div', { class: 'vgrid-wrap' }, h('table', { class: many ? 'vgrid many' : 'vgrid', id, 'data-kind': e.kind, 'data-columns': cols.length },
    h('caption', {}, title),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col', class: 'voter' }, many ? h('span', { class: 'vh' }, t('web.votes.voter')) : t('web.votes.voter')),
      cols.map((c) => h('th', { scope: 'col', 'data-cand': c, title: all ? '' : nameOf(st, c) }, head(c))))),
    h('tbody', {}, rows.map(([s, c, own]) => h('tr', { 'data-voter': s },
      h('th', { scope: 'row', class: 'voter', title: many ? nameOf(st, s) : null }, h('span', { class: 'num' }, String(s)), ' ', h('span', { class: many ? 'name vh' : 'name' }, nameOf(st, s))),
      cols.map((k) => h('td', k === c
        ? { class: own ? 'mark' : 'mark abstain', 'data-for': k, title: own ? '' : t('web.votes.abstained') }
        : {}, k === c ? (own ? '●' : '○') : ''))))),
    h('tfoot', {}, h('tr', {}, h('th', { scope: 'row', class: 'voter' }, many ? h('span', { 'aria-label': t('web.votes.total'), title: t('web.votes.total') }, 'Σ') : t('web.votes.total')),
      cols.map((c) => h('td', { 'data-count': c }, String(count.get(c) || 0)))))),
  rows.some(([, , own]) => !own) ? h('p', { class: 'note' }, '○ ', t('web.votes.abstained')) : null);
}

/** renderVotes returns the vote part of the table: during a vote who has
 * voted, live; after it, today's closed votes as grids, until the night. */
export function renderVotes(st) {
  const v = st.view;
  if (!v || v.phase === 'night' || v.phase === 'ended') return null;
  const out = [];
  const closed = todaysVotes(st.events);
  if (VOTE_PHASES.has(v.phase)) {
    const voted = votersNow(st.events);
    const living = (v.seats || []).filter((s) => s.alive !== false).map((s) => s.seat);
    const n = living.filter((s) => voted.has(s)).length;
    out.push(h('h2', {}, t('web.votes.heading')));
    out.push(h('p', { class: 'vprogress', id: 'vote-progress', 'data-voted': n, 'data-of': living.length, 'aria-live': 'polite' },
      tn('web.votes.progress', n, { Count: n, Total: living.length })));
    out.push(h('ul', { class: 'vmarks', id: 'vote-marks' }, living.map((s) => h('li', {
      class: voted.has(s) ? 'voted' : 'waiting', 'data-seat': s, 'data-voted': voted.has(s) ? '1' : '0',
      title: t(voted.has(s) ? 'web.votes.has_voted' : 'web.votes.not_yet'),
    }, h('span', { class: 'num' }, String(s)), h('span', { class: 'vmark', 'aria-label': t(voted.has(s) ? 'web.votes.has_voted' : 'web.votes.not_yet') },
      voted.has(s) ? '✓' : '…')))));
  }
  if (closed.length) {
    if (!out.length) out.push(h('h2', {}, t('web.votes.today')));
    closed.forEach((cv, k) => out.push(voteGrid(st, cv, `vote-grid-${k + 1}`)));
  }
  return out.length ? out : null;
}
