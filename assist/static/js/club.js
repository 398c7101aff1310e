// The club on the host's phone (docs/club.md): the club this phone keeps
// (its id and secret token, in localStorage), the protocol's club fields
// of a new game (host, referee, table, game of the evening), picking each
// seat from the club's roster by a search in any script (the server folds
// Georgian and Russian to Latin: "nino" finds ნინო and Нино) or adding a
// new person on the spot, and, at the end, the first-killed player's best
// move and the host's extra points. The phone keeps a copy of the roster
// (localStorage, ROSTER + the club's id, refreshed whenever the setup is
// drawn online): offline the search runs on it (in the name's own script
// or in Latin: the server's folding, club.Fold, comes with each entry), so
// a club's game made offline still seats roster entries. Adding a person
// and the points need the server; the points are saved once the phone is
// back online.

import { h } from './dom.js';
import { button, range, toast } from './ui.js';
import { t, tn } from './i18n.js';
import { send, post } from './sync.js';

const KEY = 'assist.club';

/** The club this phone keeps: {id, token, name}, or {id, name, login: true}
 * for a club run by the login of an owner or host (no token), or null. */
export function clubOnPhone() {
  try {
    const c = JSON.parse(localStorage.getItem(KEY) || 'null');
    return c && c.id && (c.token || c.login) ? c : null;
  } catch (_) {
    return null;
  }
}

function keep(c) {
  try {
    if (c) localStorage.setItem(KEY, JSON.stringify(c));
    else localStorage.removeItem(KEY);
  } catch (_) { /* private mode: the club lasts this page */ }
}

const ROSTER = 'assist.roster.';

/** The phone's copy of club c's roster: [{id, name, key}], or null. */
function keptRoster(c) {
  try {
    const r = JSON.parse(localStorage.getItem(ROSTER + c.id) || 'null');
    return Array.isArray(r) ? r : null;
  } catch (_) {
    return null;
  }
}

function keepRoster(c, people) {
  try { localStorage.setItem(ROSTER + c.id, JSON.stringify(people)); } catch (_) { /* private mode: no copy */ }
}

/** Refreshes the phone's copy of club c's roster (nothing offline). */
async function refreshRoster(c) {
  const got = await send('GET', `/host/api/clubs/${encodeURIComponent(c.id)}`, undefined, c.token);
  if (!got || !got.res.ok) return;
  keepRoster(c, (got.body.people || []).filter((p) => !p.merged_into).map((p) => ({ id: p.id, name: p.name, key: p.key || '' })));
}

// plain spells s for the phone's own search: lowercase, without
// diacritics, words split on anything not a letter or digit.
const plain = (s) => (s || '').toLowerCase().normalize('NFD').replace(/\p{Mn}/gu, '').split(/[^\p{L}\p{N}]+/u).filter(Boolean);

/** The kept roster's entries that query q finds: each word of q begins a
 * word of the entry's name, as written or folded (its key). */
function findKept(roster, q) {
  const words = plain(q);
  if (!words.length) return [];
  const hit = (field) => { const ws = plain(field); return words.every((w) => ws.some((x) => x.startsWith(w))); };
  return roster.filter((p) => hit(p.name) || hit(p.key));
}

/** The local date, YYYY-MM-DD: the evening the host plays. */
export function today() {
  const d = new Date();
  const p = (n) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
}

/**
 * The club's card of the setup form f (f.club: the protocol's fields;
 * f.people: the seats' roster ids). redraw() draws the form again.
 */
export function clubCard(f, redraw) {
  f.club = f.club || { host: '', referee: '', table: '', number: '' };
  const c = clubOnPhone();
  const field = (k, type) => h('label', { class: 'opt' }, h('span', {}, t(`assist.club.${k}`)),
    h('input', { type: type || 'text', maxlength: '32', value: f.club[k], dataset: { t: `club-${k}` },
      oninput: (e) => { f.club[k] = e.target.value; } }));
  const fields = [field('host'), field('referee'), field('table'), field('number', 'number')];
  if (!c) {
    let name = '';
    let code = '';
    return h('section', { class: 'card', dataset: { t: 'club' } }, h('h3', {}, t('assist.club.title')),
      h('p', { class: 'note' }, t('assist.club.none')),
      h('input', { type: 'text', maxlength: '64', placeholder: t('assist.club.name'), dataset: { t: 'club-name' },
        oninput: (e) => { name = e.target.value; } }),
      button(t('assist.club.create'), async () => {
        const got = await post('/host/api/clubs', { name: name.trim() });
        if (!got) { toast(t('assist.club.roster_offline'), 'error'); return; }
        if (!got.res.ok) { toast(got.body.error.message, 'error'); return; }
        keep({ id: got.body.id, token: got.body.token, name: got.body.name });
        redraw();
      }, 'secondary', 'club-create'),
      h('input', { type: 'text', placeholder: t('assist.club.code'), dataset: { t: 'club-code' },
        oninput: (e) => { code = e.target.value.trim(); } }),
      button(t('assist.club.join'), async () => {
        const [id, token] = code.split('.');
        const got = await send('GET', `/host/api/clubs/${encodeURIComponent(id || '')}`, undefined, token);
        if (!got) { toast(t('assist.club.roster_offline'), 'error'); return; }
        if (!got.res.ok) { toast(got.body.error.message, 'error'); return; }
        keep({ id: got.body.id, token, name: got.body.name });
        redraw();
      }, 'secondary', 'club-join'),
      mineList(redraw),
      fields);
  }
  refreshRoster(c);
  return h('section', { class: 'card', dataset: { t: 'club' } }, h('h3', {}, `${t('assist.club.title')}: ${c.name}`),
    h('p', { class: 'note', dataset: { t: 'club-joined' } }, t('assist.club.joined')),
    h('details', {}, h('summary', {}, t('assist.club.code')),
      c.token ? h('p', { class: 'note' }, t('assist.club.code_line', { Code: `${c.id}.${c.token}` })) : null,
      button(t('assist.club.forget'), () => { keep(null); f.people = []; redraw(); }, 'secondary small', 'club-forget')),
    fields);
}

/**
 * The clubs the phone's login owns or hosts (GET /host/api/clubs/mine),
 * each a button that puts it on the phone with no token: the login is the
 * key. Empty without a login or offline.
 */
function mineList(redraw) {
  const el = h('div', { class: 'mine', dataset: { t: 'club-mine' } });
  send('GET', '/host/api/clubs/mine').then((got) => {
    const clubs = got && got.res.ok ? got.body.clubs : [];
    if (!clubs.length) return;
    el.append(h('p', { class: 'note' }, t('assist.club_members.mine')),
      ...clubs.map((m) => button(m.name, () => { keep({ id: m.id, name: m.name, login: true }); redraw(); }, 'secondary', `club-mine-${m.id}`)));
  });
  return el;
}

/** Adds the club's part to a new game's body: nothing with no club and no field filled in. */
export function clubBody(f, n, body) {
  const c = clubOnPhone();
  const fields = f.club || {};
  const info = { day: today() };
  for (const k of ['host', 'referee', 'table']) if ((fields[k] || '').trim()) info[k] = fields[k].trim();
  const num = parseInt(fields.number, 10);
  if (num > 0) info.number = num;
  if (c) {
    info.club = c.id;
    const people = range(n).map((s) => (f.people && f.people[s - 1]) || '');
    if (people.some(Boolean)) info.people = people;
    if (f.tournament && f.tournament.id) info.tournament = f.tournament; // a tournament's table: linked when the server has the game
    body.club_token = c.token;
  }
  if (Object.keys(info).length > 1) body.club = info; // the day alone is no club's game
}

// The roster's search answers, by seat, while the setup is drawn.
let searchTimer = null;

/**
 * The roster under seat s's name input: the entries the typed name finds,
 * to pick, and "add" for a new person. Empty without a club.
 */
export function rosterPick(f, s, input, changed) {
  const c = clubOnPhone();
  const box = h('div', { class: 'chips found', dataset: { t: `found-${s}` } });
  if (!c) return box;
  f.people = f.people || [];
  const linked = () => {
    input.classList.toggle('linked', !!f.people[s - 1]);
    input.dataset.person = f.people[s - 1] || '';
  };
  linked();
  const pick = (p) => {
    f.names[s - 1] = p.name;
    f.people[s - 1] = p.id;
    input.value = p.name;
    box.replaceChildren();
    linked();
    if (changed) changed();
  };
  const search = async () => {
    const q = input.value.trim();
    if (!q) { box.replaceChildren(); return; }
    const got = await send('GET', `/host/api/clubs/${c.id}/people?q=${encodeURIComponent(q)}`, undefined, c.token);
    if (input.value.trim() !== q) return; // typed on meanwhile
    const taken = new Set(f.people.filter((id, i) => id && i !== s - 1));
    const kept = keptRoster(c);
    if (!got && kept) { // offline: the phone's copy of the roster
      box.replaceChildren(h('span', { class: 'note', dataset: { t: 'roster-offline' } }, t('assist.club.roster_kept')),
        ...findKept(kept, q).filter((p) => !taken.has(p.id)).slice(0, 6).map((p) => h('button', {
          type: 'button', class: 'chip', dataset: { t: `pick-${s}`, person: p.id }, onclick: () => pick(p) }, p.name)));
      return;
    }
    if (!got || !got.res.ok) {
      box.replaceChildren(h('span', { class: 'note', dataset: { t: 'roster-offline' } }, t('assist.club.roster_offline')));
      return;
    }
    box.replaceChildren(
      ...got.body.people.filter((p) => !taken.has(p.id)).slice(0, 6).map((p) => h('button', {
        type: 'button', class: 'chip', dataset: { t: `pick-${s}`, person: p.id }, onclick: () => pick(p) }, p.name)),
      h('button', { type: 'button', class: 'chip add', dataset: { t: `add-${s}` }, onclick: () => add(q, false) }, t('assist.club.add', { Name: q })));
  };
  // Adds q to the roster. A name already on it is refused with the
  // entries of that name (person_exists): the box says so, shows what
  // tells each apart, to seat it, and offers adding another person of
  // that name, or merging on the club's screen.
  const add = async (q, again) => {
    const made = await post(`/host/api/clubs/${c.id}/people`, again ? { name: q, again: true } : { name: q }, c.token);
    if (!made) { toast(t('assist.club.roster_offline'), 'error'); return; }
    if (!made.res.ok && made.body.error.code === 'person_exists' && Array.isArray(made.body.same)) {
      box.replaceChildren(
        h('p', { class: 'warn', dataset: { t: `same-${s}` } }, made.body.error.message),
        ...made.body.same.map((p) => h('button', {
          type: 'button', class: 'chip same', dataset: { t: `same-pick-${s}`, person: p.id }, onclick: () => pick(p),
        }, tn('assist.club.same_entry', p.games, { Name: p.name, Count: p.games, Since: p.since, Last: p.last || '', ID: p.id }))),
        h('button', { type: 'button', class: 'chip add', dataset: { t: `add-again-${s}` }, onclick: () => add(q, true) },
          t('assist.club.add_again', { Name: q })),
        h('a', { class: 'note', href: '#/club', dataset: { t: `merge-open-${s}` } }, t('assist.club.merge_open')));
      return;
    }
    if (!made.res.ok) { toast(made.body.error.message, 'error'); return; }
    const kept = keptRoster(c);
    if (kept) keepRoster(c, [...kept, { id: made.body.id, name: made.body.name, key: '' }]);
    pick(made.body);
    toast(t('assist.club.added'));
  };
  input.addEventListener('input', () => {
    f.people[s - 1] = ''; // a name typed is no roster entry until picked
    f.names[s - 1] = input.value;
    linked();
    if (changed) changed();
    clearTimeout(searchTimer);
    searchTimer = setTimeout(search, 250);
  });
  return box;
}

// What the end screen shows of each game's club points, by game id.
const scores = new Map();

// The best move and extra points entered and not yet saved are kept on the
// phone (localStorage, SCORE + the game's id) at every change: a reload
// brings them back, over the ones the server holds. A save drops them.
const SCORE = 'assist.score.';

function keptScore(id) {
  try {
    const d = JSON.parse(localStorage.getItem(SCORE + id) || 'null');
    return d && Array.isArray(d.guess) && d.extra && typeof d.extra === 'object' ? d : null;
  } catch (_) {
    return null;
  }
}

function keepScore(id, sc) {
  try {
    if (sc) localStorage.setItem(SCORE + id, JSON.stringify({ who: sc.who, guess: sc.guess, extra: sc.extra }));
    else localStorage.removeItem(SCORE + id);
  } catch (_) { /* private mode: the entries last this page */ }
}

/** The first-killed players (who may make the best move): the night's
 * victims of the first round anyone left, if nobody left before otherwise. */
function firstKilled(p) {
  const outs = p.seats.filter((s) => s.out);
  if (!outs.length) return [];
  const first = Math.min(...outs.map((s) => s.out.round));
  const then = outs.filter((s) => s.out.round === first);
  const night = then.filter((s) => s.out.cause === 'night');
  if (!night.length || then.some((s) => s.out.cause !== 'night' && s.out.phase === 'night')) return [];
  return night.map((s) => s.seat);
}

/** The club's points of a finished game G (p: its protocol): the best
 * move and the extra points, saved on the server. */
export function scoreCard(G, p) {
  const id = G.rec.id;
  let sc = scores.get(id);
  if (!sc) {
    sc = { who: 0, guess: [], extra: {}, lines: null, scoring: null, loaded: false };
    const kept = keptScore(id);
    if (kept) Object.assign(sc, { who: kept.who || 0, guess: kept.guess, extra: kept.extra, draft: true });
    scores.set(id, sc);
  }
  const changed = () => { sc.draft = true; keepScore(id, sc); };
  const fk = firstKilled(p);
  if (!sc.who && fk.length) sc.who = fk[0];
  const el = h('section', { class: 'card', dataset: sc.saved ? { t: 'score', saved: 'yes' } : { t: 'score' } });
  const draw = () => {
    const who = fk.length > 1
      ? h('select', { dataset: { t: 'best-who' }, onchange: (e) => { sc.who = parseInt(e.target.value, 10); sc.guess = []; changed(); draw(); } },
        fk.map((s) => h('option', { value: String(s), selected: s === sc.who }, `${s} · ${G.rec.settings.names[s - 1]}`)))
      : null;
    const guess = fk.length ? h('div', { class: 'chips', dataset: { t: 'guess' } }, p.seats.filter((s) => s.seat !== sc.who).map((s) => h('button', {
      type: 'button', class: `chip ${sc.guess.includes(s.seat) ? 'sel' : ''}`, dataset: { t: `guess-${s.seat}` },
      onclick: () => {
        if (sc.guess.includes(s.seat)) sc.guess = sc.guess.filter((x) => x !== s.seat);
        else if (sc.guess.length < 3) sc.guess = [...sc.guess, s.seat];
        changed();
        draw();
      } }, String(s.seat)))) : null;
    const range2 = sc.scoring ? t('assist.club.extra_hint', { Min: sc.scoring.extra_min.toFixed(2), Max: sc.scoring.extra_max.toFixed(2) }) : '';
    const extras = h('ol', { class: 'names' }, p.seats.map((s) => h('li', {}, h('span', { class: 'n' }, String(s.seat)),
      h('span', {}, s.name),
      h('input', { type: 'number', step: '0.05', value: sc.extra[s.seat] || '', placeholder: '0', dataset: { t: `extra-${s.seat}` },
        oninput: (e) => { sc.extra[s.seat] = e.target.value; changed(); } }),
      sc.lines ? h('span', { class: 'points', dataset: { t: `points-${s.seat}` } }, sc.lines[s.seat - 1].total.toFixed(2)) : null)));
    el.replaceChildren(
      h('h3', {}, t('assist.club.best_move')),
      h('p', { class: 'note' }, t('assist.club.best_move_hint')),
      fk.length ? h('p', {}, `${t('assist.club.best_move_who')}: `, who || `${sc.who} · ${G.rec.settings.names[sc.who - 1]}`) : null,
      guess,
      h('h3', {}, t('assist.club.extra')),
      range2 ? h('p', { class: 'note' }, range2) : null,
      extras,
      button(t('assist.club.save'), save, 'primary', 'save-score'));
  };
  const save = async () => {
    const extra = [];
    for (const [seat, v] of Object.entries(sc.extra)) {
      const n = parseFloat(v);
      if (v !== '' && !Number.isNaN(n) && n !== 0) extra.push({ seat: parseInt(seat, 10), points: Math.round(n * 100) / 100 });
    }
    const body = { best_move: sc.guess.length ? { seat: sc.who, guess: sc.guess } : null, extra };
    const got = await send('PUT', `/host/api/games/${id}/score`, body, G.rec.token);
    if (!got) { toast(t('assist.club.score_offline'), 'error'); return; }
    if (!got.res.ok) { toast(got.body.error.message, 'error'); return; }
    sc.lines = got.body.lines;
    sc.scoring = got.body.scoring;
    sc.saved = true; // the points shown are the saved ones: a late load of the old ones must not replace them
    sc.draft = false;
    keepScore(id, null);
    el.dataset.saved = 'yes';
    draw();
    toast(t('assist.club.saved'));
  };
  draw();
  if (!sc.loaded) {
    sc.loaded = true;
    send('GET', `/host/api/games/${id}/protocol.json`, undefined, G.rec.token).then((got) => {
      if (!got || !got.res.ok || !got.body.score || sc.saved) return;
      const s = got.body.score;
      sc.scoring = s.scoring;
      sc.lines = s.lines;
      if (sc.draft) { if (el.isConnected) draw(); return; } // the host's entries not yet saved stay
      if (s.best_move) { sc.who = s.best_move.seat; sc.guess = s.best_move.guess; }
      for (const x of s.extra || []) sc.extra[x.seat] = String(x.points);
      if (el.isConnected) draw();
    });
  }
  return el;
}

// The result screen's links of seats to roster entries picked and not yet
// saved, by game id: a redraw of the screen draws them again (not the
// settings' links), and the phone keeps them (localStorage, LINKS + the
// game's id) at every change, so a reload brings them back. A save drops
// them.
const links = new Map();
const LINKS = 'assist.links.';

function keptLinks(id, n) {
  try {
    const d = JSON.parse(localStorage.getItem(LINKS + id) || 'null');
    const ok = (a) => Array.isArray(a) && a.length === n && a.every((x) => typeof x === 'string');
    return d && ok(d.names) && ok(d.people) ? { names: d.names, people: d.people } : null;
  } catch (_) {
    return null;
  }
}

function keepLinks(id, f) {
  try {
    if (f) localStorage.setItem(LINKS + id, JSON.stringify({ names: f.names, people: f.people }));
    else localStorage.removeItem(LINKS + id);
  } catch (_) { /* private mode: the picks last this page */ }
}

/**
 * The seats of club's game G linked to the club's roster after the game
 * (a game made offline, or names typed as guests): each seat shows its
 * roster entry or a search of the roster under its name, and "Save the
 * links" sends every seat's entry (PUT /host/api/games/{id}/people with
 * the club's code). Null unless the game is the club's on this phone.
 */
export function linkCard(G) {
  const c = clubOnPhone();
  const info = G.rec.settings.club;
  if (!c || !info || info.club !== c.id) return null;
  const names = G.rec.settings.names;
  const id = G.rec.id;
  let f = links.get(id);
  if (!f) {
    f = keptLinks(id, names.length) || { names: [...names], people: names.map((_, i) => (info.people && info.people[i]) || '') };
    links.set(id, f);
  }
  const changed = () => keepLinks(id, f);
  const el = h('section', { class: 'card', dataset: { t: 'link' } });
  const rows = names.map((n, i) => {
    const s = i + 1;
    const input = h('input', { type: 'text', maxlength: '32', value: f.names[i], dataset: { t: `link-name-${s}` }, 'aria-label': n });
    return h('li', {}, h('span', { class: 'n' }, String(s)), input, rosterPick(f, s, input, changed));
  });
  const save = async () => {
    const got = await send('PUT', `/host/api/games/${G.rec.id}/people`, { people: f.people, club_token: c.token }, G.rec.token);
    if (!got) { toast(t('assist.club.roster_offline'), 'error'); return; }
    if (!got.res.ok) { toast(got.body.error.message, 'error'); return; }
    G.rec.settings = got.body.settings;
    G.save();
    links.delete(id);
    keepLinks(id, null);
    el.dataset.saved = 'yes';
    toast(t('assist.club.links_saved'));
  };
  el.append(h('h3', {}, t('assist.club.links')), h('p', { class: 'note' }, t('assist.club.links_hint')),
    h('ol', { class: 'names' }, rows), button(t('assist.club.links_save'), save, 'primary', 'link-save'));
  return el;
}
