// reviewsteps.js: the finished game as steps to play forward and back
// (issue 28, "What to build" item 2): the deal, each night, the morning,
// each speech and vote, the end, one at a time, with the table (every
// seat's name, card and whether it is still in the game) as it stood; from
// everyone's point of view (every card) or one seat's (what that seat knew:
// its own card and its team's, its own night actions and checks, its
// team's chat, the dead's chat once it was out). The step and the point of
// view are kept in the page's hash (#step=5&view=3), so a link opens the
// same step; the keys ←/→, Home/End step too. review.js draws it above the
// whole record (its printable form).

import { h, lines } from './dom.js';
import { t } from './i18n.js';
import { narrate, roleName } from './narrate.js';
import { isMafia, teamOf } from './names.js';

// STARTS are the events that begin a step.
const STARTS = new Set(['game_started', 'night_began', 'night_ended', 'day_began', 'speech', 'speech_skipped',
  'last_words', 'defence', 'tie_speech', 'vote_began', 'tie', 'all_vote_began', 'game_ended']);

// FLOORS are the steps where one seat holds the floor (its target).
const FLOORS = new Set(['speech', 'last_words', 'defence', 'tie_speech']);

// ACTOR_ONLY are the events only their actor saw (engine: AudActor).
const ACTOR_ONLY = new Set(['checked', 'healed', 'shot', 'skipped', 'vote_cast', 'all_vote_cast']);

/** stepsOf cuts game g (review.js's) into steps: each with its part of the
 * game (group: before, deal, night, day, end), round, items (an event
 * {e, i} or a chat line {chat}), the seat holding the floor, and the seats
 * out of the game by its end (seat -> the index of its player_out). */
export function stepsOf(g) {
  const steps = [];
  const out = new Map();
  let cur = null;
  let group = 'before';
  let round = 0;
  const open = (first) => {
    cur = { group, round, first, items: [], floor: 0, out: null };
    steps.push(cur);
  };
  const chat = [...g.chat].sort((a, b) => a.at - b.at);
  let c = 0;
  const say = (upTo) => {
    for (; c < chat.length && chat[c].at <= upTo; c++) {
      if (!cur) open(-1);
      cur.items.push({ chat: chat[c] });
    }
  };
  const close = () => { if (cur) cur.out = new Map(out); };
  g.events.forEach((e, i) => {
    say(i);
    if (e.kind === 'game_started') group = 'deal';
    else if (e.kind === 'night_began') { group = 'night'; round = e.round || round; } else if (e.kind === 'day_began') { group = 'day'; round = e.round || round; } else if (e.kind === 'game_ended') group = 'end';
    if (!cur || STARTS.has(e.kind)) {
      close();
      open(i);
      if (FLOORS.has(e.kind)) cur.floor = e.target || 0;
    }
    if (e.kind === 'player_out' && e.target) out.set(e.target, i);
    cur.items.push({ e, i });
  });
  say(Infinity);
  close();
  return steps;
}

/** cardsKnown returns the cards seat v knew at step st (v 0: everyone's,
 * every card): its own and, for a mafioso, the mafia's; all at the end. */
export function cardsKnown(roles, v, st) {
  if (v === 0 || st.group === 'end') return roles;
  const mine = roles[v - 1] || '';
  return roles.map((r, k) => (k === v - 1 || (isMafia(mine) && isMafia(r)) ? r : ''));
}

/** sees reports whether seat v (0: everyone) saw item it of the game whose
 * cards are roles and whose seats left at out (seat -> event index). */
export function sees(it, v, roles, out) {
  if (v === 0) return true;
  const mafia = isMafia(roles[v - 1]);
  if (it.chat) {
    if (it.chat.channel === 'mafia') return mafia;
    if (it.chat.channel === 'dead') return out.has(v) && out.get(v) < it.chat.at;
    return true;
  }
  const e = it.e;
  if (e.kind === 'mafia_chose') return mafia;
  if (ACTOR_ONLY.has(e.kind)) return e.actor === v;
  return true;
}

/** readHash reads the step and the point of view from the page's hash. */
export function readHash() {
  const q = new URLSearchParams(location.hash.slice(1));
  const n = (k) => { const x = parseInt(q.get(k) || '', 10); return Number.isFinite(x) && x >= 0 ? x : -1; };
  return { step: n('step'), view: n('view') };
}

/** stepper draws step rv.step of rv.steps from rv.view's point of view.
 * f is review.js's facts, nameOf names a seat, chatLine draws a chat
 * line, go(step, view) moves. */
export function stepper(rv, f, nameOf, chatLine, go) {
  const g = rv.game;
  const steps = rv.steps;
  const k = Math.min(Math.max(rv.step, 0), steps.length - 1);
  const st = steps[k];
  const v = rv.view;
  // The seats' out-of-game index over the whole game (for the dead's chat).
  const allOut = steps.length ? steps[steps.length - 1].out : new Map();
  const known = cardsKnown(f.roles, v, st);
  const label = (s) => (known[s - 1]
    ? t('web.who_role', { Seat: s, Name: nameOf(s), Role: roleName(known[s - 1]) })
    : t('web.who', { Seat: s, Name: nameOf(s) }));
  const plain = (s) => t('web.who', { Seat: s, Name: nameOf(s) });
  const title = (() => {
    switch (st.group) {
      case 'deal': return t('web.timeline.start');
      case 'night': return t('web.timeline.night', { Round: st.round });
      case 'day': return t('web.timeline.day', { Round: st.round });
      case 'end': return t('web.review.step.end');
      default: return t('web.review.before');
    }
  })();
  const items = st.items.filter((it) => sees(it, v, f.roles, allOut)).map((it) => {
    if (it.chat) return chatLine(it.chat);
    let e = it.e;
    // The deal as the seat saw it: its own card and its team's.
    if (e.kind === 'game_started' && v !== 0) e = { ...e, roles: cardsKnown(f.roles, v, st) };
    const cards = e.kind === 'game_started' || e.kind === 'game_ended';
    return h('li', { class: `ev k-${e.kind}`, 'data-kind': e.kind }, lines(narrate(e, v, cards ? plain : label)));
  });
  const nav = (id, to, glyph, key) => h('button', {
    type: 'button', id, key: id, class: 'rv-nav-b', 'aria-label': t(`web.review.step.${key}`), title: t(`web.review.step.${key}`),
    disabled: to === k || to < 0 || to >= steps.length, on: { click: () => go(to, v) },
  }, glyph);
  return h('section', { class: 'rv-stepper', id: 'rv-stepper', 'aria-labelledby': 'rv-step-h' },
    h('div', { class: 'rv-bar' },
      h('label', { class: 'rv-view' },
        h('span', {}, t('web.review.step.view')),
        h('select', { id: 'rv-view', key: 'rv-view', on: { change: (ev) => go(k, parseInt(ev.target.value, 10) || 0) } },
          h('option', { value: '0', selected: v === 0 }, t('web.review.step.view_all')),
          g.seats.map(({ seat: s }) => h('option', { value: String(s), selected: v === s }, t('web.who', { Seat: s, Name: nameOf(s) }))))),
      h('div', { class: 'rv-nav', role: 'group', 'aria-label': t('web.review.step.nav') },
        nav('rv-first', 0, '«', 'first'),
        nav('rv-back', k - 1, '‹', 'back'),
        h('span', { class: 'rv-pos', id: 'rv-pos', 'aria-live': 'polite' }, t('web.review.step.position', { N: k + 1, Count: steps.length })),
        nav('rv-forward', k + 1, '›', 'forward'),
        nav('rv-last', steps.length - 1, '»', 'last'))),
    h('div', { class: `rv-step rv-group ${st.group}`, id: 'rv-step', 'data-step': k, 'data-view': v, 'data-group': st.group, 'data-round': st.round },
      h('h3', { class: 'rv-title', id: 'rv-step-h' }, title),
      h('ol', { class: 'rv-board', id: 'rv-board', 'aria-label': t('web.review.step.board') }, g.seats.map(({ seat: s }) => {
        const r = known[s - 1] || '';
        const gone = st.out.has(s);
        return h('li', {
          class: `rv-seat team-${teamOf(r)}${gone ? ' dead' : ''}${st.floor === s ? ' floor' : ''}${v === s ? ' me' : ''}`,
          'data-seat': s, 'data-card': r, 'data-out': gone ? 'true' : 'false',
        },
        h('span', { class: 'num' }, String(s)),
        h('span', { class: 'name' }, nameOf(s)),
        r ? h('span', { class: `badge role r-${r}` }, roleName(r)) : null,
        gone ? h('span', { class: 'vh' }, t('web.review.step.out')) : null);
      })),
      items.length
        ? h('ol', { class: 'tl-items rv-items', id: 'rv-items' }, items)
        : h('p', { class: 'status', id: 'rv-nothing' }, t('web.review.step.nothing'))));
}
