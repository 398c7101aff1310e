// The vote: for each candidate in nomination order the host taps the raised
// hands; the hands not raised for anyone go to the last candidate when the
// vote closes (the engine counts them). Then "shall all of them leave?":
// the host taps the hands for yes; no hand is a no.

import { h } from './dom.js';
import { mount, button, seatGrid, range } from './ui.js';
import { t, tn } from './i18n.js';

/** Draws the vote or the repeat vote. */
export function voteScreen(G) {
  const st = G.state;
  const ui = G.rec.ui;
  const key = `${st.phase}:${st.round}:${st.candidates.join(',')}`;
  if (!ui.vote || ui.vote.key !== key) {
    ui.vote = { key, idx: 0, marked: [], votes: {} };
    G.save();
  }
  const v = ui.vote;
  const cands = st.candidates;
  const last = cands.length - 1;
  const idx = Math.min(v.idx, last);
  const c = cands[idx];
  const head = h('header', { class: 'step-head vote' },
    h('div', { class: 'step-kicker' }, t('assist.day.title', { Round: st.round })),
    h('div', { class: 'step-name', dataset: { t: 'phase', phase: st.phase } }, t(`assist.step.${st.phase}`)),
    h('ol', { class: 'cands' }, cands.map((s, i) =>
      h('li', { class: i === idx ? 'now' : (i < idx ? 'done' : '') }, G.who(s)))));
  const close = G.act(() => G.do([{ verb: 'next' }]));
  if (cands.length === 1) {
    mount(head, G.toolbar(),
      h('p', { class: 'say' }, t('assist.vote.only', { Who: G.who(c) })),
      button(t('assist.vote.close'), close, 'primary', 'close-vote'));
    return;
  }
  const marked = new Set(v.marked);
  const voters = range(st.players).filter((s) => st.alive.includes(s));
  const toggle = (s) => {
    if (marked.has(s)) v.marked = v.marked.filter((x) => x !== s); else v.marked.push(s);
    G.save();
    G.render();
  };
  if (idx === last) {
    // The hands raised for the last candidate are votes; the others go to
    // them too, as abstentions (the protocol keeps which is which).
    const rest = st.pending;
    const closeWith = G.act(() => {
      const cmds = v.marked.filter((s) => st.pending.includes(s)).map((s) => ({ verb: 'vote', by: s, target: c }));
      G.do([...cmds, { verb: 'next' }], () => { v.marked = []; });
    });
    mount(head, G.toolbar(),
      h('h2', { dataset: { t: 'candidate', seat: String(c) } }, t('assist.vote.last', { Who: G.who(c) })),
      h('p', { class: 'say' }, tn('assist.vote.rest', rest.length, { Count: rest.length, Who: G.who(c) })),
      h('p', { class: 'note', dataset: { t: 'rest' } }, rest.map((s) => G.who(s)).join(', ')),
      h('p', { class: 'note' }, t('assist.vote.last_hands', { Who: G.who(c) })),
      h('div', { class: 'count', dataset: { t: 'hands' } }, String(marked.size)),
      seatGrid({
        seats: voters,
        label: (s) => [G.rec.settings.names[s - 1], v.votes[s] ? t('assist.vote.voted_for', { Seat: v.votes[s] }) : ''],
        enabled: (s) => st.pending.includes(s),
        selected: (s) => marked.has(s),
        onpick: toggle,
      }),
      button(t('assist.vote.close'), closeWith, 'primary', 'close-vote'));
    return;
  }
  const confirm = G.act(() => {
    const cmds = v.marked.map((s) => ({ verb: 'vote', by: s, target: c }));
    // The next candidate, once the hands are entered.
    const onward = () => {
      v.marked.forEach((s) => { v.votes[s] = c; });
      v.marked = [];
      v.idx = idx + 1;
    };
    if (!cmds.length) { onward(); G.save(); G.render(); return; }
    G.do(cmds, onward);
  });
  mount(head, G.toolbar(),
    h('h2', { dataset: { t: 'candidate', seat: String(c) } }, t('assist.vote.for', { Who: G.who(c) })),
    h('p', { class: 'say' }, t('assist.vote.tap')),
    h('div', { class: 'count', dataset: { t: 'hands' } }, String(marked.size)),
    seatGrid({
      seats: voters,
      label: (s) => [G.rec.settings.names[s - 1], v.votes[s] ? t('assist.vote.voted_for', { Seat: v.votes[s] }) : ''],
      enabled: (s) => st.pending.includes(s),
      selected: (s) => marked.has(s),
      onpick: toggle,
    }),
    button(tn('assist.vote.confirm', marked.size, { Count: marked.size, Who: G.who(c) }), confirm, 'primary', 'confirm-hands'));
}

/** Draws "shall all of them leave?". */
export function allVoteScreen(G) {
  const st = G.state;
  const ui = G.rec.ui;
  ui.allvote = ui.allvote || { marked: [] };
  const a = ui.allvote;
  const marked = new Set(a.marked);
  const living = st.alive.length;
  const need = Math.floor(living / 2) + 1;
  const head = h('header', { class: 'step-head vote' },
    h('div', { class: 'step-kicker' }, t('assist.day.title', { Round: st.round })),
    h('div', { class: 'step-name', dataset: { t: 'phase', phase: st.phase } }, t('assist.step.all_vote')),
    h('h2', {}, t('assist.allvote.question', { Who: st.candidates.map((s) => G.who(s)).join(', ') })));
  const toggle = (s) => {
    if (marked.has(s)) a.marked = a.marked.filter((x) => x !== s); else a.marked.push(s);
    G.save();
    G.render();
  };
  const confirm = G.act(() => {
    const cmds = a.marked.filter((s) => st.pending.includes(s)).map((s) => ({ verb: 'all_vote', by: s, yes: true }));
    G.do([...cmds, { verb: 'next' }], () => { a.marked = []; });
  });
  mount(head, G.toolbar(),
    h('p', { class: 'say' }, tn('assist.allvote.need', need, { Count: need, Living: living })),
    h('div', { class: 'count', dataset: { t: 'hands' } }, String(marked.size)),
    seatGrid({
      seats: st.alive,
      label: (s) => [G.rec.settings.names[s - 1], ''],
      enabled: (s) => st.pending.includes(s),
      selected: (s) => marked.has(s),
      onpick: toggle,
    }),
    button(tn('assist.allvote.confirm', marked.size, { Count: marked.size }), confirm, 'primary', 'confirm-yes'));
}
