// The night script: one screen per wake in the sheet's order (the mafia, the
// Don, the detective, from night 2 the maniac, the doctor), with what the
// host says, the legal choices only, and the answer to signal shown large.
// A role that is out is still woken: its screen says so, and the host waits
// as usual, so the table cannot tell.

import { h } from './dom.js';
import { mount, button, seatGrid, range } from './ui.js';
import { t } from './i18n.js';
import { name } from './engine.js';
import * as E from './engine.js';
import { toast } from './ui.js';

const SKIP = { mafia: 'assist.night.skip_mafia', don: 'assist.night.skip_check', detective: 'assist.night.skip_check', maniac: 'assist.night.skip_shot', doctor: 'assist.night.skip_heal' };

/** Draws the current wake of the night. */
export function nightScreen(G) {
  const st = G.state;
  const sc = st.night;
  const ui = G.rec.ui;
  if (!ui.night || ui.night.round !== sc.round) {
    ui.night = { round: sc.round, step: 0, answer: null, miss: false, pick: 0 };
    G.save();
  }
  const n = ui.night;
  // The next wake: moved to with the tap's entries (then), or at once.
  const onward = () => { n.step += 1; n.answer = null; n.pick = 0; };
  const advance = () => { onward(); G.save(); G.render(); };
  const head = h('header', { class: 'step-head night' },
    h('div', { class: 'step-kicker' }, t('assist.night.title', { Round: sc.round })));
  if (n.step >= sc.wakes.length) {
    mount(head, G.toolbar(),
      h('h2', {}, t('assist.night.morning_title')),
      h('p', { class: 'say' }, t('assist.say.morning')),
      button(t('assist.night.end'), G.act(() => G.do([{ verb: 'next' }])), 'primary', 'morning'));
    return;
  }
  const w = sc.wakes[n.step];
  const roleName = w.role === 'mafia' ? t('assist.night.the_mafia') : name('role', w.role);
  head.append(h('h2', { dataset: { t: 'wake', role: w.role } }, roleName),
    h('div', { class: 'holders' }, w.seats.map((s) => G.who(s)).join(', ')));
  const say = h('p', { class: 'say' }, t(`assist.say.${w.role}`));
  const sleep = h('p', { class: 'say sleep' }, t(`assist.say.${w.role}_sleep`));
  const next = (label) => button(label || t('assist.night.next'), G.act(() => {
    if (w.role === 'don' && n.miss) {
      // The mafia chose nobody: the Don's own skip, after his check.
      G.do([{ verb: 'skip', by: w.actor }], () => { n.miss = false; onward(); });
      return;
    }
    advance();
  }), 'primary', 'next');

  if (sc.meeting) {
    mount(head, G.toolbar(), h('p', { class: 'note' }, t('assist.night.meeting')), say, sleep, next());
    return;
  }
  if (!w.alive) {
    mount(head, G.toolbar(), h('p', { class: 'note out', dataset: { t: 'out' } }, t('assist.night.out', { Role: roleName })), say, sleep, next());
    return;
  }
  if (n.answer) {
    mount(head, G.toolbar(), answer(G, w, n.answer), sleep, next());
    return;
  }
  if (w.acted) {
    const did = w.target ? t('assist.night.done', { Who: G.who(w.target) }) : t('assist.night.done_none');
    mount(head, G.toolbar(), h('p', { class: 'note' }, did), w.result ? answer(G, w, w.result) : null, sleep, next());
    return;
  }
  const all = range(st.players);
  const pick = (s) => { n.pick = s; G.save(); G.render(); };
  const grid = seatGrid({
    seats: all,
    label: (s) => [G.rec.settings.names[s - 1], G.role(s)],
    enabled: (s) => w.targets.includes(s),
    selected: (s) => n.pick === s,
    out: (s) => !st.alive.includes(s),
    onpick: pick,
    ondisabled: (s) => toast(G.refusal({ verb: w.verb, by: w.actor, target: s }) || t('assist.night.not_now'), 'error'),
  });
  const confirm = G.act(() => {
    const target = n.pick;
    if (!target) return;
    if (w.role === 'mafia') {
      G.do(E.mafia(target), onward);
      return;
    }
    G.do([{ verb: w.verb, by: w.actor, target }], (ok) => {
      if (!ok) return;
      if (w.verb === 'check') {
        // The answer, shown large, before the next wake.
        const now = G.state.night.wakes.find((x) => x.role === w.role);
        n.answer = (now && now.result) || null;
        n.pick = 0;
        return;
      }
      onward();
    });
  });
  const skip = G.act(() => {
    if (w.role === 'mafia') {
      const cmds = E.mafia(0);
      const donAlive = sc.wakes.some((x) => x.role === 'don' && x.alive);
      if (!cmds.length) { n.miss = donAlive; advance(); return; }
      G.do(cmds, () => { n.miss = donAlive; onward(); });
      return;
    }
    G.do([{ verb: 'skip', by: w.actor }], (ok) => { n.miss = false; if (ok) onward(); });
  });
  const extra = w.role === 'maniac' ? h('p', { class: 'note' }, t('assist.night.shots_left', { Count: w.shots_left })) : null;
  const chosen = n.pick ? t('assist.night.confirm', { Who: G.who(n.pick) }) : t('assist.night.choose');
  mount(head, G.toolbar(), say, extra, grid,
    h('div', { class: 'actions' },
      button(chosen, confirm, `primary ${n.pick ? '' : 'disabled'}`, 'confirm'),
      w.can_skip || w.role === 'mafia' ? button(t(SKIP[w.role]), skip, 'secondary', 'skip') : null),
    sleep);
}

/** The answer of a check, large, as the host signals it. */
function answer(G, w, result) {
  const yes = result === 'detective' || result === 'mafia' || result === 'maniac';
  return h('div', { class: `answer ${yes ? 'yes' : 'no'}`, dataset: { t: 'answer', result } },
    h('div', { class: 'answer-mark', 'aria-hidden': 'true' }, yes ? '✓' : '✗'),
    h('div', { class: 'answer-word' }, t(`assist.answer.${result}`)),
    h('div', { class: 'answer-sign' }, t(yes ? 'assist.answer.sign_yes' : 'assist.answer.sign_no')),
    h('div', { class: 'answer-who' }, G.who(w.target || 0)));
}
