// Cards dealt by hand that the host has not seen: at the setup a seat's
// card may be left unknown ("—"), and on night 1, before the night's
// actions, the host wakes each role in the sheet's order (the mafia, the
// Don, the detective, the maniac, the doctor), taps who holds its card, and
// the players left are citizens. Only then is the game made (the server's
// deal by hand, or the phone's), with every card known: the engine plays by
// its rules as ever. The maniac, who acts only from night 2, is woken here
// too, so that his card is known from the start.

import { h } from './dom.js';
import { mount, button, seatGrid, range, toast } from './ui.js';
import { t, tn } from './i18n.js';
import { name } from './engine.js';

const ORDER = ['mafia', 'don', 'detective', 'maniac', 'doctor'];

/**
 * Runs the wakes for the unknown cards of a deal by hand. roles: each
 * seat's card or '' (unknown); counts: the setup's cards by role; names:
 * the seats' names. done(roles) gets every seat's card; cancel() goes back
 * to the setup. progress ({known, step, picked}, optional) is where the
 * round stands, updated at each tap, and keep() is called after each
 * change (the setup keeps it on the phone: a reload goes on from there).
 */
export function wakeCards(roles, counts, names, done, cancel, progress, keep) {
  const pr = progress || {};
  const save = keep || (() => {});
  if (!Array.isArray(pr.known) || pr.known.length !== roles.length) { pr.known = [...roles]; pr.step = 0; pr.picked = []; }
  const known = pr.known;
  const initial = [...roles];
  const left = (r) => (counts[r] || 0) - known.filter((x) => x === r).length;
  // The roles to wake: those whose cards were unknown at the setup.
  const todo = ORDER.filter((r) => (counts[r] || 0) - initial.filter((x) => x === r).length > 0);
  let step = pr.step || 0;
  let picked = Array.isArray(pr.picked) ? pr.picked : [];
  const note = () => { pr.step = step; pr.picked = picked; save(); };
  const who = (s) => t('assist.who', { Seat: s, Name: names[s - 1] || '' });
  const draw = () => {
    const head = h('header', { class: 'step-head night' },
      h('div', { class: 'step-kicker' }, t('assist.night.title', { Round: 1 })),
      h('div', { class: 'step-name' }, t('assist.cards.title')));
    if (step >= todo.length) {
      const rest = range(known.length).filter((s) => !known[s - 1]);
      mount(head,
        h('h2', { dataset: { t: 'cards-rest' } }, tn('assist.cards.rest', rest.length, { Count: rest.length })),
        h('p', { class: 'note' }, rest.map(who).join(', ')),
        h('p', { class: 'say sleep' }, t('assist.cards.then')),
        h('div', { class: 'actions' },
          button(t('assist.cards.start'), () => done(known.map((r) => r || 'citizen')), 'primary', 'cards-done'),
          button(t('assist.cards.again'), () => { pr.known = null; wakeCards(roles, counts, names, done, cancel, pr, keep); }, 'secondary', 'cards-again')));
      return;
    }
    const r = todo[step];
    const need = left(r);
    const role = name('role', r);
    mount(head,
      h('p', { class: 'say', dataset: { t: 'cards-wake', role: r } }, tn('assist.cards.wake', need, { Role: role, Count: need })),
      h('div', { class: 'count', dataset: { t: 'hands' } }, `${picked.length} / ${need}`),
      seatGrid({
        seats: range(known.length),
        label: (s) => [names[s - 1], known[s - 1] ? name('role', known[s - 1]) : ''],
        enabled: (s) => !known[s - 1],
        selected: (s) => picked.includes(s),
        onpick: (s) => {
          if (picked.includes(s)) picked = picked.filter((x) => x !== s);
          else if (picked.length < need) picked = [...picked, s];
          note();
          draw();
        },
        ondisabled: () => toast(t('assist.cards.taken'), 'error'),
      }),
      h('div', { class: 'actions' },
        button(tn('assist.cards.confirm', need, { Role: role, Count: need }), () => {
          if (picked.length !== need) { toast(tn('assist.cards.wake', need, { Role: role, Count: need }), 'error'); return; }
          picked.forEach((s) => { known[s - 1] = r; });
          picked = [];
          step += 1;
          note();
          draw();
        }, `primary ${picked.length === need ? '' : 'disabled'}`, 'cards-confirm'),
        button(t('assist.cancel'), cancel, 'secondary', 'cancel')),
      h('p', { class: 'say sleep' }, t(`assist.say.${r}_sleep`)));
  };
  draw();
}
