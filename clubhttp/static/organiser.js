// The organiser's screen of a club's tournaments (clubhttp/organiser.go,
// docs/club.md): the making of a tournament from the club's roster, and
// each tournament's steps (seat the rounds, the tables' games linked or
// missing, the final, the close). An online tournament's round is opened
// online from here, each table's state (waiting for whom, playing,
// finished, its link) refreshed while the page is open, and a waiting
// table started now. A finished online table takes its extra points here
// (each seat with its player, a field in the scoring's range, saved with
// one tap), by the organiser or the tournament's referee logged in with
// the account the organiser named; a real table's game, once linked, takes
// them here too, in place of its host's. The server says who is asking
// (the tournament's role): the organiser sees every control, the referee
// only the tables' extras, anyone else the tournament read only. Every
// change is a call of the tournaments' API with the club's code kept on
// this phone by the assistant (localStorage assist.club) or the login of an owner or host;
// a refusal shows the API's sentence, in the page's language.

const root = document.getElementById('organiser');
const data = JSON.parse(document.getElementById('organiser-data').textContent);
const clubID = root.dataset.club;
const tournamentID = root.dataset.tournament;
const lang = data.lang;
const view = document.getElementById('view');
const errorBox = document.querySelector('[data-t="error"]');
const doneBox = document.querySelector('[data-t="done"]');

/** t is a sentence of the page's language; {N} and {Game} filled in. */
function t(id, p = {}) {
  let s = data.messages[id] || id;
  for (const [k, v] of Object.entries(p)) s = s.split(`{${k}}`).join(String(v));
  return s;
}

/** h makes an element: attributes (on* are listeners, dataset an object) and children. */
function h(tag, attrs = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else if (k === 'dataset') Object.assign(e.dataset, v);
    else if (k === 'value') e.value = v;
    else if (k === 'checked' || k === 'selected') e[k] = true;
    else e.setAttribute(k, v === true ? '' : v);
  }
  for (const c of kids.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}

/** The club's code on this phone, when the assistant keeps this club. */
function token() {
  try {
    const c = JSON.parse(localStorage.getItem('assist.club') || 'null');
    return c && c.id === clubID && c.token ? c.token : '';
  } catch (_) {
    return '';
  }
}

function say(msg, ok) {
  errorBox.hidden = !!ok || !msg;
  doneBox.hidden = !ok || !msg;
  (ok ? doneBox : errorBox).textContent = msg || '';
  if (msg && !ok) errorBox.scrollIntoView({ block: 'nearest' });
}

/** call sends a request of the API; {ok, status, body} or null offline. */
async function call(method, path, body) {
  const headers = { 'Content-Type': 'application/json' };
  const tok = token();
  if (tok) headers.Authorization = `Bearer ${tok}`;
  const sep = path.includes('?') ? '&' : '?';
  try {
    const res = await fetch(`/host/api/clubs/${encodeURIComponent(clubID)}${path}${sep}lang=${lang}`, {
      method, headers, credentials: 'same-origin', body: body === undefined ? undefined : JSON.stringify(body),
    });
    let b = null;
    try { b = await res.json(); } catch (_) { b = null; }
    return { ok: res.ok, status: res.status, body: b };
  } catch (_) {
    return null;
  }
}

/** refused shows a failed call's sentence; true when the call failed. */
function refused(r) {
  if (!r) { say(t('organiser.offline')); return true; }
  if (!r.ok) { say(r.body && r.body.error ? r.body.error.message : t('organiser.offline')); return true; }
  return false;
}

const label = (text, input) => h('label', { class: 'field' }, h('span', {}, text), input);
const number = (key, value, min, max, step) => h('input', { type: 'number', inputmode: 'decimal', min, max, step: step || '1', value: String(value), dataset: { t: key } });
const today = () => new Date().toISOString().slice(0, 10);
// TIMINGS are the steps whose times an online tournament's tables may set
// (the API's timings_ms, docs/protocol.md).
const TIMINGS = ['speech', 'defence', 'tie_speech', 'last_words', 'night', 'vote'];

// The making page: the club's tournaments and the form of a new one.
async function makingPage() {
  const got = await call('GET', '');
  if (!got) { say(t('organiser.offline')); return; }
  if (!got.ok) { noAccess(got); return; }
  const club = got.body;
  const people = (club.people || []).filter((p) => !p.merged_into);
  const list = (club.tournaments || []).length
    ? h('ul', { class: 'list', dataset: { t: 'tournaments' } }, club.tournaments.map((x) => h('li', {},
      h('a', { href: `/host/clubs/${clubID}/organiser/${x.id}?lang=${lang}`, dataset: { t: 'manage', tournament: x.id } }, x.name),
      h('span', { class: 'sub' }, ` · ${t(`tournament.state.${x.state}`)}`))))
    : h('p', { class: 'sub' }, t('organiser.none'));

  const count = h('span', { class: 'sub', dataset: { t: 'players-n' } });
  const ticks = people.map((p) => h('label', { class: 'tick' },
    h('input', { type: 'checkbox', value: p.id, dataset: { t: 'player', person: p.id }, onchange: () => recount() }), ` ${p.name}`));
  const recount = () => { count.textContent = t('organiser.players_n', { N: chosen().length }); redoPairs(); };
  const chosen = () => ticks.map((l) => l.querySelector('input')).filter((i) => i.checked).map((i) => i.value);
  const nameOf = Object.fromEntries(people.map((p) => [p.id, p.name]));

  const preset = h('select', { dataset: { t: 'scoring' } },
    h('option', { value: '' }, t('organiser.scoring_own')),
    Object.keys(data.presets).map((p) => h('option', { value: p }, t(`assist.club.scoring_preset_${p}`))));
  const ties = data.tie_breaks.map((_, i) => h('select', { dataset: { t: `tie-${i + 1}` } },
    h('option', { value: '' }, t('organiser.tie_none')),
    data.tie_breaks.map((tb) => h('option', { value: tb, selected: data.default_tie_breaks[i] === tb }, t(`organiser.tie.${tb}`)))));

  // The pairs to keep apart: two of the chosen players each.
  const pairs = [];
  const pairBox = h('div', { dataset: { t: 'pairs' } });
  const pairSelect = (v) => h('select', {}, h('option', { value: '' }, '—'),
    chosen().map((id) => h('option', { value: id, selected: id === v }, nameOf[id] || id)));
  const redoPairs = () => {
    pairBox.replaceChildren(...pairs.map((pr, i) => {
      const a = pairSelect(pr[0]); const b = pairSelect(pr[1]);
      a.dataset.t = `pair-${i + 1}-a`; b.dataset.t = `pair-${i + 1}-b`;
      a.onchange = () => { pr[0] = a.value; }; b.onchange = () => { pr[1] = b.value; };
      return h('div', { class: 'pair' }, a, ' ≠ ', b,
        h('button', { type: 'button', class: 'small', onclick: () => { pairs.splice(i, 1); redoPairs(); } }, t('organiser.avoid_remove')));
    }));
  };

  const f = {
    name: h('input', { type: 'text', maxlength: '64', dataset: { t: 'name' } }),
    from: h('input', { type: 'date', value: today(), dataset: { t: 'from' } }),
    to: h('input', { type: 'date', value: today(), dataset: { t: 'to' } }),
    tables: number('tables', 2, 1, 10), seats: number('seats', 10, 5, 20), games: number('games', 10, 1, 100),
    finalSize: number('final-size', 10, 0, 20), finalGames: number('final-games', 1, 1, 10),
    factor: number('final-factor', '1.5', '0', '10', '0.05'),
    host: h('input', { type: 'text', maxlength: '64', dataset: { t: 'host' } }),
    referee: h('input', { type: 'text', maxlength: '64', dataset: { t: 'referee' } }),
    // The referee's account on the site (a member's, or any by its name):
    // it may give the tables' extra points.
    refereeAccount: h('input', { type: 'text', maxlength: '64', autocomplete: 'off', list: 'organiser-members', dataset: { t: 'referee-account' } }),
    seed: h('input', { type: 'number', min: '0', inputmode: 'numeric', dataset: { t: 'seed' } }),
  };
  // The online rules, shown when the rounds are played online.
  const on = {
    online: h('input', { type: 'checkbox', dataset: { t: 'online' } }),
    noShow: h('select', { dataset: { t: 'no-show' } },
      h('option', { value: 'stand_in' }, t('organiser.no_show_stand_in')),
      h('option', { value: 'forfeit' }, t('organiser.no_show_forfeit'))),
    wait: number('wait', 300, 1, 3600),
    rated: h('input', { type: 'checkbox', dataset: { t: 'rated' } }),
    // The forfeit penalty (points, 0 or less): empty, the club's penalty
    // for a removal by fouls.
    forfeit: h('input', { type: 'number', inputmode: 'decimal', min: '-10', max: '0', step: '0.05', dataset: { t: 'forfeit' } }),
    // Each step's time in seconds: empty, the server's.
    timings: TIMINGS.map((k) => h('input', { type: 'number', inputmode: 'decimal', min: '0.1', max: '3600', step: '0.1', dataset: { t: `timing-${k}`, step: k } })),
  };
  const forfeitField = label(t('organiser.forfeit'), on.forfeit);
  forfeitField.hidden = true;
  const onlineRules = h('div', { hidden: true, dataset: { t: 'online-rules' } },
    label(t('organiser.no_show'), on.noShow), forfeitField, label(t('organiser.wait'), on.wait),
    h('label', { class: 'tick' }, on.rated, ` ${t('organiser.rated')}`),
    h('fieldset', { dataset: { t: 'timings' } }, h('legend', {}, t('organiser.timings')),
      h('div', { class: 'row wrap' }, on.timings.map((i) => label(t(`web.timing.${i.dataset.step}`), i)))));
  on.online.onchange = () => { onlineRules.hidden = !on.online.checked; };
  on.noShow.onchange = () => { forfeitField.hidden = on.noShow.value !== 'forfeit'; };
  const make = async (ev) => {
    ev.preventDefault();
    const n = (i) => parseInt(i.value || '0', 10) || 0;
    const body = {
      name: f.name.value, from: f.from.value, to: f.to.value, host: f.host.value, referee: f.referee.value,
      referee_account: f.refereeAccount.value.trim(),
      players: chosen(), tables: n(f.tables), seats: n(f.seats), games: n(f.games),
      final: { size: n(f.finalSize), games: n(f.finalGames), factor: Math.round(parseFloat(f.factor.value || '0') * 100) / 100 },
      tie_breaks: ties.map((s) => s.value).filter((v) => v),
      avoid: pairs.filter((p) => p[0] && p[1]),
    };
    if (f.seed.value) body.seed = n(f.seed);
    if (preset.value) body.scoring = data.presets[preset.value];
    if (on.online.checked) {
      body.online = { no_show: on.noShow.value, wait_s: n(on.wait), rated: on.rated.checked };
      if (on.noShow.value === 'forfeit' && on.forfeit.value !== '') body.online.forfeit = Math.round(parseFloat(on.forfeit.value) * 100) / 100;
      const timings = {};
      for (const i of on.timings) if (i.value !== '') timings[i.dataset.step] = Math.round(parseFloat(i.value) * 1000);
      if (Object.keys(timings).length) body.online.timings_ms = timings;
    }
    const r = await call('POST', '/tournaments', body);
    if (refused(r)) return;
    location.href = `/host/clubs/${clubID}/organiser/${r.body.id}?lang=${lang}`;
  };
  view.replaceChildren(
    h('section', { class: 'card' }, h('h2', {}, t('organiser.list')), list),
    h('form', { class: 'card', dataset: { t: 'new' }, onsubmit: make },
      h('h2', {}, t('organiser.new')),
      label(t('organiser.name'), f.name),
      h('div', { class: 'row' }, label(t('organiser.from'), f.from), label(t('organiser.to'), f.to)),
      h('fieldset', {}, h('legend', {}, t('organiser.players'), ' ', count), h('div', { class: 'ticks' }, ticks)),
      label(t('organiser.scoring'), preset),
      h('fieldset', {}, h('legend', {}, t('organiser.tie_breaks')), h('ol', { class: 'ties' }, ties.map((s) => h('li', {}, s)))),
      h('div', { class: 'row' }, label(t('organiser.tables'), f.tables), label(t('organiser.seats'), f.seats), label(t('organiser.games'), f.games)),
      h('div', { class: 'row' }, label(t('organiser.final_size'), f.finalSize), label(t('organiser.final_games'), f.finalGames),
        label(t('organiser.final_factor'), f.factor)),
      h('div', { class: 'row' }, label(t('assist.club.host'), f.host), label(t('assist.club.referee'), f.referee)),
      label(t('organiser.referee_account'), f.refereeAccount),
      h('datalist', { id: 'organiser-members' }, (club.members || []).map((m) => h('option', { value: m.name }))),
      h('fieldset', {}, h('legend', {}, t('organiser.avoid')), pairBox,
        h('button', { type: 'button', class: 'small', dataset: { t: 'pair-add' }, onclick: () => { pairs.push(['', '']); redoPairs(); } }, t('organiser.avoid_add'))),
      h('fieldset', {}, h('legend', {}, h('label', { class: 'tick' }, on.online, ` ${t('organiser.online')}`)), onlineRules),
      label(t('organiser.seed'), f.seed),
      h('button', { type: 'submit', class: 'primary', dataset: { t: 'create' } }, t('organiser.create'))));
  recount();
}

function noAccess(got) {
  say(got.body && got.body.error ? got.body.error.message : '');
  view.replaceChildren(h('p', { dataset: { t: 'no-access' } }, t('organiser.no_access')),
    h('p', {}, h('a', { href: `/host/?lang=${lang}#/club` }, t('organiser.club_screen'))));
}

// The page of one tournament: its state, its steps, its rounds and tables.
async function tournamentPage() {
  const got = await call('GET', `/tournaments/${encodeURIComponent(tournamentID)}`);
  if (refused(got)) return;
  draw(got.body);
}

/** step calls a step of the tournament and draws the answer. */
async function step(method, path, body, after) {
  const r = await call(method, `/tournaments/${encodeURIComponent(tournamentID)}${path}`, body);
  if (refused(r)) return r;
  say(t('organiser.done'), true);
  draw(r.body);
  if (after) after();
  return r;
}

function draw(tr) {
  const name = (id) => (tr.names || {})[id] || id;
  // The server says who is asking: the organiser sees every control, the
  // referee the tables' extras only, anyone else the tournament read only.
  const organiser = tr.role === 'organiser';
  const steps = [];
  if (!organiser) { /* no steps: the server would refuse them */ } else if (tr.state === 'open') steps.push(h('button', { type: 'button', class: 'primary', dataset: { t: 'seat-rounds' }, onclick: () => step('POST', '/rounds') }, t('organiser.seat_rounds')));
  const finalists = h('div', { dataset: { t: 'finalists' } });
  if (organiser && tr.state === 'rounds') {
    steps.push(h('button', { type: 'button', class: 'primary', dataset: { t: 'seat-final' }, onclick: async () => {
      const r = await step('POST', '/final', {});
      if (r && !r.ok && r.body && r.body.error && r.body.error.code === 'tournament_final_tie') pickFinalists(tr, finalists, name);
    } }, t('organiser.seat_final')));
  }
  if (organiser && (tr.state === 'rounds' || tr.state === 'final')) {
    steps.push(h('button', { type: 'button', class: 'secondary', dataset: { t: 'close' }, onclick: () => step('POST', '/close') }, t('organiser.close')));
  }
  const page = `/host/clubs/${clubID}/tournaments/${tr.id}?lang=${lang}`;
  let final = 0;
  watched = [];
  const rounds = (tr.rounds || []).map((round, r) => {
    const title = round.final ? t('tournament.final_game', { N: ++final }) : t('tournament.round', { N: r + 1 });
    // An online tournament's round not begun is opened online here; one
    // opened is watched while a table of it has no game yet.
    const fresh = round.tables.every((tb) => !tb.game && !tb.online);
    const open = organiser && tr.online && tr.state !== 'closed' && fresh
      ? h('button', { type: 'button', class: 'primary', dataset: { t: 'open-online', round: r + 1 }, onclick: () => openOnline(r + 1) }, t('organiser.open_online'))
      : null;
    if (round.tables.some((tb) => tb.online && !tb.game)) watched.push(r + 1);
    return h('section', { class: 'card round', dataset: { t: 'round', round: r + 1 } }, h('h3', {}, title), open,
      round.tables.map((tb, n) => tableCard(tr, r, n, tb, name)));
  });
  names = name;
  runs = organiser;
  view.replaceChildren(
    h('p', {}, h('a', { href: `/host/clubs/${clubID}/organiser?lang=${lang}`, dataset: { t: 'back' } }, t('organiser.back'))),
    h('section', { class: 'card', dataset: { t: 'head' } },
      h('h2', { dataset: { t: 'tournament-name' } }, tr.name),
      h('p', { class: 'sub' }, `${tr.from} — ${tr.to} · `, h('span', { dataset: { t: 'state', state: tr.state } }, t(`tournament.state.${tr.state}`))),
      tr.host || tr.referee ? h('p', { class: 'sub' }, tr.host ? `${t('assist.club.host')}: ${tr.host}` : '', tr.host && tr.referee ? ' · ' : '',
        tr.referee ? h('span', { dataset: { t: 'referee-shown' } }, `${t('assist.club.referee')}: ${tr.referee}`,
          tr.referee_login ? ` (${t('organiser.referee_login', { Name: tr.referee_login })})` : '') : '') : null,
      h('p', {}, h('a', { href: page, target: '_blank', dataset: { t: 'standings' } }, t('organiser.standings')), ' · ',
        h('a', { href: `/host/api/clubs/${clubID}/tournaments/${tr.id}/standings.csv?lang=${lang}`, dataset: { t: 'csv' } }, t('organiser.csv'))),
      organiser && tr.state !== 'closed' ? refereeForm(tr) : null,
      organiser ? null : h('p', { class: 'sub', dataset: { t: 'role', role: tr.role || 'public' } },
        t(tr.role === 'referee' ? 'organiser.you_referee' : 'organiser.you_public')),
      h('div', { class: 'steps' }, steps), finalists),
    ...rounds);
}

/**
 * refereeForm names the tournament's referee again: the name shown and
 * their site account (empty: none), folded until opened.
 */
function refereeForm(tr) {
  const name = h('input', { type: 'text', maxlength: '64', value: tr.referee || '', dataset: { t: 'referee-name' } });
  const acct = h('input', { type: 'text', maxlength: '64', autocomplete: 'off', value: tr.referee_login || '', dataset: { t: 'referee-login' } });
  return h('details', { class: 'referee', dataset: { t: 'referee-change' } },
    h('summary', {}, t('organiser.referee_change')),
    h('form', { onsubmit: (ev) => {
      ev.preventDefault();
      step('PUT', '/referee', { referee: name.value.trim(), account: acct.value.trim() });
    } }, label(t('assist.club.referee'), name), label(t('organiser.referee_account'), acct),
    h('button', { type: 'submit', class: 'small', dataset: { t: 'referee-save' } }, t('organiser.referee_save'))));
}

function tableCard(tr, r, n, tb, name) {
  const organiser = tr.role === 'organiser';
  const status = tb.game
    ? h('p', { class: 'linked', dataset: { t: 'linked' } }, t('organiser.linked', { Game: tb.game }), ' ',
      organiser && tr.state !== 'closed' ? h('button', { type: 'button', class: 'small', dataset: { t: 'unlink' },
        onclick: () => step('DELETE', `/rounds/${r + 1}/tables/${n + 1}/game`) }, t('organiser.unlink')) : null)
    : tb.online ? h('div', { class: 'online', dataset: { t: 'online', round: r + 1, table: n + 1 } })
    : h('div', { class: 'missing', dataset: { t: 'missing' } }, h('p', {}, t('organiser.missing')),
      organiser && tr.state !== 'closed' ? [
        h('p', {}, h('a', { href: (tr.setup[r] || [])[n], dataset: { t: 'setup' } }, t('organiser.setup'))),
        linkForm(r, n)] : null);
  // A finished table takes its extra points here: online, once its game
  // is over; at a real table, once its game is linked (then replacing the
  // host's).
  const real = !tb.online && tb.game && ((tr.host_extra || [])[r] || [])[n];
  const extra = (tb.game && tb.online && tb.game === tb.online) || real ? extraForm(tr, r, n, tb, name) : null;
  return h('div', { class: 'table-card', dataset: { t: 'table', round: r + 1, table: n + 1 } },
    h('h4', {}, t('tournament.table', { N: n + 1 })),
    h('ol', { class: 'seats' }, tb.players.map((p, s) => h('li', { value: s + 1, dataset: { person: p } },
      h('span', { class: 'seat' }, t('organiser.seat', { N: s + 1 })), ' ', name(p)))),
    status, extra);
}

/** points writes hundredths' points as the sheets do ("0.30", "-0.50"). */
const points = (v) => Number(v).toFixed(2);

/**
 * extraForm is a finished online table's extra points: each seat with its
 * player and a field in the scoring's range (shown), the ones kept filled
 * in, saved with one tap (in place of those kept; an empty field: none).
 * A refusal shows the API's sentence (the seat named); once saved the page
 * is drawn again from the answer.
 */
function extraForm(tr, r, n, tb, name) {
  const sc = tr.scoring || {};
  // At a real table the host's extras count until these are given.
  const real = !tb.online;
  const host = ((tr.host_extra || [])[r] || [])[n] || [];
  const counted = real && !tb.extra_given ? host : (tb.extra || []);
  const kept = Object.fromEntries(counted.map((x) => [x.seat, x.points]));
  const closed = tr.state === 'closed' || (tr.role !== 'organiser' && tr.role !== 'referee');
  const fields = tb.players.map((p, s) => h('input', { type: 'number', inputmode: 'decimal', step: '0.05',
    min: points(sc.extra_min || 0), max: points(sc.extra_max || 0), value: kept[s + 1] !== undefined ? points(kept[s + 1]) : undefined,
    disabled: closed, 'aria-label': `${t('organiser.seat', { N: s + 1 })} ${name(p)}`, dataset: { t: 'extra-points', seat: s + 1 } }));
  const save = async (ev) => {
    ev.preventDefault();
    const extra = [];
    for (const i of fields) {
      if (i.value.trim() === '') continue;
      extra.push({ seat: Number(i.dataset.seat), points: Math.round(parseFloat(i.value) * 100) / 100 });
    }
    const res = await call('PUT', `/tournaments/${encodeURIComponent(tournamentID)}/rounds/${r + 1}/tables/${n + 1}/extra`, { extra });
    if (refused(res)) return;
    say(t('organiser.extra_saved'), true);
    await tournamentPage();
  };
  return h('form', { class: 'extra', novalidate: true, dataset: { t: 'extra', round: r + 1, table: n + 1 }, onsubmit: save },
    h('h5', {}, t('organiser.extra')),
    h('p', { class: 'sub', dataset: { t: 'extra-range' } }, t('organiser.extra_range', { Min: points(sc.extra_min || 0), Max: points(sc.extra_max || 0) })),
    real ? h('p', { class: 'sub', dataset: { t: 'extra-rule' } }, t('organiser.extra_rule')) : null,
    real ? h('p', { class: 'sub', dataset: { t: 'extra-counting', given: tb.extra_given ? 'here' : 'host' } },
      t(tb.extra_given ? 'organiser.extra_counting_here' : 'organiser.extra_counting_host')) : null,
    h('ol', { class: 'extra-seats' }, tb.players.map((p, s) => h('li', {},
      h('label', {}, h('span', { class: 'seat' }, t('organiser.seat', { N: s + 1 })), ' ', h('span', { class: 'who' }, name(p))), fields[s]))),
    closed ? null : h('button', { type: 'submit', class: 'primary', dataset: { t: 'extra-save' } }, t('organiser.extra_save')));
}

function linkForm(r, n) {
  const input = h('input', { type: 'text', maxlength: '64', placeholder: t('organiser.game_id'), 'aria-label': t('organiser.game_id'), dataset: { t: 'game-id' } });
  return h('form', { class: 'link', onsubmit: (ev) => {
    ev.preventDefault();
    step('PUT', `/rounds/${r + 1}/tables/${n + 1}/game`, { game: input.value.trim() });
  } }, input, h('button', { type: 'submit', class: 'small', dataset: { t: 'link' } }, t('organiser.link')));
}

/** pickFinalists asks the organiser to name the finalists: the cut fell in a shared place. */
async function pickFinalists(tr, box, name) {
  const st = await call('GET', `/tournaments/${encodeURIComponent(tr.id)}/standings.json`);
  if (refused(st)) return;
  const lines = st.body.standings || [];
  const ticks = lines.map((l, i) => h('label', { class: 'tick' },
    h('input', { type: 'checkbox', value: l.person, checked: i < tr.final.size, dataset: { t: 'finalist', person: l.person } }),
    ` ${l.place}. ${l.name || name(l.person)} · ${l.points}`));
  box.replaceChildren(h('fieldset', {}, h('legend', {}, t('organiser.finalists', { N: tr.final.size })),
    h('div', { class: 'ticks' }, ticks),
    h('button', { type: 'button', class: 'primary', dataset: { t: 'seat-finalists' }, onclick: () => {
      const players = ticks.map((l) => l.querySelector('input')).filter((i) => i.checked).map((i) => i.value);
      step('POST', '/final', { players });
    } }, t('organiser.finalists_seat'))));
}

// The online rounds: opened here, their tables' states refreshed while the
// page is open (every few seconds), a waiting table started now.
let watched = []; // the rounds opened online with a table not finished
let names = (id) => id;
let runs = false; // the organiser asks: a waiting table may be started now
let refreshing = false;
const redrawn = new Set(); // the tables ("round/table") whose end redrew the page once

async function openOnline(round) {
  const r = await call('POST', `/tournaments/${encodeURIComponent(tournamentID)}/rounds/${round}/online`);
  if (refused(r)) return;
  say(t('organiser.done'), true);
  await tournamentPage();
  await refreshOnline();
}

async function startNow(round, table) {
  const r = await call('POST', `/tournaments/${encodeURIComponent(tournamentID)}/rounds/${round}/tables/${table}/start`);
  if (refused(r)) return;
  say(t('organiser.done'), true);
  showRound(round, r.body);
}

/** refreshOnline reads each watched round's state; a table finished redraws the tournament (its game linked). */
async function refreshOnline() {
  if (refreshing || !watched.length) return;
  refreshing = true;
  try {
    for (const round of watched.slice()) {
      const r = await call('GET', `/tournaments/${encodeURIComponent(tournamentID)}/rounds/${round}/online`);
      if (!r || !r.ok) continue;
      if (showRound(round, r.body)) { await tournamentPage(); return; }
    }
  } finally {
    refreshing = false;
  }
}

/** showRound fills each online table's box of a round; true when a table has finished since drawn. */
function showRound(round, st) {
  let ended = false;
  for (const tb of (st && st.tables) || []) {
    const box = view.querySelector(`[data-t="online"][data-round="${round}"][data-table="${tb.table}"]`);
    if (!box) continue;
    if (tb.state === 'finished' && !redrawn.has(`${round}/${tb.table}`)) {
      redrawn.add(`${round}/${tb.table}`);
      ended = true;
    }
    const waiting = tb.state === 'waiting' && (tb.waiting || []).length
      ? h('p', { class: 'sub', dataset: { t: 'online-waiting' } }, t('organiser.online_waiting_for', { Names: tb.waiting.map(names).join(', ') }))
      : null;
    box.replaceChildren(...[
      h('p', {}, h('span', { class: `state ${tb.state}`, dataset: { t: 'online-state', state: tb.state } }, t(`organiser.online_${tb.state}`)),
        ' · ', h('a', { href: tb.link, target: '_blank', dataset: { t: 'online-link' } }, t('organiser.online_link'))),
      waiting,
      runs && tb.state === 'waiting' ? h('button', { type: 'button', class: 'small', dataset: { t: 'start' },
        onclick: () => startNow(round, tb.table) }, t('organiser.start_now')) : null].filter((e) => e));
  }
  return ended;
}

if (tournamentID) {
  tournamentPage().then(refreshOnline);
  setInterval(refreshOnline, 5000);
} else makingPage();
