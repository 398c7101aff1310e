// lobby.js: the home screen: the open tables, a new table (by player count
// or a custom setup, the rulebook's house rules with their defaults, the
// timings), and joining by an invite link.

import { h, patch } from './dom.js';
import { t, tn } from './i18n.js';
import { api } from './api.js';
import { andList } from './narrate.js';
import { TIMINGS } from './names.js';
import { account, onChange } from './account.js';

const ROLES = [['Don', 'setup.don'], ['Mafia', 'setup.mafia'], ['Maniac', 'setup.maniac'],
  ['Detective', 'setup.detective'], ['Doctor', 'setup.doctor'], ['Citizens', 'setup.citizen']];

/** setupSentence tells a setup as Printer.Setup does ("7 players at the
 * table: 1 don, 1 mafioso, ..."). */
export function setupSentence(s) {
  const items = [];
  let n = 0;
  for (const [k, id] of ROLES) {
    const c = s[k] || 0;
    n += c;
    if (c > 0) items.push(tn(id, c));
  }
  return tn('setup.table', n, { Count: n, List: andList(items) });
}

/** lobbyScreen returns the home screen. */
export function lobbyScreen({ boot, navigate }) {
  const el = h('div', { class: 'screen lobby' });
  const tablesPart = h('section', { class: 'part tables', id: 'l-tables', 'aria-labelledby': 'tables-h' });
  const createPart = h('section', { class: 'part create', id: 'l-create', 'aria-labelledby': 'create-h' });
  const invitePart = h('section', { class: 'part invite', id: 'l-invite', 'aria-labelledby': 'invite-h' });
  const livePart = h('section', { class: 'part live', id: 'l-live', 'aria-labelledby': 'live-h' });
  const quickPart = h('section', { class: 'part quick', id: 'l-quick', 'aria-labelledby': 'quick-h' });
  // A quick game, the open tables, then the games to watch, then a new table.
  el.append(quickPart, tablesPart, livePart, createPart, invitePart);
  let quickError = '';

  const presets = boot.presets;
  const counts = Object.keys(presets).map(Number).sort((a, b) => a - b);
  // The form's values, kept across re-renders (a language switch).
  const form = {
    table: '', name: localStorage.getItem('mafia.name') || '', mode: 'preset', players: counts[counts.length - 1],
    custom: { ...presets[counts[counts.length - 1]] }, options: {}, timings: {}, public: true,
    bots: boot.bots[0], pace: boot.paces[0], standIn: boot.stand_in_ms / 1000, rated: false,
  };
  for (const o of boot.options) form.options[o.name] = o.default;
  for (const k of TIMINGS) if (k in boot.timings_ms) form.timings[k] = boot.timings_ms[k] / 1000;
  let tables = null;
  let listError = '';
  let formError = '';
  let busy = false;
  let invite = '';
  let inviteError = '';

  function collect() {
    const q = (sel) => createPart.querySelector(sel);
    if (!q('#create-name')) return;
    form.table = q('#create-name').value;
    form.name = q('#your-name').value;
    form.mode = q('input[name=mode]:checked') ? q('input[name=mode]:checked').value : form.mode;
    form.players = Number(q('#players').value);
    for (const [k] of ROLES) form.custom[k] = Number(q(`#count-${k}`).value) || 0;
    for (const o of boot.options) form.options[o.name] = q(`#opt-${o.name}`).value;
    for (const k of Object.keys(form.timings)) form.timings[k] = Number(q(`#time-${k}`).value);
    form.public = q('#public').checked;
    form.bots = q('#bots').value;
    form.pace = q('#pace').value;
    form.standIn = Number(q('#stand-in').value);
    form.rated = !!(q('#rated') && q('#rated').checked);
    form.optsOpen = q('#more-opts').open;
    form.timesOpen = q('#more-times').open;
    const inv = invitePart.querySelector('#invite');
    if (inv) invite = inv.value;
  }

  function summary() {
    const s = form.mode === 'preset' ? presets[form.players] : form.custom;
    return setupSentence(s);
  }

  function drawCreate() {
    const field = (id, label, input, hint) => h('div', { class: 'field' }, h('label', { for: id }, label), input,
      hint ? h('p', { class: 'hint' }, hint) : null);
    const presetSelect = h('select', { id: 'players', key: 'players', disabled: form.mode !== 'preset', on: { change: changed } },
      counts.map((n) => h('option', { value: n, selected: n === form.players }, tn('web.create.players_n', n))));
    const custom = h('div', { class: 'grid3', hidden: form.mode !== 'custom' }, ROLES.map(([k]) =>
      field(`count-${k}`, t(`web.create.count.${k}`), h('input', {
        id: `count-${k}`, key: `count-${k}`, type: 'number', min: 0, max: boot.seats[1], inputmode: 'numeric',
        value: form.custom[k], on: { input: changed },
      }))));
    const options = boot.options.map((o) => {
      const id = `opt-${o.name}`;
      if (!o.values) {
        return field(id, t(`web.option.${o.name}`), h('input', {
          id, key: id, type: 'number', min: o.min || 0, max: o.max, inputmode: 'numeric', value: form.options[o.name],
        }), t(`web.option_help.${o.name}`, { Default: o.default, Max: o.max }));
      }
      return field(id, t(`web.option.${o.name}`), h('select', { id, key: id },
        o.values.map((v) => h('option', { value: v, selected: v === form.options[o.name] },
          v === o.default ? t('web.create.default', { Value: t(`web.value.${o.name}_${v}`) }) : t(`web.value.${o.name}_${v}`)))));
    });
    const timings = Object.keys(form.timings).map((k) => field(`time-${k}`, t(`web.timing.${k}`), h('input', {
      id: `time-${k}`, key: `time-${k}`, type: 'number', min: 0.1, max: 3600, step: 0.1, inputmode: 'decimal', value: form.timings[k],
    })));
    const bots = h('div', { class: 'grid2' },
      field('bots', t('web.create.bots'), h('select', { id: 'bots', key: 'bots' },
        boot.bots.map((l) => h('option', { value: l, selected: l === form.bots }, t(`web.bots.${l}`)))), t('web.create.bots_hint')),
      field('pace', t('web.create.pace'), h('select', { id: 'pace', key: 'pace' },
        boot.paces.map((p) => h('option', { value: p, selected: p === form.pace }, t(`web.pace.${p}`))))),
      field('stand-in', t('web.create.stand_in'), h('input', {
        id: 'stand-in', key: 'stand-in', type: 'number', min: 0, max: 600, step: 1, inputmode: 'numeric', value: form.standIn,
      })));
    patch(createPart,
      h('h2', { id: 'create-h' }, t('web.create.heading')),
      h('form', { id: 'create-form', novalidate: true, on: { submit: (ev) => { ev.preventDefault(); create(); } } },
        field('your-name', t('web.create.your_name'), h('input', {
          id: 'your-name', key: 'your-name', type: 'text', maxlength: 32, autocomplete: 'nickname', value: form.name, required: true,
          on: { input: (ev) => {
            // one name for both panels
            form.name = ev.target.value;
            const f = quickPart.querySelector('#quick-name');
            if (f) f.value = quickName();
          } },
        })),
        field('create-name', t('web.create.name'), h('input', {
          id: 'create-name', key: 'create-name', type: 'text', maxlength: 64, value: form.table,
          placeholder: form.name.trim() ? t('web.create.default_name_of', { Name: form.name.trim() }) : t('web.create.default_name'),
        })),
        h('fieldset', {},
          h('legend', {}, t('web.create.setup')),
          h('div', { class: 'row wrap' },
            h('label', { class: 'check' }, h('input', { type: 'radio', name: 'mode', value: 'preset', key: 'mode-preset', checked: form.mode === 'preset', on: { change: changed } }), ' ', t('web.create.preset')),
            h('label', { class: 'check' }, h('input', { type: 'radio', name: 'mode', value: 'custom', key: 'mode-custom', checked: form.mode === 'custom', on: { change: changed } }), ' ', t('web.create.custom'))),
          h('div', { hidden: form.mode !== 'preset' }, field('players', t('web.create.players'), presetSelect)),
          custom,
          h('p', { class: 'summary', id: 'setup-summary', 'aria-live': 'polite' }, summary())),
        bots,
        h('details', { class: 'more', id: 'more-opts', open: form.optsOpen }, h('summary', { key: 'opts' }, t('web.create.options')), h('div', { class: 'grid2' }, options)),
        h('details', { class: 'more', id: 'more-times', open: form.timesOpen }, h('summary', { key: 'times' }, t('web.create.timings')), h('div', { class: 'grid3' }, timings)),
        h('label', { class: 'check' }, h('input', { type: 'checkbox', id: 'public', key: 'public', checked: form.public }), ' ', t('web.create.public')),
        // A rated table (docs/ratings.md): accounts and bot accounts only.
        ratedField(),
        formError ? h('p', { class: 'error', role: 'alert', id: 'create-error' }, formError) : null,
        h('button', { type: 'submit', class: 'primary', id: 'create', key: 'create', disabled: busy }, t('web.create.submit'))));
  }

  // ratedField is the "Rated" box: a guest is told to log in first (the
  // host sits as an account); checked, it says who fills the seats, since
  // the server's bots fill none of a rated table's (docs/ratings.md).
  function ratedField() {
    if (!boot.accounts) return null;
    const isGuest = account() === null;
    if (isGuest) form.rated = false;
    return h('div', { class: 'field rated-field' },
      h('label', { class: 'check' }, h('input', {
        type: 'checkbox', id: 'rated', key: 'rated', checked: form.rated, disabled: isGuest, on: { change: changed },
      }), ' ', t('web.rated.option')),
      isGuest ? h('p', { class: 'hint', id: 'rated-guest-hint' }, h('a', {
        href: '/account', id: 'rated-login-link', key: 'rated-login-link',
        on: { click: (ev) => { ev.preventDefault(); navigate('/account'); } },
      }, t('web.rated_seat.create_guest'))) : null,
      form.rated ? h('p', { class: 'hint', id: 'rated-hint' }, t('web.rated_seat.create_hint')) : null);
  }

  function changed() {
    collect();
    drawCreate();
  }

  async function create() {
    collect();
    // A player logged in sits under the account's name whatever is typed.
    const name = form.name.trim() || (account() ? account().name : '');
    if (!name) {
      formError = t('error.name_required');
      drawCreate();
      return;
    }
    localStorage.setItem('mafia.name', name);
    const req = {
      // An unnamed table is called by its host's name.
      name: form.table.trim() || t('web.create.default_name_of', { Name: name }),
      public: form.public,
      options: Object.fromEntries(Object.entries(form.options).map(([k, v]) => [k, String(v)])),
      timings_ms: Object.fromEntries(Object.entries(form.timings).map(([k, s]) => [k, Math.round(s * 1000)])),
      bots: form.bots,
      pace: form.pace,
      stand_in_ms: Math.round(form.standIn * 1000),
    };
    if (form.rated) req.rated = true;
    if (form.mode === 'preset') req.players = form.players;
    // The request's keys are lower case (the API reads keys exactly).
    else req.setup = Object.fromEntries(ROLES.map(([k]) => [k.toLowerCase(), form.custom[k] || 0]));
    busy = true;
    formError = '';
    drawCreate();
    try {
      const made = await api.create(req);
      try {
        await api.join(made.table, name);
      } catch {
        // The table page offers the seat again.
      }
      navigate(made.invite);
    } catch (e) {
      formError = e.message;
      busy = false;
      drawCreate();
    }
  }

  function row(l, action) {
    const taken = (l.seats || []).filter((s) => s.taken).length;
    const people = (l.seats || []).filter((s) => s.taken && !s.bot).length;
    return h('li', { class: `table-row s-${l.status}`, 'data-table': l.table },
      h('a', {
        href: `/t/${l.table}`, key: `tbl-${l.table}`,
        on: { click: (ev) => { ev.preventDefault(); navigate(`/t/${l.table}`); } },
      }, l.name),
      l.rated ? h('span', { class: 'badge rated' }, t('web.rated.badge')) : null,
      // A guest may watch a rated table, not sit at it.
      h('span', { class: 'status' }, l.rated && l.status === 'lobby' && guest() ? t('web.rated_seat.lobby_row_guest') : action),
      h('span', { class: 'count' }, l.status === 'lobby'
        ? tn('web.pre.taken', l.players, { Taken: taken, Count: l.players })
        : tn('web.lobby.people', people, { Count: people, Players: l.players })));
  }

  // guest is true when accounts are on and nobody is logged in here.
  const guest = () => boot.accounts && account() === null;

  function drawTables() {
    const open = (tables || []).filter((l) => l.status === 'lobby');
    const live = (tables || []).filter((l) => l.status === 'playing');
    patch(tablesPart,
      h('h2', { id: 'tables-h' }, t('web.lobby.tables')),
      listError ? h('p', { class: 'error' }, listError) : null,
      guest() && open.some((l) => l.rated) ? h('p', { class: 'hint', id: 'rated-lobby-guest' }, t('web.rated_seat.lobby_guest')) : null,
      tables === null ? h('p', { class: 'note' }, t('web.loading'))
        : open.length ? h('ul', { class: 'tables-list', id: 'tables' }, open.map((l) => row(l, t('web.lobby.join'))))
          : h('p', { class: 'note' }, t('web.lobby.none')),
      h('button', { type: 'button', class: 'secondary', key: 'refresh', on: { click: load } }, t('web.lobby.refresh')),
      // The leaderboards (leaderboard.js), where accounts are.
      boot.accounts ? h('a', {
        href: '/ratings', class: 'button secondary', id: 'to-ratings', key: 'to-ratings',
        on: { click: (ev) => { ev.preventDefault(); navigate('/ratings'); } },
      }, t('web.rated.leaderboard')) : null);
    patch(livePart,
      h('h2', { id: 'live-h' }, t('web.lobby.live')),
      tables === null ? null
        : live.length ? h('ul', { class: 'tables-list', id: 'live-tables' }, live.map((l) => row(l, t('web.lobby.watch'))))
          : h('p', { class: 'note' }, t('web.lobby.live_none')));
  }

  // The Quick panel has the player's name in it, a guest's name by
  // default (changeable): one tap plays. The name is the create form's too.
  const guestN = String(100 + Math.floor(Math.random() * 900));
  const quickName = () => form.name.trim() || t('web.lobby.guest_name', { N: guestN });
  function drawQuick() {
    patch(quickPart,
      h('h2', { id: 'quick-h' }, t('web.lobby.quick')),
      h('p', { class: 'hint' }, t('web.lobby.quick_hint')),
      quickError ? h('p', { class: 'error', role: 'alert', id: 'quick-error' }, quickError) : null,
      h('form', { class: 'row quick-row', on: { submit: (ev) => { ev.preventDefault(); quick(); } } },
        h('label', { for: 'quick-name', class: 'vh' }, t('web.create.your_name')),
        h('input', {
          id: 'quick-name', key: 'quick-name', type: 'text', maxlength: 32, autocomplete: 'nickname', value: quickName(),
          'aria-label': t('web.create.your_name'),
          on: { input: (ev) => {
            form.name = ev.target.value;
            const f = createPart.querySelector('#your-name');
            if (f) f.value = form.name;
          } },
        }),
        h('button', { type: 'submit', class: 'primary', id: 'quick', key: 'quick', disabled: busy }, t('web.lobby.quick'))));
  }

  // quick makes an 11-player table of bots around the player, who is its
  // host; the table's page fills it and starts it (mafia.quick.{id}).
  async function quick() {
    collect();
    const f = quickPart.querySelector('#quick-name');
    const name = (f && f.value.trim()) || quickName();
    form.name = name;
    localStorage.setItem('mafia.name', name);
    busy = true;
    quickError = '';
    drawQuick();
    try {
      const made = await api.create({ name: t('web.create.default_name_of', { Name: name }), players: 11, public: true, bots: boot.bots[0] });
      await api.join(made.table, name);
      sessionStorage.setItem(`mafia.quick.${made.table}`, '1');
      navigate(made.invite);
    } catch (e) {
      quickError = e.message;
      busy = false;
      drawQuick();
    }
  }

  function drawInvite() {
    patch(invitePart,
      h('h2', { id: 'invite-h' }, t('web.lobby.invite_heading')),
      h('form', { class: 'row', on: { submit: (ev) => { ev.preventDefault(); go(); } } },
        h('label', { for: 'invite', class: 'vh' }, t('web.lobby.invite_label')),
        h('input', { id: 'invite', key: 'invite', type: 'text', value: invite, placeholder: t('web.lobby.invite_label') }),
        h('button', { type: 'submit', key: 'go' }, t('web.lobby.go'))),
      inviteError ? h('p', { class: 'error', role: 'alert' }, inviteError) : null,
      // The host's assistant for a game at a real table (package assist).
      h('h2', { id: 'inperson-h' }, t('web.lobby.in_person_heading')),
      h('p', { class: 'note' }, t('web.lobby.in_person_note')),
      h('p', {}, h('a', { class: 'button secondary', id: 'host-in-person', href: '/host/' }, t('web.lobby.in_person'))));
  }

  function go() {
    invite = invitePart.querySelector('#invite').value.trim();
    const m = invite.match(/(?:\/t\/)?([0-9a-f]{8,64})\/?$/i);
    if (!m) {
      inviteError = t('web.lobby.bad_invite');
      drawInvite();
      return;
    }
    navigate(`/t/${m[1].toLowerCase()}`);
  }

  async function load() {
    try {
      const r = await api.tables();
      tables = r.tables || [];
      listError = '';
    } catch (e) {
      listError = e.message;
    }
    drawTables();
  }

  load();
  const poll = setInterval(load, 5000);
  const offAccount = onChange(() => { collect(); drawCreate(); drawTables(); });
  drawQuick();
  drawCreate();
  drawTables();
  drawInvite();
  document.title = t('web.title');
  return {
    el,
    render: () => { collect(); drawQuick(); drawCreate(); drawTables(); drawInvite(); document.title = t('web.title'); },
    destroy: () => { clearInterval(poll); offAccount(); },
  };
}
