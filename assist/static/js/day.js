// The day's timed steps: last words, speeches (with the nominate button),
// defences and tie speeches. Each shows the speaker, the queue after them,
// the candidates so far, and the large clock.

import { h } from './dom.js';
import { mount, button, seatGrid, range, toast } from './ui.js';
import { t } from './i18n.js';
import { clock, miniClock, stopTicking } from './timer.js';

/** The step a clock belongs to: one speaker's turn in one phase of one day. */
export const stepKey = (st) => `${st.phase}:${st.round}:${st.speaker}`;

const SECONDS = { speech: 'speech', defence: 'defence', tie_speech: 'tie_speech', last_words: 'last_words' };

/** Draws the current speech, defence, tie speech or last words. */
export function timedScreen(G) {
  const st = G.state;
  const ui = G.rec.ui;
  const tm = G.rec.settings.timings;
  const secs = tm[SECONDS[st.phase]] || 60;
  const key = stepKey(st);
  const head = h('header', { class: 'step-head day' },
    h('div', { class: 'step-kicker' }, t('assist.day.title', { Round: st.round })),
    h('div', { class: 'step-name', dataset: { t: 'phase', phase: st.phase } }, t(`assist.step.${st.phase}`)),
    h('h2', { dataset: { t: 'speaker', seat: String(st.speaker) } }, G.who(st.speaker)));
  if (ui.nominating === key) {
    nominate(G, head, key);
    return;
  }
  const next = G.act(() => { stopTicking(); G.do([{ verb: 'next' }], () => { ui.timer = null; }); });
  const parts = [head, G.toolbar(), clock(ui, key, secs, () => G.save(), next)];
  if (st.phase === 'speech') {
    if (st.nominated) {
      const last = st.candidates[st.candidates.length - 1];
      parts.push(h('p', { class: 'note', dataset: { t: 'nominated' } }, t('assist.day.nominated', { Who: G.who(last) })));
    } else if (st.nominate.length) {
      parts.push(button(t('assist.day.nominate'), G.act(() => { ui.nominating = key; G.save(); G.render(); }), 'accent', 'nominate'));
    }
  }
  // Who speaks next, first and large; the seat numbers are the list's only numbers.
  if (st.queue.length) {
    parts.push(h('div', { class: 'list' }, h('h3', {}, t('assist.day.queue')),
      h('ol', { class: 'queue', dataset: { t: 'queue' } }, st.queue.map((s, i) =>
        h('li', { class: i === 0 ? 'next' : '', dataset: { seat: String(s) } }, G.who(s))))));
  }
  if (st.candidates.length) {
    parts.push(h('div', { class: 'list' }, h('h3', {}, t('assist.day.candidates')),
      h('ol', { class: 'chips-list', dataset: { t: 'candidates' } }, st.candidates.map((c) => h('li', { dataset: { seat: String(c) } }, G.who(c))))));
  }
  mount(...parts);
}

/** The nomination picker: the legal nominees only; the others say why not. */
function nominate(G, head, key) {
  const st = G.state;
  const ui = G.rec.ui;
  const close = G.act(() => { ui.nominating = null; G.save(); G.render(); });
  mount(head, miniClock(ui, key, () => G.save()),
    h('p', { class: 'say' }, t('assist.day.nominate_who', { Who: G.who(st.speaker) })),
    seatGrid({
      seats: range(st.players),
      label: (s) => [G.rec.settings.names[s - 1], ''],
      enabled: (s) => st.nominate.includes(s),
      out: (s) => !st.alive.includes(s),
      acts: true,
      onpick: G.act((s) => G.do([{ verb: 'nominate', by: st.speaker, target: s }], () => { ui.nominating = null; })),
      ondisabled: (s) => toast(G.refusal({ verb: 'nominate', by: st.speaker, target: s }) || '', 'error'),
    }),
    button(t('assist.cancel'), close, 'secondary', 'cancel'));
}
