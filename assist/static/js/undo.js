// Taking back the host's last entry. The confirmation names what will be
// undone (the events it caused, in the host's language); the undo is an
// entry like any other (verb "undo", with the place of the action's first
// entry), so it is saved on the phone, works offline and syncs in order.
// Afterwards the game is the engine's game of the entries left in force,
// and the screens go back to where that game stands.

import * as E from './engine.js';
import { h } from './dom.js';
import { mount, button, toast } from './ui.js';
import { t, tn } from './i18n.js';

/** Asks the host to confirm taking back the last action; undoes it on yes. */
export function confirmUndo(G) {
  const pre = E.undoable();
  if (pre.error) { toast(pre.error.message, 'error'); return; }
  const n = pre.commands.length;
  mount(
    h('header', { class: 'step-head' }, h('h2', {}, t('assist.undo.title'))),
    h('p', { class: 'say' }, tn('assist.undo.what', n, { Count: n })),
    h('ul', { class: 'undo-lines', dataset: { t: 'undo-lines' } }, pre.lines.map((l) => h('li', {}, l))),
    h('p', { class: 'note' }, t('assist.undo.note')),
    h('div', { class: 'actions' },
      button(t('assist.undo.confirm'), G.act(() => G.undo(pre)), 'primary', 'confirm-undo'),
      button(t('assist.cancel'), () => G.render(), 'secondary', 'cancel-undo')));
}

/**
 * Puts the host's screens (rec.ui) where the engine's game now stands: after
 * an undo (undone: the entries taken back) or when the game was loaded from
 * the server (undone: null).
 */
export function resumeUI(G, undone) {
  const ui = G.rec.ui;
  const st = G.state;
  ui.announce = null;
  ui.nominating = null;
  ui.timer = null;
  ui.allvote = { marked: [] };
  G.rec.ended = st.phase === 'ended';
  const first = undone && undone.length ? undone[0] : null;
  if (st.phase === 'night') ui.night = nightUI(G, first);
  if (st.phase === 'vote' || st.phase === 'revote') ui.vote = voteUI(G, first);
}

/** The night's wake to show: the one whose action was taken back, else the next one to act. */
function nightUI(G, c) {
  const sc = G.state.night;
  const wakes = sc.wakes;
  const old = G.rec.ui.night;
  const idx = (pred) => wakes.findIndex(pred);
  let step = -1;
  if (c) {
    if (c.verb === 'next') step = wakes.length;
    else if (c.verb === 'kill') step = idx((w) => w.role === 'mafia');
    else if (c.verb === 'skip') {
      step = idx((w) => w.role !== 'mafia' && w.actor === c.by);
      if (step < 0) step = idx((w) => w.role === 'mafia');
    } else if (['check', 'shoot', 'heal'].includes(c.verb)) step = idx((w) => w.actor === c.by && w.verb === c.verb);
  }
  if (step < 0 && old && old.round === sc.round) step = old.step;
  if (step < 0) {
    let last = -1;
    wakes.forEach((w, i) => { if (w.alive && w.acted) last = i; });
    step = last + 1;
  }
  // The mafia chose nobody while the Don is in: his own skip, entered
  // after his check, is still to come.
  const m = idx((w) => w.role === 'mafia');
  const d = idx((w) => w.role === 'don');
  const miss = m >= 0 && d >= 0 && wakes[m].alive && wakes[d].alive && !wakes[m].acted && step > m;
  if (miss && step > d) step = d;
  return { round: sc.round, step: Math.min(step, wakes.length), answer: null, miss, pick: 0 };
}

/** The vote's candidate to show, and the hands entered so far (from the engine's protocol). */
function voteUI(G, c) {
  const st = G.state;
  const key = `${st.phase}:${st.round}:${st.candidates.join(',')}`;
  const cands = st.candidates;
  const last = cands.length - 1;
  const votes = {};
  const rounds = E.protocol().rounds || [];
  const day = rounds.length ? rounds[rounds.length - 1].day : null;
  const open = day && day.votes.length ? day.votes[day.votes.length - 1] : null;
  if (open && !open.closed) for (const p of open.cast) votes[p.by] = p.target;
  let idx;
  if (c && c.verb === 'vote') idx = cands.indexOf(c.target);
  else if (c && c.verb === 'next') idx = last;
  else {
    const old = G.rec.ui.vote;
    idx = old && old.key === key ? old.idx : 0;
    for (const target of Object.values(votes)) idx = Math.max(idx, cands.indexOf(target) + 1);
  }
  return { key, idx: Math.max(0, Math.min(idx, last)), marked: [], votes };
}
