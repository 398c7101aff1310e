// The setup: the number of players (a preset of 5 to 11, or a custom
// setup), the names in seating order, the house rules and clocks, and how
// the cards are dealt. "Create" asks the server to make the game (and deal
// it, unless the cards were dealt by hand). When the server cannot be
// reached, the phone makes the game itself (offline.js) and sends it later;
// card links need the server, so that deal is offered only while it
// answers.
//
// The form as filled in so far (names, roster picks, the club's fields,
// the rules) and a night-1 card round under way are kept on the phone
// (localStorage, DRAFT) at every change: a reload, or the browser killed,
// brings them back. The draft is dropped once the game is made.

import { h } from './dom.js';
import { mount, button, range, toast } from './ui.js';
import { t, current } from './i18n.js';
import { name } from './engine.js';
import * as E from './engine.js';
import * as storage from './storage.js';
import { post, link } from './sync.js';
import { makeHere } from './offline.js';
import { wakeCards } from './wake_cards.js';
import { clubCard, clubBody, rosterPick } from './club.js';

const ROLES = ['don', 'mafia', 'maniac', 'detective', 'doctor', 'citizen'];
const TIMINGS = ['speech', 'defence', 'tie_speech', 'last_words'];

function fresh() {
  return {
    players: 11, custom: false, counts: null, names: [], name: '', options: {},
    timings: { speech: 60, defence: 30, tie_speech: 30, last_words: 60 }, deal: 'links', roles: [],
  };
}

const DRAFT = 'assist.setup';

/** The kept draft of the form, or null. */
function restore() {
  try {
    const f = JSON.parse(localStorage.getItem(DRAFT) || 'null');
    return f && typeof f === 'object' && Array.isArray(f.names) ? f : null;
  } catch (_) {
    return null;
  }
}

/** Keeps the form on the phone (nothing when it cannot: private mode). */
function persist() {
  try {
    if (form) localStorage.setItem(DRAFT, JSON.stringify(form));
    else localStorage.removeItem(DRAFT);
  } catch (_) { /* the form lasts this page */ }
}

let form = null;
let creating = false; // a create is on its way: another tap does not make a second game
// The forms a game was made from: a tap on a form's "Create" that lands
// after its game was made (the setup screen is still drawn until the
// game's screen replaces it) makes nothing.
const madeFrom = new WeakSet();

/** Draws the setup form; onCreated(rec, note) once the game is made. */
export function setupScreen(onCreated) {
  form = form || restore() || fresh();
  const f = form;
  const checked = f.custom ? E.setup(f.counts) : E.preset(f.players);
  if (!f.custom) f.counts = checked.setup;
  const n = f.custom ? ROLES.reduce((a, r) => a + (f.counts[r] || 0), 0) : f.players;
  while (f.names.length < n) f.names.push('');
  const redraw = () => setupScreen(onCreated);

  const sizes = h('div', { class: 'chips', dataset: { t: 'sizes' } },
    range(7).map((i) => i + 4).map((k) => h('button', {
      type: 'button', class: `chip ${!f.custom && f.players === k ? 'sel' : ''}`, dataset: { t: `size-${k}` },
      onclick: () => { f.custom = false; f.players = k; redraw(); },
    }, String(k))),
    h('button', { type: 'button', class: `chip ${f.custom ? 'sel' : ''}`, dataset: { t: 'size-custom' },
      onclick: () => { f.custom = true; f.counts = { ...f.counts }; redraw(); } }, t('assist.setup.custom')));

  const counts = f.custom ? h('div', { class: 'counts' }, ROLES.map((r) => h('label', { class: 'count-row' },
    h('span', {}, name('role', r)),
    h('input', { type: 'number', min: '0', max: '20', value: String(f.counts[r] || 0), dataset: { t: `count-${r}` },
      onchange: (e) => { f.counts[r] = Math.max(0, parseInt(e.target.value, 10) || 0); redraw(); } })))) : null;

  const summary = h('p', { class: checked.error ? 'error' : 'note', dataset: { t: 'summary' } },
    checked.error ? checked.error.message : checked.summary);
  const warnings = (checked.warnings || []).map((w) => h('p', { class: 'warn' }, w));

  // A seat's name, and under it the club's roster to pick from (club.js).
  const seatName = (s) => {
    const input = h('input', { type: 'text', maxlength: '32', value: f.names[s - 1] || '', placeholder: t('assist.setup.seat', { Seat: s }),
      dataset: { t: `name-${s}` }, 'aria-label': t('assist.setup.seat', { Seat: s }),
      oninput: (e) => { f.names[s - 1] = e.target.value; } });
    return [input, rosterPick(f, s, input)];
  };
  const names = h('ol', { class: 'names' }, range(n).map((s) => h('li', {}, h('span', { class: 'n' }, String(s)),
    ...seatName(s),
    f.deal === 'manual' ? h('select', { dataset: { t: `role-${s}` }, onchange: (e) => { f.roles[s - 1] = e.target.value; redraw(); } },
      h('option', { value: '' }, t('assist.cards.unknown')),
      ROLES.map((r) => h('option', { value: r, selected: f.roles[s - 1] === r }, name('role', r)))) : null)));

  // The rules code (docs/rules.md): the options below as a club writes them ("f1h3"); typing one sets them.
  const codeOf = () => E.rulesCode(f.options).code || '';
  const codeInput = h('input', { type: 'text', value: codeOf(), autocapitalize: 'off', spellcheck: false, dataset: { t: 'rules-code' },
    onchange: (e) => {
      const r = E.rulesFrom(e.target.value);
      if (r.error) { toast(r.error.message, 'error'); e.target.value = codeOf(); return; }
      f.options = r.options;
      redraw();
    } });
  const showCode = () => { codeInput.value = codeOf(); };
  // A house rule with values is a dropdown under its name, the screen's width (its choices are long).
  const opts = [h('label', { class: 'opt' }, h('span', {}, t('assist.setup.rules_code')), codeInput),
    h('p', { class: 'note' }, t('assist.setup.rules_code_hint'))].concat(E.options().map((o) => h('label', { class: o.values.length ? 'opt choice' : 'opt' },
    h('span', {}, t(`assist.option.${o.name}`)),
    o.values.length
      ? h('select', { dataset: { t: `opt-${o.name}` }, onchange: (e) => { f.options[o.name] = e.target.value; showCode(); } },
        o.values.map((v) => h('option', { value: v, selected: (f.options[o.name] || o.default) === v }, t(`assist.option.${o.name}_${v}`))))
      : h('input', { type: 'number', min: String(o.min || 0), max: String(o.max), value: f.options[o.name] || o.default, dataset: { t: `opt-${o.name}` },
        onchange: (e) => { f.options[o.name] = String(e.target.value); showCode(); } }))));

  const timings = TIMINGS.map((k) => h('label', { class: 'opt' },
    h('span', {}, t(`assist.timing.${k}`)),
    h('input', { type: 'number', min: '1', max: '600', value: String(f.timings[k]), dataset: { t: `time-${k}` },
      onchange: (e) => { f.timings[k] = Math.max(1, parseInt(e.target.value, 10) || 1); } })));

  const noLinks = link.down || !navigator.onLine;
  if (noLinks && f.deal === 'links') f.deal = '';
  const deals = h('div', { class: 'deals' }, ['links', 'pass', 'manual'].map((d) => h('label', {
    class: `deal ${f.deal === d ? 'sel' : ''} ${d === 'links' && noLinks ? 'off' : ''}` },
  h('input', { type: 'radio', name: 'deal', value: d, checked: f.deal === d, disabled: d === 'links' && noLinks,
    dataset: { t: `deal-${d}` }, onchange: () => { f.deal = d; redraw(); } }),
  h('span', { class: 'deal-name' }, t(`assist.deal.${d}`)),
  d === 'links' && noLinks
    ? h('span', { class: 'deal-hint warn', dataset: { t: 'links-offline' } }, t('assist.offline.links_offline'))
    : h('span', { class: 'deal-hint' }, t(`assist.deal.${d}_hint`)))));

  const create = async () => {
    if (creating || madeFrom.has(f)) return;
    creating = true;
    try {
      if (await createGame()) madeFrom.add(f);
    } finally {
      creating = false;
    }
  };
  // An acquaintance night whose cards were entered as the roles woke: the
  // roles have been seen, so the night goes straight to the morning.
  const seenAlready = (rec) => {
    const first = f.options.first_night || (E.options().find((o) => o.name === 'first_night') || {}).default;
    if (f.deal === 'manual' && f.ready && first === 'meeting') rec.ui.night = { round: 1, step: 99, answer: null, miss: false, pick: 0 };
  };
  const createGame = async () => {
    const body = {
      name: f.name.trim(), names: range(n).map((s) => (f.names[s - 1] || '').trim() || t('assist.setup.seat', { Seat: s })),
      options: f.options, deal: f.deal, lang: current(),
      timings: { speech: f.timings.speech, defence: f.timings.defence, tie_speech: f.timings.tie_speech, last_words: f.timings.last_words },
    };
    if (f.custom) body.setup = f.counts;
    clubBody(f, n, body);
    if (f.deal === 'manual' && f.ready) body.roles = f.ready;
    if (f.deal === 'manual' && !body.roles) {
      const roles = range(n).map((s) => f.roles[s - 1] || '');
      const want = { ...f.counts };
      for (const r of roles) if (r) want[r] = (want[r] || 0) - 1;
      if (ROLES.some((r) => want[r] < 0)) { toast(t('assist.setup.roles_mismatch'), 'error'); return; }
      if (roles.includes('')) {
        // Cards not seen yet: entered as the roles wake on night 1, then the game is made.
        cardsRound(roles, body.names);
        return;
      }
      body.roles = roles;
    }
    const got = await post('/host/api/games', body);
    if (!got) {
      if (f.deal === 'links') { toast(t('assist.offline.links_offline'), 'error'); redraw(); return; }
      const made = makeHere(body);
      if (made.error) { toast(made.error.message, 'error'); return; }
      seenAlready(made.rec);
      if (!(await saved(made.rec))) return;
      form = null;
      persist();
      onCreated(made.rec, t('assist.offline.made_here'));
      return true;
    }
    const { res, body: out } = got;
    if (!res.ok) { toast(out.error.message, 'error'); return; }
    const rec = { id: out.id, token: out.host_token, settings: out.settings, cards: out.cards || [], commands: [], synced: 0,
      created: new Date().toISOString(), ui: {} };
    seenAlready(rec);
    if (!(await saved(rec))) return;
    form = null;
    persist();
    onCreated(rec);
    return true;
  };

  // The night-1 card round: its progress is kept with the form (f.cards),
  // so a reload goes on where it was.
  function cardsRound(roles, names) {
    f.cards = f.cards && f.cards.roles && f.cards.roles.join() === roles.join() ? f.cards : { roles, names, known: null, step: 0 };
    f.cards.names = names;
    persist();
    wakeCards(roles, f.counts, names, (all) => { f.ready = all; f.cards = null; persist(); create(); },
      () => { f.ready = null; f.cards = null; redraw(); },
      f.cards, persist);
  }
  if (f.cards && f.cards.roles && !creating) {
    cardsRound(f.cards.roles, f.cards.names || []);
    return;
  }

  persist();
  mount(h('div', { class: 'setup', oninput: persist, onchange: persist, onclick: persist },
    h('h2', {}, t('assist.setup.title')),
    h('section', { class: 'card' }, h('h3', {}, t('assist.setup.players')), sizes, counts, summary, warnings),
    h('section', { class: 'card' }, h('h3', {}, t('assist.setup.deal')), deals),
    h('section', { class: 'card' }, h('h3', {}, t('assist.setup.names')), h('p', { class: 'note' }, t('assist.setup.names_hint')),
      f.deal === 'manual' ? h('p', { class: 'note', dataset: { t: 'cards-hint' } }, t('assist.cards.setup_hint')) : null, names),
    clubCard(f, redraw),
    h('section', { class: 'card' }, h('h3', {}, t('assist.setup.game_name')),
      h('input', { type: 'text', maxlength: '32', value: f.name, placeholder: t('assist.default_name'), dataset: { t: 'game-name' },
        oninput: (e) => { f.name = e.target.value; } })),
    h('details', { class: 'card' }, h('summary', {}, t('assist.setup.rules')), opts),
    h('details', { class: 'card' }, h('summary', {}, t('assist.setup.timings')), timings),
    button(t('assist.setup.create'), checked.error ? () => toast(checked.error.message, 'error') : create, 'primary', 'create'),
  ));
}

/** Saves a new game on the phone; false (and the page says so) when it cannot. */
async function saved(rec) {
  try {
    await storage.save(rec);
    return true;
  } catch (_) {
    toast(t('assist.storage.failed'), 'error');
    return false;
  }
}

/**
 * The setup of one table of a club's tournament: the address
 * #/new?club=…&tournament=…&round=…&table=… (the link of each table on the
 * tournament's page, docs/club.md) seats the table's players from the
 * club's roster in the seating's order, fills in the club's fields (the
 * host, the referee, the table, the round as the game's number) and names
 * the game; the game made is linked to that round's table when the server
 * has it (the club's tournament field of the settings). It needs the
 * server, and the club on this phone for the roster's picks to count.
 * Then the setup is drawn (route: #/new) with that form.
 */
export async function tournamentSetup(q) {
  const clubID = q.get('club') || '';
  const id = q.get('tournament') || '';
  const round = parseInt(q.get('round'), 10);
  const table = parseInt(q.get('table'), 10);
  let tour = null;
  try {
    const res = await fetch(`/host/api/clubs/${encodeURIComponent(clubID)}/tournaments/${encodeURIComponent(id)}`);
    if (res.ok) tour = await res.json();
  } catch (_) { /* offline: said below */ }
  const r = tour && tour.rounds && tour.rounds[round - 1];
  const tb = r && r.tables && r.tables[table - 1];
  if (!tb) {
    toast(t('tournament.setup_missing'), 'error');
    location.hash = '#/new';
    return;
  }
  const f = fresh();
  f.players = tb.players.length;
  f.names = tb.players.map((p) => (tour.names && tour.names[p]) || '');
  f.people = tb.players.slice();
  f.club = { host: tour.host || '', referee: tour.referee || '', table: String(table), number: String(round) };
  f.name = `${tour.name}`.slice(0, 24) + ` ${round}·${table}`;
  f.tournament = { id, round, table };
  form = f;
  persist();
  location.hash = '#/new';
}

/** Forgets a half-filled form. */
export function resetSetup() { form = null; persist(); }
