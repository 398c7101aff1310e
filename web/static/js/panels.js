// panels.js: the smaller parts of the table: my card (tap to hide), the
// candidates, the check answers so far, the host's tools and the log.

import { h, lines } from './dom.js';
import { t, tn } from './i18n.js';
import { narrate, roleName, teamName, resultName, seatList, tally } from './narrate.js';
import { nameOf, teamOf, isMafia } from './names.js';
import { closedVoteAt, voteGrid } from './votes.js';
import { openHowto } from './howto.js';

/** renderCard returns my role card: a button that hides and shows it (so
 * that a neighbour does not read it off the screen), and what the card
 * knows: the team, the doctor's heals, the maniac's shots. */
export function renderCard(st, ctx) {
  const v = st.view;
  if (!v || !st.seat || !v.role) return null;
  const role = v.role;
  const hidden = st.cardHidden;
  const body = [];
  if (!hidden) {
    const mates = [];
    for (const s of v.seats || []) {
      if (s.seat !== st.seat && s.role && isMafia(role) && isMafia(s.role)) {
        mates.push(t('view.item', { Seat: s.seat, What: `${roleName(s.role)}, ${nameOf(st, s.seat)}` }));
      }
    }
    if (mates.length) body.push(h('p', { class: 'mates' }, t('view.team', { List: mates.join('; ') })));
    const night = v.night || {};
    if (role === 'doctor' && night.healed && night.healed.length) {
      body.push(h('p', {}, t('view.healed', { Seats: seatList(night.healed) })));
    }
    // The shots are the living maniac's, while the game goes on.
    const me = (v.seats || [])[st.seat - 1] || {};
    if (role === 'maniac' && typeof night.shots_left === 'number' && me.alive !== false && v.phase !== 'ended') {
      body.push(h('p', {}, tn('view.shots', night.shots_left)));
    }
  }
  return [
    h('h2', { class: 'vh' }, t('web.card.heading')),
    h('button', {
      type: 'button', class: `card ${hidden ? 'hidden' : `role-${role} team-${teamOf(role)}`}`, key: 'card',
      id: 'my-card', 'aria-expanded': hidden ? 'false' : 'true', on: { click: ctx.toggleCard },
    },
    hidden
      ? h('span', { class: 'card-hidden' }, t('web.card.show'))
      : [
        h('span', { class: 'card-label' }, t('web.card.your', { Seat: st.seat })),
        h('span', { class: 'card-role', 'data-role': role }, roleName(role)),
        h('span', { class: 'card-team' }, t('web.card.team', { Team: teamName(teamOf(role)) })),
        // At the deal the announcement above says what the card does.
        st.dealUp ? null : h('span', { class: 'card-help' }, t(`web.role_help.${role}`)),
        h('span', { class: 'card-tap' }, t('web.card.hide')),
      ]),
    body.length ? h('div', { class: 'card-more' }, body) : null,
    hidden ? null : h('button', { type: 'button', class: 'small card-about', id: 'card-about', key: 'card-about', on: { click: () => openHowto(role) } },
      t('web.cardinfo.about')),
  ];
}

/** nominations returns who nominated whom today: target -> nominator. */
function nominations(st) {
  const by = new Map();
  for (let i = st.events.length - 1; i >= 0; i--) {
    const e = st.events[i];
    if (e.kind === 'day_began' || e.kind === 'night_began') break;
    if (e.kind === 'nominated') by.set(e.target, e.actor);
  }
  return by;
}

/** lastVote returns today's last closed vote, if any. */
function lastVote(st) {
  for (let i = st.events.length - 1; i >= 0; i--) {
    const e = st.events[i];
    if (e.kind === 'day_began' || e.kind === 'night_began') return null;
    if (e.kind === 'vote_closed') return e;
  }
  return null;
}

/** renderCandidates returns today's candidates in their order, who named
 * them, who defends now, and the last vote's count. */
export function renderCandidates(st) {
  const v = st.view;
  if (!v || v.phase === 'night' || v.phase === 'ended') return null;
  const cands = v.candidates || [];
  const vote = lastVote(st);
  if (!cands.length && !vote) return null;
  const by = nominations(st);
  const out = [h('h2', {}, t('web.candidates'))];
  if (cands.length) {
    out.push(h('ol', { class: 'cands' }, cands.map((s) => h('li', {
      class: v.speaker === s && v.phase !== 'speech' ? 'defending' : '', 'data-seat': s,
    },
    h('span', { class: 'num' }, String(s)), ' ', h('span', { class: 'name' }, nameOf(st, s)),
    by.has(s) ? h('span', { class: 'by' }, t('web.nominated_by', { Seat: by.get(s) })) : null,
    v.speaker === s && (v.phase === 'defence' || v.phase === 'tie_speech')
      ? h('span', { class: 'badge speaking' }, t('web.defending')) : null))));
  }
  if (vote) {
    out.push(h('h3', {}, t(vote.phase === 'revote' ? 'web.revote_result' : 'web.vote_result')));
    out.push(h('ul', { class: 'tally' }, tally(vote).map(([c, vs]) => h('li', {},
      tn('event.tally', vs.length, { Seat: `${c} (${nameOf(st, c)})`, Count: vs.length, Voters: vs.join(', ') })))));
  }
  return out;
}

/** renderChecks returns the Don's or the Detective's answers so far. */
export function renderChecks(st) {
  const v = st.view;
  // A hidden card hides its checks too: their heading tells the card.
  if (!v || !st.seat || st.cardHidden || v.phase === 'ended' || (v.role !== 'don' && v.role !== 'detective')) return null;
  const items = (v.seats || []).filter((s) => s.check).map((s) => h('li', { 'data-seat': s.seat, 'data-check': s.check },
    t('view.item', { Seat: s.seat, What: `${resultName(s.check)} (${nameOf(st, s.seat)})` })));
  return [
    h('h2', {}, t('web.checks')),
    items.length ? h('ul', { class: 'checks' }, items) : h('p', { class: 'note' }, t('web.checks_none')),
  ];
}

/** renderHost returns the host's tools during a game: the pause, and a
 * switch that puts a foul button on every living player's seat. */
export function renderHost(st, ctx) {
  if (!st.host || !st.view || st.view.phase === 'ended') return null;
  const pause = st.paused
    ? h('button', { type: 'button', key: 'resume', 'data-host': 'resume', disabled: st.busy, on: { click: () => ctx.host('resume') } }, t('web.host.resume'))
    : h('button', { type: 'button', key: 'pause', 'data-host': 'pause', disabled: st.busy, on: { click: () => ctx.host('pause') } }, t('web.host.pause'));
  return [
    h('h2', {}, t('web.host.heading')),
    h('div', { class: 'row wrap' }, pause, h('button', {
      type: 'button', key: 'fouls', id: 'foul-tools', 'aria-pressed': st.foulTools ? 'true' : 'false', on: { click: ctx.toggleFouls },
    }, t('web.host.fouls'))),
    st.foulTools ? h('p', { class: 'hint' }, t('web.host.fouls_hint')) : null,
  ];
}

// The events of a seat's own night moves and its team's: with the card
// hidden they are not drawn (they would tell the card).
const PRIVATE = new Set(['mafia_chose', 'checked', 'healed', 'shot', 'skipped']);

/** groupByRound splits events into the game's nights and days, in order:
 * [{kind: 'night' | 'day' | 'start', round, events: [[event, index]...]}]. */
export function groupByRound(events) {
  const groups = [];
  let g = null;
  events.forEach((e, i) => {
    if (e.kind === 'night_began' || e.kind === 'day_began' || !g) {
      const kind = e.kind === 'night_began' ? 'night' : e.kind === 'day_began' ? 'day' : 'start';
      g = { kind, round: e.round || 0, events: [] };
      groups.push(g);
    }
    g.events.push([e, i]);
  });
  return groups;
}

/** renderLog returns everything this seat has seen happen, by night and
 * day: the current one open, the others collapsed. label writes a seat
 * (its number and name). */
export function renderLog(st, label) {
  if (!st.events.length) return null;
  const groups = groupByRound(st.events);
  const items = groups.map((g, gi) => {
    const list = [];
    for (const [e, i] of g.events) {
      if (st.cardHidden && PRIVATE.has(e.kind)) continue;
      // Who has voted is marked live in the vote part; the log keeps the
      // grid of the closed vote below.
      if (e.kind === 'vote_made') continue;
      let text = narrate(e, st.seat, label);
      // With the card hidden, the deal says only how many play.
      if (st.cardHidden && e.kind === 'game_started') text = text.split('\n')[0];
      const grid = e.kind === 'vote_closed' || e.kind === 'all_vote_closed' ? voteGrid(st, closedVoteAt(st.events, i), `log-vote-${i}`) : null;
      list.push(h('li', { class: `ev k-${e.kind}`, 'data-i': i }, lines(text), grid));
    }
    const title = g.kind === 'start' ? t('web.timeline.start') : t(`web.timeline.${g.kind}`, { Round: g.round });
    return h('li', { class: `log-group ${g.kind}` }, h('details', { open: gi === groups.length - 1 },
      h('summary', {}, title), h('ol', { class: 'log-items' }, list)));
  });
  return [h('h2', {}, t('web.log')), h('ol', { class: 'log', id: 'log' }, items)];
}
