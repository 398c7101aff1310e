// The club's own screen (#/club): the club on this phone (made or entered
// by its code, as on the setup screen), its seasons with their printable
// standings and CSVs, a new season, the roster, where an entry entered
// twice is merged into the other (its games count under that one; the
// server records the merge), an entry is renamed or linked to an account
// (its games count on the account's page), the club's members (accounts,
// each an owner, a host or a member), and the club's scoring rules. It all
// needs the server.

import { h } from './dom.js';
import { mount, button, toast } from './ui.js';
import { t, current } from './i18n.js';
import { send } from './sync.js';
import { clubOnPhone, clubCard, today } from './club.js';

/** Draws the club's screen. */
export async function clubScreen() {
  const c = clubOnPhone();
  const redraw = () => clubScreen();
  const back = button(t('assist.back'), () => { location.hash = '#/'; }, 'secondary', 'back');
  if (!c) {
    mount(h('h2', {}, t('assist.club.title')), clubCard({}, redraw), back);
    return;
  }
  const got = await send('GET', `/host/api/clubs/${c.id}`, undefined, c.token);
  if (!got || !got.res.ok) {
    mount(h('h2', {}, t('assist.club.title')), clubCard({}, redraw),
      h('p', { class: 'note', dataset: { t: 'club-offline' } }, got ? got.body.error.message : t('assist.club.roster_offline')), back);
    return;
  }
  const club = got.body;
  const season = { id: '', name: '', from: today(), to: today() };
  const input = (k, type) => h('label', { class: 'opt' }, h('span', {}, t(`assist.club.season_${k}`)),
    h('input', { type, value: season[k], dataset: { t: `season-${k}` }, oninput: (e) => { season[k] = e.target.value; } }));
  const saveSeason = async () => {
    const id = season.name.trim().toLowerCase().normalize('NFD').replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 32) ||
      `s${season.from.replace(/-/g, '')}`;
    const r = await send('PUT', `/host/api/clubs/${c.id}/seasons/${id}`, { name: season.name.trim(), from: season.from, to: season.to }, c.token);
    if (!r) { toast(t('assist.club.roster_offline'), 'error'); return; }
    if (!r.res.ok) { toast(r.body.error.message, 'error'); return; }
    toast(t('assist.club.season_saved'));
    redraw();
  };
  const people = (club.people || []).filter((p) => !p.merged_into);
  const merge = async (from, into) => {
    const r = await send('POST', `/host/api/clubs/${c.id}/merges`, { from, into }, c.token);
    if (!r) { toast(t('assist.club.roster_offline'), 'error'); return; }
    if (!r.res.ok) { toast(r.body.error.message, 'error'); return; }
    toast(t('assist.club.merged'));
    redraw();
  };
  // The club's scoring rules, in points (two decimals at most).
  const scoring = { ...club.scoring };
  const KEYS = ['win', 'best_move_2', 'best_move_3', 'extra_min', 'extra_max', 'fouls', 'first_killed'];
  // A preset (club, fiim) gives every number; typing a number makes them the club's own.
  const PRESETS = ['', 'club', 'fiim'];
  const saveScoring = async () => {
    const r = await send('PUT', `/host/api/clubs/${c.id}`, { name: club.name, scoring }, c.token);
    if (!r) { toast(t('assist.club.roster_offline'), 'error'); return; }
    if (!r.res.ok) { toast(r.body.error.message, 'error'); return; }
    toast(t('assist.club.scoring_saved'));
    redraw();
  };
  const scoringCard = h('details', { class: 'card', dataset: { t: 'scoring' } }, h('summary', {}, t('assist.club.scoring')),
    h('label', { class: 'opt' }, h('span', {}, t('assist.club.scoring_preset')),
      h('select', { dataset: { t: 'scoring-preset' }, onchange: (e) => { scoring.preset = e.target.value; } },
        PRESETS.map((p) => h('option', { value: p, selected: (scoring.preset || '') === p }, t(`assist.club.scoring_preset_${p || 'own'}`))))),
    KEYS.map((k) => h('label', { class: 'opt' }, h('span', {}, t(`assist.club.scoring_${k}`)),
      h('input', { type: 'number', step: '0.05', value: Number(scoring[k] || 0).toFixed(2), dataset: { t: `scoring-${k}` },
        oninput: (e) => { scoring[k] = Math.round(parseFloat(e.target.value || '0') * 100) / 100; scoring.preset = ''; } }))),
    button(t('assist.club.scoring_save'), saveScoring, 'secondary', 'scoring-save'));
  const lang = current();
  // The club's tournaments (docs/club.md, Tournaments): each one's page,
  // with its standings and every round's tables and their setups.
  // The organiser's screen (clubhttp's organiser page) makes one and
  // takes it through its steps.
  const tournaments = h('section', { class: 'card', dataset: { t: 'tournaments' } },
    h('h3', {}, t('tournament.list')),
    (club.tournaments || []).length ? h('ul', { class: 'games' }, club.tournaments.map((x) => h('li', { dataset: { tournament: x.id } },
      h('a', { href: `/host/clubs/${c.id}/tournaments/${x.id}?lang=${current()}`, target: '_blank', dataset: { t: 'tournament' } }, x.name),
      h('span', { class: 'sub' }, ` · ${t(`tournament.state.${x.state}`)}`)))) : null,
    h('a', { href: `/host/clubs/${c.id}/organiser?lang=${current()}`, dataset: { t: 'organiser' } }, t('tournament.organiser')));
  mount(
    h('h2', {}, `${t('assist.club.title')}: ${club.name}`),
    tournaments,
    h('section', { class: 'card', dataset: { t: 'seasons' } }, h('h3', {}, t('assist.club.seasons')),
      h('ul', { class: 'games' }, (club.seasons || []).map((s) => h('li', { dataset: { season: s.id } },
        h('a', { href: `/host/clubs/${c.id}/seasons/${s.id}?lang=${lang}`, target: '_blank', dataset: { t: 'standings' } }, s.name),
        h('span', { class: 'sub' }, `${s.from} — ${s.to} · `),
        h('a', { href: `/host/api/clubs/${c.id}/seasons/${s.id}/standings.csv?lang=${lang}`, download: `standings-${s.id}.csv` }, 'CSV'),
        h('span', { class: 'sub' }, ' · '),
        h('a', { href: `/host/api/clubs/${c.id}/seasons/${s.id}/standings.csv?header=ids`, download: `standings-${s.id}.ids.csv`, dataset: { t: 'standings-csv-ids' } }, t('assist.club.csv_ids'))))),
      h('a', { href: `/host/api/clubs/${c.id}/games.csv?lang=${lang}`, download: 'games.csv', dataset: { t: 'games-csv' } }, t('assist.club.games_csv')),
      h('span', { class: 'sub' }, ' · '),
      h('a', { href: `/host/api/clubs/${c.id}/games.csv?header=ids`, download: 'games.ids.csv', dataset: { t: 'games-csv-ids' } }, t('assist.club.games_csv_ids')),
      h('h3', {}, t('assist.club.season_new')),
      h('label', { class: 'opt' }, h('span', {}, t('assist.club.season_name')),
        h('input', { type: 'text', maxlength: '64', dataset: { t: 'season-name' }, oninput: (e) => { season.name = e.target.value; } })),
      input('from', 'date'), input('to', 'date'),
      button(t('assist.club.season_save'), saveSeason, 'secondary', 'season-save')),
    membersCard(c, club, redraw),
    h('section', { class: 'card', dataset: { t: 'roster' } }, h('h3', {}, t('assist.club.roster')),
      // The evening's seating cards (/host/seating), the roster's names filled in: the host keeps the evening's players.
      h('a', { href: `/host/seating?lang=${lang}&names=${encodeURIComponent(people.map((p) => p.name).join('\n'))}`, target: '_blank', dataset: { t: 'seating-open' } }, t('assist.seating.open')),
      h('p', { class: 'note' }, t('assist.club.merge_hint')),
      h('ol', { class: 'names' }, people.map((p) => {
        let into = '';
        return h('li', { dataset: { person: p.id } }, h('span', {}, p.name),
          h('select', { dataset: { t: `merge-${p.id}` }, 'aria-label': t('assist.club.merge_into'),
            onchange: (e) => { into = e.target.value; } },
          h('option', { value: '' }, t('assist.club.merge_into')),
          people.filter((o) => o.id !== p.id).map((o) => h('option', { value: o.id }, o.name))),
          button(t('assist.club.merge'), () => { if (into) merge(p.id, into); }, 'secondary small', `merge-go-${p.id}`),
          entryCard(c, p, (club.links || {})[p.id], redraw));
      }))),
    scoringCard,
    c.token ? h('details', { class: 'card' }, h('summary', {}, t('assist.club.code')),
      h('p', { class: 'note' }, t('assist.club.code_line', { Code: `${c.id}.${c.token}` }))) : null,
    back);
}

/** Sends a change of the club's and says how it went; redraw() after one done. */
async function change(method, url, body, token, done, redraw) {
  const r = await send(method, url, body, token);
  if (!r) { toast(t('assist.club.roster_offline'), 'error'); return; }
  if (!r.res.ok) { toast(r.body.error.message, 'error'); return; }
  toast(t(done));
  redraw();
}

const ROLES = ['member', 'host', 'owner'];

/** The club's members: each account with its role, a role's change, an add and a removal. */
function membersCard(c, club, redraw) {
  const members = club.members || [];
  const base = `/host/api/clubs/${c.id}/members/`;
  const add = { name: '', role: 'member' };
  const roleSelect = (value, onchange, testid) => h('select', { dataset: { t: testid }, 'aria-label': t('assist.club_members.title'), onchange },
    ROLES.map((r) => h('option', { value: r, selected: r === value }, t(`assist.club_members.role_${r}`))));
  return h('section', { class: 'card', dataset: { t: 'members' } }, h('h3', {}, t('assist.club_members.title')),
    h('p', { class: 'note' }, t('assist.club_members.hint')),
    members.length ? h('ul', { class: 'names' }, members.map((m) => h('li', { dataset: { member: m.name } },
      h('span', {}, m.name), ' ',
      roleSelect(m.role, (e) => change('PUT', base + encodeURIComponent(m.name), { role: e.target.value }, c.token,
        'assist.club_members.added', redraw), `role-${m.name}`),
      button(t('assist.club_members.remove'), () => change('DELETE', base + encodeURIComponent(m.name), undefined, c.token,
        'assist.club_members.removed', redraw), 'secondary small', `remove-${m.name}`))))
      : h('p', { class: 'note', dataset: { t: 'members-none' } }, t('assist.club_members.none')),
    h('input', { type: 'text', maxlength: '32', placeholder: t('assist.club_members.name'), dataset: { t: 'member-name' },
      oninput: (e) => { add.name = e.target.value.trim(); } }),
    roleSelect(add.role, (e) => { add.role = e.target.value; }, 'member-role'),
    button(t('assist.club_members.add'), () => {
      if (add.name) change('PUT', base + encodeURIComponent(add.name), { role: add.role }, c.token, 'assist.club_members.added', redraw);
    }, 'secondary', 'member-add'));
}

/** A roster entry's rename and its link to an account (linked: the account's name, or undefined). */
function entryCard(c, p, linked, redraw) {
  const base = `/host/api/clubs/${c.id}/people/${p.id}`;
  let name = p.name;
  let account = '';
  return h('details', { class: 'entry', dataset: { t: `entry-${p.id}` } },
    h('summary', {}, linked ? t('assist.club_members.linked_to', { Name: linked }) : t('assist.club_members.link')),
    h('input', { type: 'text', maxlength: '64', value: p.name, 'aria-label': t('assist.club_members.rename'), dataset: { t: `rename-${p.id}` },
      oninput: (e) => { name = e.target.value.trim(); } }),
    button(t('assist.club_members.rename'), () => change('PUT', base, { name }, c.token, 'assist.club_members.renamed', redraw),
      'secondary small', `rename-go-${p.id}`),
    linked
      ? button(t('assist.club_members.unlink'), () => change('DELETE', `${base}/account`, undefined, c.token, 'assist.club_members.unlinked', redraw),
        'secondary small', `unlink-${p.id}`)
      : [h('input', { type: 'text', maxlength: '32', placeholder: t('assist.club_members.name'), dataset: { t: `link-${p.id}` },
        oninput: (e) => { account = e.target.value.trim(); } }),
      button(t('assist.club_members.link'), () => {
        if (account) change('PUT', `${base}/account`, { name: account }, c.token, 'assist.club_members.linked', redraw);
      }, 'secondary small', `link-go-${p.id}`)]);
}
