// pregame.js: a table before its start: the invite link, the house rules,
// taking a seat with a name, and the host's bots and start.

import { h, keep } from './dom.js';
import { t, tn } from './i18n.js';
import { TIMINGS } from './names.js';
import { boot } from './boot.js';
import { renderRatedSeat } from './ratedseat.js';

/** makeJoinForm builds the name field and its button once, so that what a
 * player types survives every re-render. */
export function makeJoinForm(onJoin) {
  const input = h('input', {
    id: 'join-name', type: 'text', maxlength: 32, autocomplete: 'nickname', key: 'join-name',
    value: localStorage.getItem('mafia.name') || '',
  });
  const label = h('label', { for: 'join-name' });
  const button = h('button', { type: 'submit', class: 'primary', id: 'join', key: 'join' });
  const form = h('form', {
    class: 'join', on: { submit: (ev) => { ev.preventDefault(); onJoin(input.value.trim()); } },
  }, label, h('div', { class: 'row' }, input, button));
  keep(form);
  return { form, input, label, button };
}

/** renderPregame returns the section of a table in its lobby. */
export function renderPregame(st, ctx, join, ratedSeat) {
  const l = st.lobby;
  if (!l || st.view || l.status !== 'lobby') return null;
  const taken = (l.seats || []).filter((s) => s.taken).length;
  const url = `${location.origin}/t/${l.table}`;
  const out = [h('h2', {}, t('web.pre.heading'))];
  out.push(h('p', { class: 'status', id: 'taken' }, tn('web.pre.taken', l.players, { Taken: taken, Count: l.players })));
  out.push(h('div', { class: 'invite' },
    h('label', { for: 'invite-url' }, t('web.pre.invite')),
    h('div', { class: 'row' },
      h('input', { id: 'invite-url', type: 'text', readonly: true, value: url, key: 'invite-url', on: { focus: (ev) => ev.target.select() } }),
      h('button', { type: 'button', key: 'copy', on: { click: () => ctx.copy(url) } }, st.copied ? t('web.pre.copied') : t('web.pre.copy'))),
    // The same link as a QR code, for a phone beside this one.
    h('details', { class: 'qr', open: qrOpen, on: { toggle: (ev) => { qrOpen = ev.target.open; } } },
      h('summary', { key: 'qr' }, t('web.pre.qr')),
      h('img', { id: 'invite-qr', src: `/t/${l.table}?qr=${encodeURIComponent(location.origin)}`, alt: t('web.pre.qr_alt'), width: 220, height: 220 }))));
  out.push(rules(l));
  // A rated table seats accounts only: a guest is offered to log in there.
  const rated = l.rated && boot.accounts && ratedSeat;
  if (!st.seat && rated) {
    out.push(renderRatedSeat(st, ctx, ratedSeat, taken >= l.players));
  } else if (!st.seat) {
    join.label.textContent = t('web.pre.your_name');
    join.button.textContent = t('web.pre.join');
    join.button.disabled = st.busy;
    if (taken < l.players) out.push(join.form);
    else out.push(h('p', { class: 'note' }, t('error.table_full')));
  } else {
    out.push(h('p', { class: 'note', id: 'seated' }, t('web.pre.seated', { Seat: st.seat })));
    out.push(h('button', { type: 'button', class: 'secondary', key: 'leave', disabled: st.busy, on: { click: ctx.leave } }, t('web.pre.leave')));
  }
  if (st.host) {
    out.push(h('h3', {}, t('web.host.heading')));
    // The server's bots sit at no rated table (room.CodeRatedTable): its
    // host is told who may fill its seats instead of offered the bots.
    if (!l.rated) out.push(h('p', { class: 'hint' }, t('web.pre.host_hint')));
    else {
      out.push(h('p', { class: 'hint', id: 'rated-host' }, t('web.rated_seat.host_hint'), ' ', h('a', {
        href: '/account', id: 'rated-bots', key: 'rated-bots', 'data-nav': true,
      }, t('web.rated_seat.your_bots'))));
    }
    out.push(h('div', { class: 'row wrap' },
      l.rated ? null : h('button', { type: 'button', id: 'add-bots', key: 'add-bots', disabled: st.busy || taken === l.players, 'data-act': 'add-bots' }, t('web.host.add_bots')),
      h('button', { type: 'button', class: 'primary', id: 'start', key: 'start', disabled: st.busy, 'data-act': 'start' }, t('web.host.start'))));
  } else {
    out.push(h('p', { class: 'hint' }, t('web.pre.wait_host')));
  }
  return out;
}

/** rules lists the table's house rules and timings. */
export function rules(l) {
  const items = [];
  const rules = l.rules || {};
  if (l.rules_code) {
    items.push(h('li', { 'data-t': 'rules-code' }, h('span', { class: 'k' }, t('web.pre.rules_code')), ' ',
      h('code', { class: 'v' }, l.rules_code)));
  }
  for (const { name, values } of boot.options) {
    if (!(name in rules)) continue;
    const value = rules[name];
    const v = values ? t(`web.value.${name}_${value}`) : value; // a number is shown as it is
    items.push(h('li', {}, h('span', { class: 'k' }, t(`web.option.${name}`)), ' ', h('span', { class: 'v' }, v)));
  }
  for (const name of TIMINGS) {
    const ms = (l.timings_ms || {})[name];
    if (ms === undefined) continue;
    items.push(h('li', {}, h('span', { class: 'k' }, t(`web.timing.${name}`)), ' ',
      h('span', { class: 'v' }, tn('web.seconds', Math.round(ms / 100) / 10))));
  }
  return h('details', {
    class: 'rules', open: rulesOpen, on: { toggle: (ev) => { rulesOpen = ev.target.open; } },
  }, h('summary', { key: 'rules' }, t('web.pre.rules')), h('ul', {}, items));
}

// qrOpen keeps the invite's QR code shown across re-renders.
let qrOpen = false;

// rulesOpen keeps the rules' list open across re-renders.
let rulesOpen = false;
