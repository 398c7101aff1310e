// review.js: the review of a finished game, at /t/{id}/review: every
// seat's name and card and fate, then the game night by night and day by
// day (every night action and check answer, nomination, vote and who voted
// for whom, statement, foul and elimination, and the chat where it was
// said), to the result; with the page's link to share and its QR code.
// It reads the game's record (server: GET /api/tables/{id}/record, for the
// table's players and, at a public table, anyone), or an in-person game's
// protocol (the host's assistant: GET /host/api/games/{id}/protocol.json).
// Before the end it shows nothing of the game, and opens when it ends.
// The game is first shown as steps to play forward and back, from any
// seat's point of view (reviewsteps.js); the whole record in one column is
// its printable form (a toggle, and what is printed).

import { h, patch, lines } from './dom.js';
import { t, tn, current } from './i18n.js';
import { api, ApiError } from './api.js';
import { narrate, roleName, winnerText } from './narrate.js';
import { teamOf } from './names.js';
import { stepsOf, stepper, readHash } from './reviewsteps.js';

// WAIT is how often (ms) a review of a game not over yet asks again.
const WAIT = 3000;

/** reviewScreen opens the review of game id. */
export function reviewScreen(id, { navigate, announce }) {
  const el = h('div', { class: 'screen review', id: 'review' });
  const rv = { id, state: 'loading', game: null, error: null, copied: false, qrOpen: false, steps: [], step: 0, view: 0, full: false };
  let timer = 0;
  let gone = false;

  async function load() {
    let online = false;
    const asked = current();
    try {
      rv.game = await fetchGame(id, asked);
      rv.lang = asked; // the bots' lines come rendered in it: asked again in another
      if (rv.game) {
        rv.steps = stepsOf(rv.game);
        fromHash();
      }
      rv.state = rv.game ? 'ready' : 'waiting';
    } catch (e) {
      if (e instanceof ApiError && e.code === 'not_over') { rv.state = 'waiting'; online = true; }
      else { rv.state = 'error'; rv.error = e; }
    }
    if (gone) return;
    draw();
    if (rv.state === 'ready') announce(t('web.review.ready'));
    // While an online game goes on, its lobby says when it is over (the
    // record is asked again then); an in-person game's protocol is asked
    // again (only its host gets it before the end).
    if (rv.state === 'waiting') timer = setTimeout(online ? waitEnd : load, WAIT);
  }

  async function waitEnd() {
    let ended = false;
    try { ended = (await api.table(id)).status === 'ended'; } catch { /* asked again */ }
    if (gone) return;
    if (ended) load();
    else timer = setTimeout(waitEnd, WAIT);
  }

  function draw() {
    if (rv.state === 'ready' && rv.game && !rv.game.inPerson && rv.lang !== current() && !rv.asking) {
      // The record renders the bots' lines in the language it is asked in.
      rv.asking = true;
      load().finally(() => { rv.asking = false; });
    }
    const nav = (path) => (ev) => { ev.preventDefault(); navigate(path); };
    const parts = [];
    if (rv.state === 'loading') parts.push(h('p', { class: 'status', id: 'rv-loading' }, t('web.loading')));
    if (rv.state === 'waiting') {
      parts.push(h('h2', { id: 'rv-h' }, t('web.review.heading')));
      parts.push(h('p', { class: 'status', id: 'rv-wait' }, t('web.review.not_over')));
      parts.push(h('a', { class: 'button primary', href: `/t/${id}`, key: 'watch', on: { click: nav(`/t/${id}`) } }, t('web.review.watch')));
    }
    if (rv.state === 'error') {
      parts.push(h('h2', { id: 'rv-h' }, t('web.review.heading')));
      parts.push(h('p', { class: 'alert', id: 'rv-error', role: 'alert', 'data-code': rv.error.code || '' }, rv.error.message || t('error.generic')));
      if (rv.error.code === 'bad_token') parts.push(h('p', { class: 'status' }, t('web.review.private')));
    }
    if (rv.state === 'ready') parts.push(...renderGame(rv, copy, go, toggleFull));
    parts.push(h('div', { class: 'row wrap again' },
      h('a', { class: 'button secondary', href: '/', key: 'back', on: { click: nav('/') } }, t('web.over.back'))));
    patch(el, ...parts);
  }

  // The step and the point of view follow the page's hash (a shared link
  // opens at its step): the start and everyone's view when it says none.
  function fromHash() {
    const { step, view } = readHash();
    rv.step = step >= 0 ? Math.min(step, Math.max(rv.steps.length - 1, 0)) : 0;
    rv.view = rv.game && rv.game.seats.some((x) => x.seat === view) ? view : 0;
  }

  function go(step, view) {
    if (!rv.steps.length) return;
    rv.step = Math.min(Math.max(step, 0), rv.steps.length - 1);
    rv.view = view;
    history.replaceState(history.state, '', `${location.pathname}#step=${rv.step}&view=${rv.view}`);
    draw();
  }

  function onKey(ev) {
    if (rv.state !== 'ready' || rv.full || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const tag = ev.target && ev.target.tagName;
    if (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA') return;
    const to = { ArrowLeft: rv.step - 1, ArrowRight: rv.step + 1, Home: 0, End: rv.steps.length - 1 }[ev.key];
    if (to === undefined) return;
    ev.preventDefault();
    go(to, rv.view);
  }

  function onHash() {
    if (rv.state !== 'ready') return;
    fromHash();
    draw();
  }

  function toggleFull() {
    rv.full = !rv.full;
    draw();
  }

  async function copy(url) {
    try {
      await navigator.clipboard.writeText(url);
    } catch {
      const input = el.querySelector('#rv-url');
      if (input) { input.focus(); input.select(); document.execCommand && document.execCommand('copy'); }
    }
    rv.copied = true;
    draw();
    setTimeout(() => { rv.copied = false; if (!gone) draw(); }, 2000);
  }

  draw();
  load();
  window.__mafiaReview = rv;
  document.addEventListener('keydown', onKey);
  window.addEventListener('hashchange', onHash);
  return {
    el,
    render: draw,
    destroy: () => {
      gone = true;
      clearTimeout(timer);
      document.removeEventListener('keydown', onKey);
      window.removeEventListener('hashchange', onHash);
      if (window.__mafiaReview === rv) delete window.__mafiaReview;
    },
  };
}

/** fetchGame reads the game: the online table's record (its bots' lines in
 * language lang), else the in-person game's protocol; null while an
 * in-person game goes on. */
async function fetchGame(id, lang) {
  try {
    return fromRecord(await api.record(id, lang));
  } catch (e) {
    if (!(e instanceof ApiError) || e.code !== 'not_found') throw e;
  }
  const p = await api.protocol(id);
  return p.ended ? fromProtocol(p) : null;
}

// A game, whichever its source: id, name, public, inPerson, players, the
// seats' names (and bot), events and chat.
function fromRecord(r) {
  return {
    id: r.table, name: r.name || '', public: !!r.public, inPerson: false, sandbox: !!r.sandbox, players: r.players,
    seats: (r.seats || []).map((s) => ({ seat: s.seat, name: s.name, bot: !!s.bot })),
    events: r.events || [], chat: r.chat || [],
  };
}

function fromProtocol(p) {
  return {
    id: p.id, name: p.name || '', public: true, inPerson: true, sandbox: false, players: p.players,
    seats: (p.seats || []).map((s) => ({ seat: s.seat, name: s.name, bot: false })),
    events: p.events || [], chat: [],
  };
}

/** facts reads what the review shows of the seats from the events: each
 * seat's card, how it left the game, and its fouls. */
function facts(g) {
  const roles = [];
  const out = new Map();
  const fouls = new Map();
  let end = null;
  for (const e of g.events) {
    if (e.kind === 'game_started') roles.push(...(e.roles || []));
    if (e.kind === 'player_out') out.set(e.target, e);
    if (e.kind === 'fouled') fouls.set(e.target, e.fouls || 0);
    if (e.kind === 'game_ended') end = e;
  }
  if (end && end.roles) end.roles.forEach((r, i) => { if (r) roles[i] = r; });
  return { roles, out, fouls, end };
}

function renderGame(rv, copy, go, toggleFull) {
  const g = rv.game;
  const f = facts(g);
  const nameOf = (s) => {
    const seat = g.seats.find((x) => x.seat === s);
    if (!seat) return t('web.seat', { Seat: s });
    return seat.bot ? t('web.bot_name', { Seat: s }) : seat.name;
  };
  const label = (s) => (f.roles[s - 1]
    ? t('web.who_role', { Seat: s, Name: nameOf(s), Role: roleName(f.roles[s - 1]) })
    : t('web.who', { Seat: s, Name: nameOf(s) }));
  const out = [];
  out.push(h('h2', { id: 'rv-h' }, g.name ? t('web.review.heading_named', { Name: g.name }) : t('web.review.heading')));
  if (g.inPerson) out.push(h('p', { class: 'status', id: 'rv-in-person' }, t('web.review.in_person')));
  const winner = f.end ? f.end.winner : '';
  out.push(h('p', { class: `winner w-${winner}`, id: 'rv-winner', 'data-winner': winner }, winnerText(winner)));
  const chatLine = (l) => chatItem(l, nameOf);
  if (rv.steps.length) {
    const st = stepper(rv, f, nameOf, chatLine, go);
    st.hidden = rv.full;
    out.push(st);
  }
  out.push(share(rv, copy));

  out.push(h('h3', {}, t('web.over.cards')));
  out.push(h('ol', { class: 'cards', id: 'rv-cards' }, g.seats.map(({ seat: s }) => {
    const r = f.roles[s - 1] || '';
    const gone = f.out.get(s);
    const n = f.fouls.get(s) || 0;
    return h('li', { class: `card-row team-${teamOf(r)}${gone ? ' dead' : ''}`, 'data-seat': s, 'data-role': r },
      h('span', { class: 'num' }, String(s)),
      h('span', { class: 'name' }, nameOf(s)),
      h('span', { class: `badge role r-${r}` }, roleName(r)),
      h('span', { class: 'fate' },
        gone ? t('web.review.out', { Round: gone.round || 0, Cause: t(`cause.${gone.cause || 'none'}`) }) : t('web.survived'),
        n ? ` · ${tn('web.review.fouls', n, { Count: n })}` : ''));
  })));

  // The whole record: shown when asked for, and always printed.
  out.push(h('button', {
    type: 'button', class: 'secondary rv-mode', id: 'rv-mode', key: 'rv-mode', 'aria-pressed': rv.full ? 'true' : 'false',
    on: { click: toggleFull },
  }, t(rv.full ? 'web.review.step.steps' : 'web.review.step.full')));
  const plain = (s) => t('web.who', { Seat: s, Name: nameOf(s) });
  out.push(h('div', { class: `rv-full${rv.full ? ' open' : ''}`, id: 'rv-full' },
    h('h3', {}, t('web.review.days')),
    h('ol', { class: 'timeline review-days', id: 'rv-days' }, days(g, label, plain, chatLine))));
  return out;
}

// share is the review's link: to copy, and as a QR code. The link copied
// is the step being viewed, from its point of view (the address bar's:
// #step=&view=), so that whoever opens it sees that moment; the QR code
// is of the same link (the server draws it from the step and the view).
function share(rv, copy) {
  const base = `${location.origin}/t/${rv.game.id}/review`;
  const url = rv.steps.length ? `${base}#step=${rv.step}&view=${rv.view}` : base;
  const qr = `/t/${rv.game.id}/review?qr=${encodeURIComponent(location.origin)}` +
    (rv.steps.length ? `&step=${rv.step}&view=${rv.view}` : '');
  return h('div', { class: 'invite rv-share', id: 'rv-share' },
    h('label', { for: 'rv-url' }, t('web.review.share')),
    h('div', { class: 'row' },
      h('input', { id: 'rv-url', type: 'text', readonly: true, value: url, key: 'rv-url', on: { focus: (ev) => ev.target.select() } }),
      h('button', { type: 'button', id: 'rv-copy', key: 'rv-copy', on: { click: () => copy(url) } }, rv.copied ? t('web.pre.copied') : t('web.pre.copy'))),
    h('p', { class: 'status', id: 'rv-who' }, t(rv.game.public ? 'web.review.public' : 'web.review.private')),
    h('details', { class: 'qr', open: rv.qrOpen, on: { toggle: (ev) => { rv.qrOpen = ev.target.open; } } },
      h('summary', { key: 'rv-qr' }, t('web.review.qr')),
      h('img', { id: 'rv-qr', src: qr, alt: t('web.review.qr_alt'), width: 220, height: 220 })));
}

// days tells the game in groups: before the game (the lobby's chat), the
// deal, then each night and day, every event and every chat line where it
// was said (a line comes after events[at-1]).
function days(g, label, plain, chatLine) {
  const groups = [];
  let items = null;
  const open = (cls, title, round) => {
    items = h('ol', { class: 'tl-items' });
    groups.push(h('li', { class: `tl-group rv-group ${cls}`, 'data-group': cls, 'data-round': round },
      h('h4', { class: 'rv-title' }, title), items));
  };
  const chat = [...g.chat].sort((a, b) => a.at - b.at);
  let c = 0;
  const say = (upTo) => {
    for (; c < chat.length && chat[c].at <= upTo; c++) {
      if (!items) open('before', t('web.review.before'), 0);
      items.append(chatLine(chat[c]));
    }
  };
  g.events.forEach((e, i) => {
    say(i);
    if (e.kind === 'game_started') open('deal', t('web.timeline.start'), 0);
    else if (e.kind === 'night_began') open('night', t('web.timeline.night', { Round: e.round }), e.round);
    else if (e.kind === 'day_began') open('day', t('web.timeline.day', { Round: e.round }), e.round);
    else if (!items) open('deal', t('web.timeline.start'), 0);
    const cards = e.kind === 'game_started' || e.kind === 'game_ended';
    items.append(h('li', { class: `ev k-${e.kind}`, 'data-kind': e.kind }, lines(narrate(e, 0, cards ? plain : label))));
  });
  say(Infinity);
  return groups;
}

// chatItem is one chat line: its chat, who said it, and what.
function chatItem(l, nameOf) {
  return h('li', { class: `chat ch-${l.channel}`, 'data-channel': l.channel, 'data-from': l.from },
    h('span', { class: `badge ch ch-${l.channel}` }, t(`web.chat.${l.channel}`)), ' ',
    h('strong', { class: 'who' }, l.from ? t('web.who', { Seat: l.from, Name: l.name || nameOf(l.from) }) : l.name), ': ',
    h('span', { class: 'text' }, l.text));
}
