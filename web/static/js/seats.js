// seats.js: the table's seats, in a grid (a circle of cards on a wide
// screen): who sits where, who is alive, who speaks, the candidates, the
// fouls, and the cards and check answers this seat may know.

import { h } from './dom.js';
import { t, tn } from './i18n.js';
import { roleName, teamName, resultName } from './narrate.js';
import { nameOf, seatInfo, players } from './names.js';

/** renderSeats returns the seats' section. ctx.host(action, target, step)
 * runs a host's action. */
export function renderSeats(st, ctx) {
  const n = players(st);
  const v = st.view;
  const playing = !!v && v.phase !== 'ended';
  const cands = v ? v.candidates || [] : [];
  const items = [];
  for (let s = 1; s <= n; s++) {
    const info = seatInfo(st, s) || {};
    const vs = v && v.seats ? v.seats[s - 1] || {} : {};
    const me = st.seat === s;
    const dead = v && vs.alive === false;
    const speaking = v && v.speaker === s && playing;
    const cand = playing && cands.includes(s);
    // With the card hidden the seats tell no card, team, check or choice.
    const shown = !st.cardHidden || !playing;
    const cls = ['seat'];
    if (me) cls.push('me');
    if (dead) cls.push('dead');
    if (speaking) cls.push('speaking');
    if (cand) cls.push('candidate');
    if (!info.taken) cls.push('free');
    const role = shown ? vs.role || (me && v ? v.role : '') : '';
    if (role) cls.push(`role-${role}`);
    const badges = [];
    if (me) badges.push(h('span', { class: 'badge you' }, t('web.you')));
    if (dead) badges.push(h('span', { class: 'badge out' }, t('web.out')));
    if (role) badges.push(h('span', { class: `badge role r-${role}`, 'data-role': role }, roleName(role)));
    else if (vs.team && shown) badges.push(h('span', { class: `badge team t-${vs.team}` }, teamName(vs.team)));
    // At the end every card is shown: a check would say it twice.
    if (vs.check && shown && playing) badges.push(h('span', { class: `badge check c-${vs.check}`, 'data-check': vs.check }, resultName(vs.check)));
    if (speaking) badges.push(h('span', { class: 'badge speaking' }, t('web.speaking')));
    if (cand) badges.push(h('span', { class: 'badge cand' }, t('web.candidate')));
    if (vs.fouls > 0) badges.push(h('span', { class: 'badge fouls' }, tn('web.fouls', vs.fouls)));
    if (vs.lost_speech) badges.push(h('span', { class: 'badge lost' }, t('web.lost_speech')));
    if (vs.choice && !me && shown) badges.push(h('span', { class: 'badge choice' }, t('web.choice', { Target: vs.choice })));
    if (info.taken && !info.bot && !info.connected) badges.push(h('span', { class: 'badge offline' }, t('web.offline')));
    const tools = [];
    if (st.host && !v && st.lobby && st.lobby.status === 'lobby' && info.taken && !me) {
      tools.push(h('button', {
        class: 'small', type: 'button', key: `kick-${s}`, disabled: st.busy,
        'aria-label': t('web.host.kick_label', { Seat: s, Name: nameOf(st, s) }),
        on: { click: () => ctx.host('kick', s) },
      }, t('web.host.kick')));
    }
    if (st.host && st.foulTools && playing && !dead) {
      tools.push(h('button', {
        class: 'small', type: 'button', key: `foul-${s}`, 'data-host': 'foul', 'data-target': s, disabled: st.busy,
        'aria-label': t('web.host.foul_label', { Seat: s, Name: nameOf(st, s) }),
        on: { click: () => ctx.host('foul', s, v.step) }, // for this step only
      }, t('web.host.foul')));
    }
    items.push(h('li', { class: cls.join(' '), 'data-seat': s },
      h('div', { class: 'seat-top' },
        h('span', { class: 'num', 'aria-hidden': 'true' }, String(s)),
        h('span', { class: 'who' },
          h('span', { class: 'vh' }, `${t('web.seat', { Seat: s })}: `),
          h('span', { class: 'name' }, nameOf(st, s)))),
      badges.length ? h('div', { class: 'badges' }, badges) : null,
      tools.length ? h('div', { class: 'tools' }, tools) : null));
  }
  return [
    h('h2', { id: 'seats-h' }, t('web.seats')),
    h('ol', { class: `seats n${n}`, 'aria-labelledby': 'seats-h' }, items),
  ];
}
