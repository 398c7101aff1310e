// statements.js: structured talk (docs/protocol.md, "Statements"). On its
// own floor (a speech, a defence, a tie speech, last words) a seat may
// claim a card, report a check, suspect a seat, vouch for one, or say whom
// it will nominate: renderSay draws those buttons from view.legal only.
// The first night's victim, in their last words, also makes the club's
// best move (legal.best_move): three seats they hold for the mafia, chosen
// one tap each and sent together (renderBestMove).
// floorSaid gives the statements of the floor now open as sentences in the
// page's language, for the floor's part; the log tells every statement as
// narrate does (the event "statement").

import { h } from './dom.js';
import { t, tn } from './i18n.js';
import { narrate, roleName, seatList } from './narrate.js';
import { nameOf } from './names.js';

/** CARDS are the cards a claim may name, in the rulebook's order. */
export const CARDS = ['citizen', 'detective', 'doctor', 'mafia', 'don', 'maniac'];

// kinds returns what the seat may say about another seat now: [key, verb,
// result, seats]. A report gives the answers a Detective gets at this
// table: the maniac only under maniac_check=maniac.
// A suspicion or a vouch names a seat still in the game (the engine
// accepts any other seat; the page offers only the living: what is said of
// the dead is said by a report).
function kinds(v) {
  const l = v.legal || {};
  const seats = v.seats || [];
  const living = (list) => (list || []).filter((s) => !seats[s - 1] || seats[s - 1].alive !== false);
  const out = [
    ['suspect', 'suspect', '', living(l.suspect)],
    ['vouch', 'vouch', '', living(l.vouch)],
    ['will_nominate', 'will_nominate', '', l.will_nominate],
    ['report_mafia', 'report', 'mafia', l.report],
    ['report_not_mafia', 'report', 'not_mafia', l.report],
  ];
  if ((v.rules || {}).maniac_check === 'maniac') out.push(['report_maniac', 'report', 'maniac', l.report]);
  return out.filter((k) => k[3] && k[3].length);
}

/** renderSay returns the statements a seat may make on its own floor, as
 * buttons (a card to claim; what to say, then about whom), or null. The
 * choice of what to say is kept in st.say for the floor it was made on.
 * ctx.say({verb, role, target, result, step}) sends one. */
export function renderSay(st, ctx) {
  const v = st.view;
  if (!v || !st.seat || v.speaker !== st.seat || st.paused) return null;
  const l = v.legal || {};
  const ks = kinds(v);
  if (!l.claim && !ks.length) {
    return [h('p', { class: 'note', id: 'say-limit' }, t('web.say.limit'))];
  }
  const floor = `${v.step}`;
  if (!st.say || st.say.floor !== floor || !ks.some((k) => k[0] === st.say.kind)) st.say = { floor, kind: '' };
  const off = st.busy || st.paused;
  const send = (m) => ctx.say({ ...m, step: v.step });
  const out = [];
  if (l.best_move) out.push(renderBestMove(st, ctx, off, send));
  out.push(h('h3', { id: 'say-h' }, t('web.say.heading')), h('p', { class: 'hint' }, t('web.say.hint')));
  if (l.claim) {
    out.push(h('div', { class: 'say-row' },
      h('span', { class: 'say-label' }, t('web.say.claim')),
      h('div', { class: 'targets say-cards', role: 'group', 'aria-label': t('web.say.claim') },
        CARDS.map((r) => h('button', {
          type: 'button', class: 'target say-card', key: `say-claim-${r}`, 'data-say': 'claim', 'data-role': r,
          disabled: off, 'aria-label': t('web.say.claim_card', { Role: roleName(r) }),
          on: { click: () => send({ verb: 'claim', role: r }) },
        }, roleName(r))))));
  }
  if (ks.length) {
    out.push(h('div', { class: 'say-row' },
      h('span', { class: 'say-label' }, t('web.say.about')),
      h('div', { class: 'targets say-kinds', role: 'group', 'aria-label': t('web.say.about') },
        ks.map(([key]) => h('button', {
          type: 'button', class: `target say-kind${st.say.kind === key ? ' chosen' : ''}`, key: `say-kind-${key}`,
          'data-say-kind': key, 'aria-pressed': st.say.kind === key ? 'true' : 'false', disabled: off,
          on: { click: () => { st.say = { floor, kind: st.say.kind === key ? '' : key }; ctx.redraw(); } },
        }, t(`web.say.${key}`))))));
    const k = ks.find((x) => x[0] === st.say.kind);
    if (!k) {
      out.push(h('p', { class: 'hint' }, t('web.say.pick')));
    } else {
      const [key, verb, result, seats] = k;
      out.push(h('div', { class: 'targets say-seats', role: 'group', 'aria-label': t(`web.say.${key}`) },
        seats.map((s) => h('button', {
          type: 'button', class: 'target v-say', key: `say-${key}-${s}`, 'data-say': verb, 'data-target': s,
          'data-result': result || undefined, disabled: off,
          'aria-label': t('web.say.target', { What: t(`web.say.${key}`), Seat: s, Name: nameOf(st, s) }),
          on: { click: () => { st.say = { floor, kind: '' }; send({ verb, target: s, result: result || undefined }); } },
        }, h('span', { class: 'num', 'aria-hidden': 'true' }, String(s)), h('span', { class: 'name' }, nameOf(st, s))))));
    }
  }
  return [h('div', { class: 'say', id: 'say', role: 'group', 'aria-labelledby': 'say-h' }, out)];
}

/** GUESS is how many seats a best move names. */
export const GUESS = 3;

// renderBestMove is the best move's part: every other seat of the table as
// a button that a tap chooses or lets go (three at most, kept in st.best
// for this floor), and the button that sends the three.
function renderBestMove(st, ctx, off, send) {
  const v = st.view;
  const floor = `${v.step}`;
  if (!st.best || st.best.floor !== floor) st.best = { floor, seats: [] };
  const chosen = st.best.seats;
  const seats = [];
  for (let s = 1; s <= (v.players || (v.seats || []).length); s += 1) if (s !== st.seat) seats.push(s);
  const toggle = (s) => {
    const i = chosen.indexOf(s);
    if (i >= 0) chosen.splice(i, 1);
    else if (chosen.length < GUESS) chosen.push(s);
    ctx.redraw();
  };
  const guess = [...chosen].sort((a, b) => a - b);
  return h('div', { class: 'say best-move', id: 'best-move', role: 'group', 'aria-labelledby': 'best-move-h' },
    h('h3', { id: 'best-move-h' }, t('web.say.best_move')),
    h('p', { class: 'hint' }, t('web.say.best_move_hint')),
    h('div', { class: 'targets say-seats', role: 'group', 'aria-label': t('web.say.best_move') },
      seats.map((s) => {
        const on = chosen.includes(s);
        return h('button', {
          type: 'button', class: `target v-best${on ? ' chosen' : ''}`, key: `best-${s}`, 'data-best': s,
          'aria-pressed': on ? 'true' : 'false', disabled: off || (!on && chosen.length >= GUESS),
          'aria-label': t('web.say.best_move_seat', { Seat: s, Name: nameOf(st, s) }),
          on: { click: () => toggle(s) },
        }, h('span', { class: 'num', 'aria-hidden': 'true' }, String(s)), h('span', { class: 'name' }, nameOf(st, s)));
      })),
    h('button', {
      type: 'button', class: 'primary', id: 'best-move-send', disabled: off || guess.length !== GUESS,
      on: { click: () => { st.best = { floor, seats: [] }; send({ verb: 'best_move', guess }); } },
    }, guess.length === GUESS ? t('web.say.best_move_send', { Seats: seatList(guess) })
      : tn('web.say.best_move_pick', GUESS - guess.length, { Count: GUESS - guess.length })));
}

/** floorSaid returns the statements of the floor now open (the speaker's,
 * on this step's floor) as sentences for the page's reader; label writes a
 * seat (see narrate). */
export function floorSaid(st, label) {
  const v = st.view;
  if (!v || !v.speaker || !v.talk) return [];
  const day = v.talk.find((d) => d.round === v.round);
  if (!day) return [];
  return day.statements
    .filter((s) => s.by === v.speaker && s.phase === v.phase)
    .map((s) => narrate(statementEvent(v.round, s), st.seat, label));
}

/** statementEvent is the "statement" event a statement of view.talk was. */
export function statementEvent(round, s) {
  const e = { kind: 'statement', round, phase: s.phase, actor: s.by, verb: s.verb };
  if (s.target) e.target = s.target;
  if (s.role) e.role = s.role;
  if (s.result) e.result = s.result;
  if (s.guess) e.seats = s.guess;
  return e;
}
