// table.js: one table's screen: its connection, its state and the drawing
// of its parts. The state is the server's (welcome and update frames); the
// page only remembers what it has been sent.

import { h, morph } from './dom.js';
import { t, tn, current } from './i18n.js';
import { Conn } from './conn.js';
import { api } from './api.js';
import { narrate, phaseName } from './narrate.js';
import { SPEECHES, timingOf, nameOf, seatLabel, teamOf } from './names.js';
import { announcementOf, cues } from './announce.js';
import { renderSeats, saveNote } from './seats.js';
import { renderActions } from './actions.js';
import { renderCard, renderCandidates, renderChecks, renderHost, renderLog } from './panels.js';
import { renderVotes } from './votes.js';
import { renderHint, setHints, gameSeen, hintsOn } from './hints.js';
import { roleCard } from './cards.js';
import { renderOver } from './gameover.js';
import { renderPregame, makeJoinForm } from './pregame.js';
import { makeRatedSeat } from './ratedseat.js';
import { onChange } from './account.js';
import { Chat } from './chat.js';
import { floorSaid } from './statements.js';
import { signal, played } from './sound.js';
import { keepAwake } from './app.js';
import { newState, receive, atNight, HELD, stepKey } from './state.js';

// FLOOR_LINES is how many of the floor's newest lines and statements the
// floor shows (the chat has them all).
const FLOOR_LINES = 5;

// hide sets an element's hidden only when it changes: a write, even of
// the value it has, may make the page work its styles out again.
const hide = (el, x) => { if (el.hidden !== x) el.hidden = x; };

/** voiceAt says whether this page may use the table's voice: a voice
 * table, and a seat, its host, or a spectator where they listen. */
function voiceAt(st) {
  const v = st.lobby && st.lobby.voice;
  if (!v) return false;
  return !!st.seat || !!st.host || v === 'everyone';
}

/** tableScreen opens table id: it returns the screen's element and its
 * render and destroy functions. */
export function tableScreen(id, { navigate, announce }) {
  const st = newState(id, sessionStorage.getItem(`mafia.card.${id}`) === 'hidden');
  const el = h('div', { class: 'screen table' });
  const parts = {};
  for (const name of ['head', 'announce', 'floor', 'voice', 'alert', 'away', 'over', 'pre', 'me', 'act', 'hint', 'votes', 'cands', 'checks', 'seats', 'host', 'log']) {
    parts[name] = h('section', { id: `t-${name}`, class: `part p-${name}` });
  }
  parts.alert.setAttribute('role', 'alert');
  parts.announce.setAttribute('aria-live', 'polite');
  // The floor: who speaks, the clock, and what the speaker is saying. The
  // clock is one element, redrawn four times a second.
  parts.clock = h('div', { id: 't-clock', class: 'p-clock' });
  const floorTop = h('div', { class: 'floor-top' });
  const floorSpeech = h('ol', { class: 'speech', id: 'speech', 'aria-live': 'polite' });
  parts.floor.append(floorTop, parts.clock, floorSpeech);
  const chat = new Chat(id, sendChat, (before) => conn.send({ type: 'history', before: before || undefined }));
  const join = makeJoinForm(doJoin);
  // At a rated table a guest logs in in place, then sits (ratedseat.js).
  const ratedSeat = makeRatedSeat(doJoin);
  const offAccount = onChange(() => schedule());
  // The how-to dialog switches the hints (hints.js): draw them anew.
  const onHints = () => schedule();
  document.addEventListener('mafia-hints', onHints);
  // The floor, the moves and the composer at the top (on a phone the
  // composer sits at the bottom of the screen); then the rest.
  el.append(parts.head, parts.announce, parts.floor, parts.voice, parts.alert, parts.away, parts.over, parts.pre, parts.act, parts.hint, chat.composer,
    h('div', { class: 'cols' },
      h('div', { class: 'col main' }, parts.me, parts.votes, parts.cands, parts.checks),
      h('div', { class: 'col side' }, parts.seats, parts.host),
      h('div', { class: 'col talk' }, chat.el, parts.log)));

  const ctx = {
    command, host: hostAction, navigate, copy, leave: doLeave, sit: doJoin,
    say: (m) => request({ type: 'command', ...m }),
    redraw: () => schedule(),
    // At the end the whole record is the players' (anyone's at a public
    // table): the timeline then shows every night action and check, not
    // only what this seat saw. A spectator of a private table is refused
    // it (bad_token) and keeps the timeline of what it saw.
    loadLog: () => {
      if (st.logAsked) return;
      st.logAsked = true;
      api.log(id).then((d) => { st.fullLog = d.events; draw(); }).catch(() => {});
    },
    toggleFouls: () => { st.foulTools = !st.foulTools; draw(); },
    note: (s, note) => { saveNote(id, s, note); draw(); },
    playAgain,
    noteOpen: (s) => { st.noteOpen = s; draw(); },
    toggleCard: () => {
      st.cardHidden = !st.cardHidden;
      sessionStorage.setItem(`mafia.card.${id}`, st.cardHidden ? 'hidden' : 'shown');
      draw();
    },
  };

  // The screen's links and buttons whose act is the same whatever the
  // draw that made them (a link in the page, "play again", the ×s, the
  // host's "add bots" and "start") carry no listeners of their own: this one
  // listener acts for them (data-nav: follow the link in the page;
  // data-act: acts). morph draws an element without listeners again in
  // place (dom.js), while one with listeners is a new node at every draw,
  // and the screen is drawn again with every message (each bot sitting
  // down, the bots' chat lines, the record arriving at the end). A click
  // pressed on such a node before a draw and released after was lost: the
  // press was on the node taken out, the release on its replacement, and
  // the browser clicks neither (issue 26, item 3: a test's click on "Sign
  // up to keep this game" under load; a mouse's click takes some 100 ms).
  // The moves' buttons keep listeners of their own: a press on one drawn
  // for a step gone is refused as stale.
  const acts = {
    'play-again': () => playAgain(),
    'add-bots': () => hostAction('add_bots'),
    start: () => hostAction('start'),
    'hint-off': () => { setHints(false); draw(); },
    'alert-close': () => { st.alert = null; draw(); },
    'away-close': () => { st.away = null; draw(); },
    // The announcement's × (its key, an event's index) and the deal's.
    dismiss: (b) => {
      const k = b.dataset.dismiss;
      st.dismissed = k === 'deal' ? k : Number(k);
      draw();
    },
  };
  el.addEventListener('click', (ev) => {
    if (ev.button !== 0 || ev.defaultPrevented || !(ev.target instanceof Element)) return;
    const a = ev.target.closest('a[data-nav]');
    if (a && el.contains(a)) {
      ev.preventDefault();
      navigate(a.getAttribute('href'));
      return;
    }
    const b = ev.target.closest('button[data-act]');
    if (b && el.contains(b) && !b.disabled && acts[b.dataset.act]) acts[b.dataset.act](b);
  });

  const serverNow = () => Date.now() + st.offset;
  // The voice table's audio (voice.js), loaded by a dynamic import only
  // where this page may use the table's voice (voiceAt): no other page
  // asks for it. Its requests ride on the table's connection; its <audio>
  // stays in the screen, out of any redrawn part. welcomed: the
  // connection's welcome came (a voice loaded after it joins again then).
  let voiceMod = null;
  let voice = null;
  let voiceLoading = false;
  let welcomed = false;
  let voiceStep = '';
  function loadVoice() {
    if (voice || voiceLoading || st.closed || !voiceAt(st)) return;
    voiceLoading = true;
    import('./voice.js').then((m) => {
      if (st.closed) return;
      voiceMod = m;
      voice = new m.Voice(id, (msg) => conn.send(msg), () => schedule());
      el.append(voice.audio);
      if (welcomed && st.conn === 'open') voice.welcome();
      schedule();
    }, () => { voiceLoading = false; }); // tried again at the next draw
  }
  // the floor's statements' times (stampSaid), for the step saidStep
  const saidAt = new Map();
  let saidStep = '';

  const conn = new Conn(id, {
    since: () => st.events.length,
    state: (s) => { st.conn = s; schedule(); },
    refused: (m) => {
      st.refused = m;
      st.seat = 0;
      if (!st.left) showAlert(m.message || t('error.bad_token'));
      st.left = false;
      api.table(id).then((l) => { st.lobby = l; schedule(); }).catch(() => {});
      schedule();
    },
    gone: async () => {
      try {
        await api.table(id);
        return false;
      } catch (e) {
        if (e.status === 404) {
          st.gone = true;
          schedule();
          return true;
        }
        return false;
      }
    },
    message: onMessage,
  });

  function loadHistory() {
    conn.send({ type: 'history' }).then((p) => {
      if (p.type !== 'history') return;
      chat.page(p, true);
      st.again = chat.again(st);
      schedule();
    });
  }

  function onMessage(m) {
    if (m.type === 'voice') {
      if (voice) voice.message(m);
      return;
    }
    const endedBefore = !!st.view && st.view.phase === 'ended';
    const fx = receive(st, m, Date.now());
    // A pong changes nothing but the clock's offset (receive), which the
    // clock's own tick draws: a whole draw for each (at night the page's
    // beat pings once a second) laid the page out again for nothing.
    if (m.type === 'pong') return;
    if (m.view) stampSaid(m.now || serverNow());
    // At the end every chat is everyone's to read: the newest page again,
    // now with the mafia's and the dead's lines.
    if (m.type !== 'welcome' && !endedBefore && st.view && st.view.phase === 'ended') loadHistory();
    if (fx.reconnect) {
      conn.reconnectNow();
      return;
    }
    if (fx.tell) tell(fx.tell);
    if (m.view && stepKey(m.view) !== voiceStep && voice) {
      voiceStep = stepKey(m.view);
      voice.note('step', { step: m.view.step, phase: m.view.phase, speaker: m.view.speaker || 0 });
    }
    if (m.type === 'welcome') {
      // A voice that was on joins again (the server ended it with the
      // connection that dropped).
      welcomed = true;
      if (voice) voice.welcome();
      // The chat so far, newest page first: the same request from every
      // seat, after every welcome.
      loadHistory();
    }
    if (fx.chat) {
      chat.add(fx.chat, stepKey(st.view));
      st.again = chat.again(st);
    }
    // The page that gave its seat up is told so by the server too: no alarm.
    if (fx.alert && !st.left) showAlert(fx.alert);
    if (fx.away) st.away = fx.away; // kept until the person closes it
    if (fx.signal) signal(fx.signal);
    conn.setNight(atNight(st));
    // A quick game: its host's page fills the table with bots and starts.
    if (m.type === 'welcome' && st.host && st.seat && st.lobby && st.lobby.status === 'lobby' && sessionStorage.getItem(`mafia.quick.${id}`)) {
      sessionStorage.removeItem(`mafia.quick.${id}`);
      hostAction('add_bots').then((ok) => { if (ok) hostAction('start'); });
    }
    schedule();
  }

  function tell(evs) {
    const text = evs.map((e) => narrate(e, st.seat).split('\n')[0]).join(' ');
    announce(text);
    for (const c of cues(evs, st.seat)) signal(c);
  }

  function showAlert(text) {
    st.alert = { text, at: Date.now() };
    schedule();
    setTimeout(() => { if (st.alert && Date.now() - st.alert.at >= 7900) { st.alert = null; schedule(); } }, 8000);
  }

  async function request(msg) {
    st.busy = true;
    schedule();
    // At night a command's new view comes at the next tick of the night's
    // clock, and a vote's when the vote closes: the moves stay closed until
    // it does, and the page says what was sent (st.sent) meanwhile.
    const held = msg.type === 'command' && st.view && HELD.has(st.view.phase);
    const r = await conn.send(msg);
    st.waitView = held && r.type !== 'error';
    st.sent = st.waitView ? msg : null;
    st.busy = st.waitView;
    if (r.type === 'error') {
      showAlert(r.code === 'network' ? t('web.error.network') : r.message || t('error.generic'));
    } else if (st.alert) {
      st.alert = null;
    }
    schedule();
    return r.type !== 'error';
  }

  // step is the view's step the move was offered in: the server refuses
  // the move in any other step.
  function command(verb, target, yes, step) {
    return request({ type: 'command', verb, target: target || undefined, yes: yes || undefined, step: step || undefined });
  }

  function hostAction(action, target, step) {
    return request({ type: 'host', action, target: target || undefined, step: step || undefined });
  }

  function sendChat(channel, text) {
    return request({ type: 'chat', channel, text });
  }

  async function doJoin(name) {
    if (!name) {
      showAlert(t('error.name_required'));
      return;
    }
    localStorage.setItem('mafia.name', name);
    st.busy = true;
    schedule();
    try {
      await api.join(id, name);
      st.alert = null;
      st.refused = null;
      conn.reconnectNow();
    } catch (e) {
      showAlert(e.message);
    } finally {
      st.busy = false;
      schedule();
    }
  }

  // playAgain makes a new table with this one's players, rules and
  // timings, seats this player as its host, and invites everyone by a line
  // in the town's chat (open to all after the end), which every page shows
  // as a button.
  async function playAgain() {
    const l = st.lobby;
    if (!l || st.busy) return;
    const mine = st.seat && l.seats ? l.seats[st.seat - 1] : null;
    const name = (mine && mine.name) || localStorage.getItem('mafia.name') || '';
    st.busy = true;
    schedule();
    try {
      // A rated table's next game is rated too.
      // A game of one person and bots is played again as a quick game:
      // the new table's page seats the bots and starts (mafia.quick.{id}).
      const alone = !!mine && !l.rated && (l.seats || []).every((s, i) => i === st.seat - 1 || s.bot);
      const made = await api.create({
        name: l.name, players: l.players, public: l.public, options: l.rules, timings_ms: l.timings_ms, rated: l.rated || undefined,
        bots: l.bots || undefined, pace: l.pace || undefined,
      });
      let seated = false;
      if (name) seated = await api.join(made.table, name).then(() => true, () => false);
      if (alone && seated) sessionStorage.setItem(`mafia.quick.${made.table}`, '1');
      const url = `${location.origin}${made.invite}`;
      if (st.seat) await request({ type: 'chat', channel: 'town', text: t('web.over.again_line', { Link: url }) });
      navigate(made.invite);
    } catch (e) {
      showAlert(e.message);
    } finally {
      st.busy = false;
      schedule();
    }
  }

  async function doLeave() {
    st.busy = true;
    schedule();
    try {
      st.left = true;
      await api.leave(id);
      conn.reconnectNow();
    } catch (e) {
      st.left = false;
      showAlert(e.message);
    } finally {
      st.busy = false;
      schedule();
    }
  }

  async function copy(url) {
    try {
      await navigator.clipboard.writeText(url);
    } catch {
      const input = el.querySelector('#invite-url');
      if (input) { input.focus(); input.select(); document.execCommand && document.execCommand('copy'); }
    }
    st.copied = true;
    schedule();
    setTimeout(() => { st.copied = false; schedule(); }, 2000);
  }

  let queued = false;
  function schedule() {
    if (queued) return;
    queued = true;
    queueMicrotask(() => { queued = false; draw(); });
  }

  // drawAway says what a bot did for this seat while its person was away
  // (stood_in), until they close it.
  function drawAway() {
    const moves = st.away;
    morph(parts.away, moves ? [
      h('p', { id: 'away-text' }, moves.length ? tn('web.away.did', moves.length, { Count: moves.length }) : t('web.away.none')),
      moves.length ? h('ul', { id: 'away-moves' }, moves.map((e) => h('li', {}, narrate(e, st.seat, (s) => seatLabel(st, s)).split('\n')[0]))) : null,
      h('button', { type: 'button', class: 'small', key: 'away-close', 'aria-label': t('web.close'), 'data-act': 'away-close' }, '×'),
    ] : []);
    hide(parts.away, !moves);
  }

  function draw() {
    const v = st.view;
    const cls = `screen table phase-${v ? v.phase : 'lobby'}${st.paused ? ' paused' : ''}`;
    if (el.className !== cls) el.className = cls;
    const title = st.lobby ? `${st.lobby.name} · ${t('web.title')}` : t('web.title');
    if (document.title !== title) document.title = title;
    morph(parts.head, head());
    drawAnnounce();
    drawFloor();
    drawClock();
    morph(parts.alert, st.alert ? [
      h('p', { id: 'alert-text' }, st.alert.text),
      h('button', { type: 'button', class: 'small', key: 'alert-close', 'aria-label': t('web.close'), 'data-act': 'alert-close' }, '×'),
    ] : []);
    hide(parts.alert, !st.alert);
    drawAway();
    // The screen stays awake while the game goes on (app.js).
    keepAwake(!st.gone && !!v && !!v.phase && v.phase !== 'ended');
    if (st.gone) {
      for (const p of ['over', 'pre', 'me', 'act', 'hint', 'votes', 'cands', 'checks', 'seats', 'host', 'log', 'announce']) show(p, null);
      hide(parts.floor, true);
      hide(chat.el, true);
      hide(chat.composer, true);
      return;
    }
    // At the end the game-over section tells it all (every card, the
    // timeline): the card, the seats and the log are not drawn again.
    const ended = !!v && v.phase === 'ended';
    show('over', renderOver(st, ctx));
    show('pre', renderPregame(st, ctx, join, ratedSeat));
    show('me', ended ? null : renderCard(st, ctx));
    show('act', renderActions(st, ctx));
    show('hint', renderHint(st));
    // Whether a seat's hints are on: "undefined" until the player's games
    // are known (hints.js).
    parts.hint.dataset.hints = st.seat ? String(hintsOn()) : '';
    if (ended && st.seat) gameSeen(id);
    show('votes', renderVotes(st));
    show('cands', renderCandidates(st));
    show('checks', renderChecks(st));
    loadVoice();
    st.voiceHeard = voice && voice.status === 'on' ? voice.heard : null;
    st.voiceSounding = voice ? voice.sounding : null;
    show('voice', voice && voiceAt(st) ? voiceMod.renderVoice(st, voice) : null);
    show('seats', st.lobby && !ended ? renderSeats(st, ctx) : null);
    show('host', renderHost(st, ctx));
    if (ended) show('log', null);
    else drawLog();
    hide(chat.el, !st.lobby || (!!st.refused && !st.seat));
    chat.render(st);
    // On a phone the composer of a game sits at the bottom of the screen;
    // before the start it stays in its place.
    const dock = !!v && !chat.composer.hidden;
    chat.composer.classList.toggle('dock', dock);
    document.body.classList.toggle('composing', dock);
  }

  // The announcement: the morning, the vote's result, a tie, the leaving;
  // it stays until the next vote, a newer one, or the player's ×. And,
  // for a player out of the game, that they are out.
  function drawAnnounce() {
    const v = st.view;
    const a = v && v.phase !== 'ended' ? announcementOf(st.events, st.seat, (s) => seatLabel(st, s)) : null;
    const me = v && st.seat && v.seats ? v.seats[st.seat - 1] || {} : {};
    const out = [];
    if (a && a.key !== st.dismissed) {
      out.push(h('div', { class: `ann k-${a.kind}${a.you ? ' you' : ''}`, id: 'announce', 'data-kind': a.kind },
        h('div', { class: 'ann-text' }, a.lines.map((l) => h('p', { class: l.startsWith('  ') ? 'sub' : '' }, l.trim()))),
        h('button', {
          type: 'button', class: 'small', key: 'ann-close', 'aria-label': t('web.close'), 'data-act': 'dismiss', 'data-dismiss': a.key,
        }, '×')));
    }
    // At the deal: the card and what it does, until the morning (or ×);
    // never with the card hidden.
    // The card's name and side are on the card itself (panels.js), which
    // leaves out what the card does while this says it: the card is drawn
    // once.
    st.dealUp = !out.length && !!v && v.phase === 'night' && v.round === 1 && !!st.seat && !!v.role && !st.cardHidden && st.dismissed !== 'deal';
    if (st.dealUp) {
      out.push(h('div', { class: `ann k-deal team-${teamOf(v.role)}`, id: 'deal', 'data-role': v.role },
        h('div', { class: 'ann-text' },
          h('p', { class: 'sub' }, t('web.howto.deal')),
          roleCard(v.role, true, true)),
        h('button', {
          type: 'button', class: 'small', key: 'deal-close', 'aria-label': t('web.close'), 'data-act': 'dismiss', 'data-dismiss': 'deal',
        }, '×')));
    }
    if (v && v.phase !== 'ended' && me.alive === false) out.push(h('p', { class: 'you-out', id: 'you-out' }, t('view.you_out')));
    show('announce', out.length ? out : null);
  }

  // The floor: the speaker and what they say, the clock; at night and in
  // a vote, what the step is.
  function drawFloor() {
    const v = st.view;
    if (!v || v.phase === 'ended') {
      hide(parts.floor, true);
      return;
    }
    hide(parts.floor, false);
    const d = { Round: v.round, Phase: phaseName(v.phase), Seat: v.speaker || 0, Name: v.speaker ? nameOf(st, v.speaker) : '' };
    let turn = '';
    if (v.speaker) turn = t(v.speaker === st.seat ? `web.floor.you_${v.phase}` : `web.floor.${v.phase}`, d);
    else if (v.phase === 'vote' || v.phase === 'revote') turn = t('web.turn.vote');
    else if (v.phase === 'all_vote') turn = t('web.turn.all_vote');
    else if (v.phase === 'night') turn = t('web.turn.night');
    // A server's bot speaking for an absent person is said on the floor.
    const info = v.speaker && st.lobby && st.lobby.seats ? st.lobby.seats[v.speaker - 1] : null;
    const standIn = !!(info && info.stand_in);
    morph(floorTop, turn ? h('p', { class: 'turn', id: 'turn', 'data-speaker': v.speaker || 0 },
      v.speaker ? h('span', { class: 'num', 'aria-hidden': 'true' }, String(v.speaker)) : null, h('span', {}, turn)) : null,
    standIn ? h('p', { class: 'note stand-in', id: 'floor-stand-in' }, t('web.floor.stand_in', { Name: nameOf(st, v.speaker) })) : null);
    // One list in time order (the speaker's lines and statements as they
    // came, each at the server's time), its newest last: the last
    // FLOOR_LINES are drawn whole, never an inner scroll (the chat keeps
    // every line).
    const lines = chat.speech(st);
    const said = floorSaid(st, (s) => seatLabel(st, s));
    stampSaid(serverNow());
    const step = stepKey(v);
    const items = lines.map((m) => ({ at: m.now || 0, text: m.text, cls: '' }))
      .concat(said.map((s, i) => ({ at: saidAt.get(`${step}|${i}`) || serverNow(), text: s, cls: 'said' })))
      .sort((a, b) => a.at - b.at)
      .slice(-FLOOR_LINES);
    const key = `${step}|${lines.length}|${said.join('|')}`;
    if (floorSpeech.dataset.key !== key) {
      floorSpeech.dataset.key = key;
      morph(floorSpeech, items.map((it) => h('li', { class: it.cls || null }, it.text)));
    }
    hide(floorSpeech, !items.length);
  }

  // stampSaid keeps, for each statement of the floor now open, the
  // server's time it was first seen at (at), so that the floor shows it
  // among the speaker's chat lines in the order they came.
  function stampSaid(at) {
    const v = st.view;
    const step = v ? stepKey(v) : '';
    if (saidStep !== step) {
      saidAt.clear();
      saidStep = step;
    }
    if (!v || !v.speaker || !v.talk) return;
    const day = v.talk.find((d) => d.round === v.round);
    const n = day ? day.statements.filter((s) => s.by === v.speaker && s.phase === v.phase).length : 0;
    for (let i = 0; i < n; i++) if (!saidAt.has(`${step}|${i}`)) saidAt.set(`${step}|${i}`, at);
  }

  // show draws a part, changing only what differs from what it shows
  // (morph): a frame that changes one seat lays out one seat again.
  function show(name, content) {
    const part = parts[name];
    if (!content) {
      if (!part.hidden) part.hidden = true;
      if (part.firstChild) part.replaceChildren();
      return;
    }
    if (part.hidden) part.hidden = false;
    morph(part, content);
  }

  let logKey = '';
  function drawLog() {
    const names = ((st.lobby && st.lobby.seats) || []).map((x) => x.name || '').join(',');
    const key = `${st.events.length}|${st.seat}|${current()}|${st.cardHidden}|${names}`;
    if (key === logKey) return;
    logKey = key;
    const list = parts.log.querySelector('ol');
    const atEnd = !list || list.scrollTop + list.clientHeight >= list.scrollHeight - 8;
    show('log', renderLog(st, (s) => seatLabel(st, s)));
    const again = parts.log.querySelector('ol');
    if (again && atEnd) again.scrollTop = again.scrollHeight;
  }

  function head() {
    const v = st.view;
    const out = [];
    out.push(h('h1', { id: 'table-name' }, st.lobby ? st.lobby.name : t('web.title')));
    if (st.gone) {
      out.push(h('p', { class: 'status' }, t('error.not_found')));
      out.push(h('p', {}, h('a', { href: '/', class: 'button', on: { click: (ev) => { ev.preventDefault(); navigate('/'); } } }, t('web.back'))));
      return out;
    }
    let phase = '';
    if (v) {
      const d = { Round: v.round, Phase: phaseName(v.phase), Seat: v.speaker || 0 };
      if (v.phase === 'night') phase = t('view.night', d);
      else if (v.phase === 'ended' || !v.phase) phase = t('view.step', d);
      else phase = t('view.day', d);
    } else if (st.lobby) {
      phase = t(`web.status.${st.lobby.status}`);
    }
    out.push(h('p', { class: 'phase', id: 'phase', 'data-phase': v ? v.phase : '' }, phase));
    const who = [];
    if (st.seat) who.push(t('web.you_are', { Seat: st.seat }));
    else if (st.lobby && !st.refused) who.push(t('web.spectator'));
    if (st.host) who.push(t('web.you_host'));
    if (who.length) out.push(h('p', { class: 'who', id: 'who' }, who.join(' ')));
    if (st.conn !== 'open' && !st.refused) {
      out.push(h('p', { class: 'conn', id: 'conn', role: 'status' }, t(st.conn === 'lost' ? 'web.reconnecting' : 'web.connecting')));
    }
    return out;
  }

  // The deadline bar: drawn from the server's deadline and the server's
  // clock (each frame's "now"), never from a countdown of its own.
  const bar = h('div', { class: 'bar' });
  parts.clock.setAttribute('aria-hidden', 'false');
  const barText = h('span', { class: 'left', id: 'left' });
  const meter = h('div', { class: 'track', role: 'progressbar', 'aria-valuemin': '0' }, bar);
  parts.clock.append(meter, barText);
  // Each tick writes only what changed, and the bar moves by whole pixels
  // of its track: a write, even of the value already there, made the page
  // work out its styles, lay out and paint again four times a second for
  // as long as a clock ran (a phone's battery; in the browser tests, four
  // fifths of an idle table page's CPU).
  const drawn = {};
  const put = (key, value, write) => { if (drawn[key] !== value) { drawn[key] = value; write(value); } };
  function drawClock() {
    const v = st.view;
    const live = v && v.phase !== 'ended' && st.deadline && !st.paused;
    const hidden = !(v && v.phase !== 'ended' && (st.deadline || st.paused));
    put('hidden', hidden, (x) => { parts.clock.hidden = x; });
    if (hidden) return;
    const total = (st.lobby && st.lobby.timings_ms && st.lobby.timings_ms[timingOf(v.phase)]) || 1;
    const left = live ? Math.max(0, st.deadline - serverNow()) : 0;
    const frac = live ? Math.min(1, left / total) : 1;
    const px = Math.max(1, Math.round(meter.clientWidth * (window.devicePixelRatio || 1)));
    put('width', `${(Math.round(frac * px) / px * 100).toFixed(2)}%`, (x) => { bar.style.width = x; });
    put('low', live && left <= 10000 && SPEECHES.has(v.phase), (x) => { parts.clock.classList.toggle('low', x); });
    const secs = Math.ceil(left / 1000);
    put('label', t('web.clock'), (x) => meter.setAttribute('aria-label', x));
    put('max', String(Math.round(total / 1000)), (x) => meter.setAttribute('aria-valuemax', x));
    put('now', String(secs), (x) => meter.setAttribute('aria-valuenow', x));
    put('text', st.paused ? t('error.paused') : tn('web.seconds', secs), (x) => { barText.textContent = x; });
  }
  const ticker = setInterval(drawClock, 250);

  st.again = chat.again(st);
  conn.start();
  draw();

  // For the tests and the curious: the page's connection, to send what a
  // stale button would.
  window.__mafia = { send: (msg) => request(msg), state: st, conn, sounds: played, get voice() { return voice; } };

  return {
    el,
    render: () => { logKey = ''; draw(); },
    langChanged: () => conn.reconnectNow(),
    destroy: () => { st.closed = true; keepAwake(false); clearInterval(ticker); offAccount(); document.removeEventListener('mafia-hints', onHints); conn.stop(); if (voice) voice.destroy(); if (window.__mafia && window.__mafia.state === st) delete window.__mafia; },
  };
}
