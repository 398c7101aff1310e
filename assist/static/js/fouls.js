// Fouls with one tap: the panel shows every living player's fouls, and a
// tap gives a foul at once (the panel stays open for the next). The foul
// that removes a player asks once more. The engine applies the limits: at
// foul limit−1 the player loses their next speech, at the limit they leave.

import { h } from './dom.js';
import { mount, button, seatGrid, toast } from './ui.js';
import { t, tn } from './i18n.js';
import { miniClock } from './timer.js';
import { stepKey } from './day.js';

/** Opens the fouls panel over the current screen. */
export function foulsPanel(G, pending) {
  const st = G.state;
  const limit = st.foul_limit;
  const removes = (s) => limit > 0 && st.fouls[s] + 1 >= limit;
  const give = G.act(async (s) => {
    const losing = limit > 1 && st.fouls[s] + 1 === limit - 1;
    if (!(await G.do([{ verb: 'foul', target: s }]))) return;
    if (removes(s) || G.rec.ui.announce || G.state.phase === 'ended') return; // the game shows what follows
    if (losing) toast(t('assist.fouls.loses_speech', { Who: G.who(s) }));
    foulsPanel(G);
  });
  mount(
    h('header', { class: 'step-head' }, h('h2', {}, t('assist.fouls.title'))),
    // A speech's clock goes on while the host gives a foul.
    miniClock(G.rec.ui, stepKey(st), () => G.save()),
    h('p', { class: 'note' }, limit > 0 ? t('assist.fouls.rule', { Lose: limit - 1, Out: limit }) : t('assist.fouls.recorded')),
    h('p', { class: 'say' }, t('assist.fouls.tap')),
    seatGrid({
      seats: st.alive,
      label: (s) => [G.rec.settings.names[s - 1], ''],
      mark: (s) => (st.fouls[s] ? tn('assist.fouls.count', st.fouls[s], { Count: st.fouls[s] }) : ''),
      selected: (s) => s === pending,
      acts: true,
      onpick: (s) => (removes(s) ? foulsPanel(G, s) : give(s)),
    }),
    pending ? h('p', { class: 'warn' }, t('assist.fouls.removes', { Who: G.who(pending) })) : null,
    h('div', { class: 'actions' },
      pending ? button(t('assist.fouls.give', { Who: G.who(pending) }), () => give(pending), 'primary', 'give-foul') : null,
      button(t('assist.back'), () => G.render(), 'secondary', 'back')));
}
