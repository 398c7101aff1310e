// Fouls with one tap: the panel shows every living player's fouls; a tap
// asks once, then gives the foul. The engine applies the limits: at foul
// limit−1 the player loses their next speech, at the limit they leave.

import { h, mount, button, seatGrid } from './ui.js';
import { t, plural } from './i18n.js';

/** Opens the fouls panel over the current screen. */
export function foulsPanel(G) {
  const st = G.state;
  let pick = 0;
  const limit = st.foul_limit;
  const draw = () => {
    const after = pick ? st.fouls[pick] + 1 : 0;
    let warn = '';
    if (pick && limit > 0 && after >= limit) warn = t('assist.fouls.removes', { Who: G.who(pick) });
    else if (pick && limit > 1 && after === limit - 1) warn = t('assist.fouls.loses_speech', { Who: G.who(pick) });
    mount(
      h('header', { class: 'step-head' }, h('h2', {}, t('assist.fouls.title'))),
      h('p', { class: 'note' }, limit > 0 ? t('assist.fouls.rule', { Lose: limit - 1, Out: limit }) : t('assist.fouls.recorded')),
      seatGrid({
        seats: st.alive,
        label: (s) => [G.rec.settings.names[s - 1], ''],
        mark: (s) => (st.fouls[s] ? plural('assist.fouls.count', st.fouls[s], { Count: st.fouls[s] }) : ''),
        selected: (s) => s === pick,
        onpick: (s) => { pick = s; draw(); },
      }),
      warn ? h('p', { class: 'warn' }, warn) : null,
      h('div', { class: 'actions' },
        button(pick ? t('assist.fouls.give', { Who: G.who(pick) }) : t('assist.fouls.choose'), () => {
          if (pick) G.do([{ verb: 'foul', target: pick }]);
        }, `primary ${pick ? '' : 'disabled'}`, 'give-foul'),
        button(t('assist.back'), () => G.render(), 'secondary', 'back')));
  };
  draw();
}
