// state.js: a table's state as the server's frames make it. It owns the
// folding of welcome, update, warning, chat and error frames into the
// state, and says what the screen must do about each; it must not touch
// the page, the socket or a clock of its own (the caller passes the time),
// so that web/state_test.go can hold it to the protocol's rules.

import { SPEECHES, VOTES } from './names.js';

/** HELD are the steps whose moves' views come later than their replies:
 * the night (at its next tick) and the votes (at their close). */
export const HELD = new Set(['night', ...VOTES]);

/** OWN_MOVES are the kinds of a seat's own moves: what a stand-in may
 * have made for its person. */
const OWN_MOVES = new Set(['vote_cast', 'all_vote_cast', 'nominated', 'mafia_chose', 'checked', 'healed', 'shot', 'skipped']);

/** awayMoves lists the seat's own moves among its events from the since-th
 * on: those a bot made for it (stood_in). */
export function awayMoves(st, since) {
  return st.events.slice(Math.max(0, since)).filter((e) => e.actor === st.seat && OWN_MOVES.has(e.kind));
}

/** newState is a table's state before its first frame. */
export function newState(id, cardHidden) {
  return {
    id, seat: 0, host: false, lobby: null, view: null, events: [], seq: 0,
    deadline: 0, paused: false, offset: 0, conn: 'connecting', refused: null, gone: false,
    alert: null, busy: false, copied: false, left: false, foulTools: false, waitView: false, sent: null,
    cardHidden,
  };
}

/** stepKey names the view's step: it changes when the step does. */
export function stepKey(view) {
  return view ? `${view.round}|${view.phase}|${view.speaker || 0}` : '';
}

/** atNight reports whether the state is a seat's at night (its
 * connection then sends one padded frame a second, see conn.js). */
export function atNight(st) {
  return !!(st.seat && st.view && st.view.phase === 'night');
}

/** receive folds the frame m, received at the page's time now (ms), into
 * st and returns what the screen must do: tell (events to announce),
 * reconnect (a gap in the events: start again from the first), signal
 * ('warn' for a speech's last seconds, 'end' for a speech that ran out),
 * chat (a line to add), alert (a sentence to show), away (the moves a
 * bot made for this seat while its person was away: stood_in). */
export function receive(st, m, now) {
  const fx = { tell: null, reconnect: false, signal: '', chat: null, alert: '', away: null };
  if (m.now) st.offset = m.now - now;
  if (m.view && st.waitView) {
    st.waitView = false;
    st.busy = false;
    st.sent = null;
  }
  const before = { step: stepKey(st.view), phase: st.view && st.view.phase, deadline: st.deadline };
  switch (m.type) {
    case 'welcome': {
      st.seat = m.seat || 0;
      st.host = !!m.host;
      st.refused = null;
      if (m.lobby) st.lobby = m.lobby;
      if (m.view) {
        const evs = m.events || [];
        // The welcome's events end at seq; those before them the page has.
        const start = Math.max(0, Math.min(st.events.length, (m.seq || 0) - evs.length));
        st.events = st.events.slice(0, start).concat(evs);
        st.seq = m.seq || st.events.length;
        st.view = m.view;
        if (evs.length && start > 0) fx.tell = evs;
      } else {
        st.view = null;
        st.events = [];
        st.seq = 0;
      }
      clock(st, m);
      break;
    }
    case 'update':
      if (m.lobby) st.lobby = m.lobby;
      if (m.events && m.events.length) {
        if ((m.seq || 0) - m.events.length !== st.events.length) {
          st.events = [];
          fx.reconnect = true;
          return fx;
        }
        st.events.push(...m.events);
        st.seq = m.seq;
        fx.tell = m.events;
      }
      if (m.view) st.view = m.view;
      clock(st, m);
      break;
    case 'warning':
      clock(st, m);
      if (st.view && SPEECHES.has(st.view.phase)) fx.signal = 'warn';
      break;
    case 'stood_in':
      // Back from a stand-in: the seat's own moves from the bot's start
      // are what it did for this person (docs/protocol.md, stood_in).
      fx.away = awayMoves(st, m.seq || 0);
      break;
    case 'chat':
      fx.chat = m;
      break;
    case 'error':
      if (!m.id && m.message) fx.alert = m.message;
      break;
    default:
  }
  // A speech that ran out (the step changed within its last 0.6 s).
  if (before.step && before.step !== stepKey(st.view) && SPEECHES.has(before.phase) && before.deadline &&
      now + st.offset >= before.deadline - 600) {
    fx.signal = 'end';
  }
  return fx;
}

function clock(st, m) {
  st.deadline = m.deadline || 0;
  st.paused = !!m.paused;
}
