// account.js: the player's account (package account, /api/account/): who
// is logged in, the screen to sign up or log in, and, logged in, to change
// the password and log out here or everywhere; the game-over screen's offer
// to sign up and keep the game. The login itself is an HttpOnly cookie the
// page never reads: it asks the server who it is (me).

import { h, patch } from './dom.js';
import { t } from './i18n.js';
import { call } from './api.js';

// who is the account logged in here: undefined until asked, null for none.
let who;
const listeners = new Set();

function set(a) {
  who = a;
  if (a) localStorage.setItem('mafia.account.known', '1');
  for (const fn of listeners) fn(who);
}

/** me returns the account logged in here (null for none), asking the
 * server once. */
export async function me() {
  if (who !== undefined) return who;
  try {
    set((await call('GET', '/api/account/me')).account);
  } catch {
    set(null);
  }
  return who;
}

/** current is the account as last known (undefined before me answers). */
export function account() { return who; }

/** onChange calls fn whenever the account changes (log in, log out). */
export function onChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

export const accountApi = {
  signup: (name, password, keep) => call('POST', '/api/account/signup', keep ? { name, password, keep: { table: keep } } : { name, password }),
  login: (name, password, keep) => call('POST', '/api/account/login', { name, password }).then(async (r) => {
    // Logging in from a game's end keeps that game too.
    if (keep) await call('POST', '/api/account/keep', { table: keep }).catch(() => null);
    return r;
  }),
  logout: () => call('POST', '/api/account/logout'),
  logoutAll: () => call('POST', '/api/account/logout-all'),
  password: (old, neu) => call('POST', '/api/account/password', { old, new: neu }),
  player: (name) => call('GET', `/api/players/${encodeURIComponent(name)}`),
  bots: () => call('GET', '/api/account/bots'),
  createBot: (name) => call('POST', '/api/account/bots', { name }),
  rotateBot: (name) => call('POST', `/api/account/bots/${encodeURIComponent(name)}/token`),
};

/** enter signs up (mode 'signup') or logs in with name and password, and
 * makes that account the one logged in here; it returns the account. */
export async function enter(mode, name, password, keep) {
  const r = mode === 'signup' ? await accountApi.signup(name, password, keep) : await accountApi.login(name, password, keep);
  set(r.account);
  return r.account;
}

/** keepOffer is the game-over screen's line for a guest: sign up (or log
 * in) and keep this game on one's page. Null for a logged-in player. Its
 * link is followed by the table screen's listener (data-nav: table.js). */
export function keepOffer(table) {
  if (who) return null;
  const path = `/account?keep=${encodeURIComponent(table)}`;
  return h('p', { class: 'keep-offer', id: 'keep-offer' }, h('a', {
    class: 'button secondary', id: 'keep-game', href: path, key: 'keep-game', 'data-nav': true,
  }, t('web.account.keep')));
}

/** accountScreen is /account: sign up or log in; logged in, the account's
 * settings. With ?keep={table}, signing up or logging in keeps that
 * finished game's seat (its token is the table's cookie). */
export function accountScreen({ navigate }) {
  const el = h('div', { class: 'screen account' });
  const part = h('section', { class: 'part', id: 'account', 'aria-labelledby': 'account-h' });
  el.append(part);
  const keep = new URLSearchParams(location.search).get('keep') || '';
  // A device that has had an account here opens on Log in (after logging
  // out, say); a new one on Sign up.
  const form = { mode: localStorage.getItem('mafia.account.known') ? 'login' : 'signup', name: localStorage.getItem('mafia.name') || '', password: '', old: '', neu: '', bot: '' };
  // The account's bots, and the token last made (shown once).
  let bots = null;
  let botsAsked = 0; // the bots' lists asked for, the newest the page's
  let shown = null;
  let error = '';
  let done = '';
  let busy = false;

  const input = (id, label, type, field, autocomplete) => h('div', { class: 'field' },
    h('label', { for: id }, label),
    h('input', {
      id, key: id, type, value: form[field], autocomplete, required: true, spellcheck: 'false', autocapitalize: 'none',
      on: { input: (ev) => { form[field] = ev.target.value; } },
    }));

  async function run(fn) {
    if (busy) return;
    collect();
    busy = true;
    error = '';
    done = '';
    draw();
    try {
      await fn();
    } catch (e) {
      error = e.message;
    }
    busy = false;
    draw();
  }

  // collect reads the form's fields (a browser's autofill fires no input
  // event).
  function collect() {
    for (const [id, field] of [['acct-name', 'name'], ['acct-password', 'password'], ['old-password', 'old'], ['new-password', 'neu'], ['bot-name', 'bot']]) {
      const el = part.querySelector(`#${id}`);
      if (el) form[field] = el.value;
    }
  }

  function submit() {
    collect();
    run(async () => {
      const a = await enter(form.mode, form.name, form.password, keep);
      form.password = '';
      navigate(`/players/${encodeURIComponent(a.name)}`);
    });
  }

  function draw() {
    if (who === undefined) {
      patch(part, h('p', { class: 'note' }, '…'));
      return;
    }
    if (!who) {
      const signup = form.mode === 'signup';
      patch(part,
        h('h2', { id: 'account-h' }, t(signup ? 'web.account.signup' : 'web.account.login')),
        keep ? h('p', { class: 'note', id: 'keep-note' }, t('web.account.keep_note')) : null,
        h('form', { id: 'account-form', on: { submit: (ev) => { ev.preventDefault(); submit(); } } },
          input('acct-name', t('web.account.name'), 'text', 'name', 'username'),
          input('acct-password', t('web.account.password'), 'password', 'password', signup ? 'new-password' : 'current-password'),
          signup ? h('p', { class: 'hint' }, t('web.account.rules')) : null,
          error ? h('p', { class: 'error', role: 'alert', id: 'account-error' }, error) : null,
          h('div', { class: 'row wrap' },
            h('button', { type: 'submit', class: 'primary', id: 'account-submit', key: 'submit', disabled: busy },
              t(signup ? 'web.account.signup' : 'web.account.login')),
            h('button', {
              type: 'button', class: 'secondary', id: 'account-switch', key: 'switch',
              on: { click: () => { form.mode = signup ? 'login' : 'signup'; error = ''; draw(); } },
            }, t(signup ? 'web.account.have_one' : 'web.account.new_one')))));
      return;
    }
    const mine = `/players/${encodeURIComponent(who.name)}`;
    patch(part,
      h('h2', { id: 'account-h' }, t('web.account.heading', { Name: who.name })),
      h('p', {}, h('a', {
        class: 'button secondary', id: 'my-page', href: mine, on: { click: (ev) => { ev.preventDefault(); navigate(mine); } },
      }, t('web.account.my_page'))),
      h('h3', {}, t('web.account.change_password')),
      h('form', {
        id: 'password-form',
        on: {
          submit: (ev) => {
            ev.preventDefault();
            collect();
            run(async () => {
              try {
                await accountApi.password(form.old, form.neu);
              } catch (e) {
                // the current password is wrong: say so, not "wrong name or password"
                if (e.code === 'bad_login') throw new Error(t('web.account.wrong_current'));
                throw e;
              }
              form.old = '';
              form.neu = '';
              done = t('web.account.password_changed');
            });
          },
        },
      },
      input('old-password', t('web.account.old_password'), 'password', 'old', 'current-password'),
      input('new-password', t('web.account.new_password'), 'password', 'neu', 'new-password'),
      h('button', { type: 'submit', id: 'password-submit', key: 'password-submit', disabled: busy, 'aria-busy': busy ? 'true' : null },
        t(busy ? 'web.account.working' : 'web.account.change_password'))),
      busy ? h('p', { class: 'note', role: 'status', id: 'account-busy' }, t('web.account.working')) : null,
      error ? h('p', { class: 'error', role: 'alert', id: 'account-error' }, error) : null,
      done ? h('p', { class: 'note', role: 'status', id: 'account-done' }, done) : null,
      h('div', { class: 'row wrap' },
        h('button', {
          type: 'button', id: 'logout', key: 'logout', disabled: busy,
          on: { click: () => run(async () => { await accountApi.logout(); set(null); bots = null; shown = null; form.mode = 'login'; }) },
        }, t('web.account.logout')),
        h('button', {
          type: 'button', id: 'logout-all', key: 'logout-all', disabled: busy,
          on: { click: () => run(async () => { await accountApi.logoutAll(); set(null); bots = null; shown = null; form.mode = 'login'; }) },
        }, t('web.account.logout_all'))),
      h('p', { class: 'hint' }, t('web.account.logout_all_hint')),
      drawBots());
  }

  // drawBots is the account's bots: each with a new token on demand, and a
  // form for another; a token made is shown once, to copy.
  function drawBots() {
    if (bots === null) {
      bots = [];
      const ask = ++botsAsked;
      // A bot made before the list arrives stays listed. A list that
      // arrives after a logout (bots null again, or asked again for the
      // next account) is no longer the page's: it is dropped (it threw
      // on the null list).
      accountApi.bots().then((r) => {
        if (ask !== botsAsked || bots === null) return;
        const made = bots.filter((b) => !r.bots.some((x) => x.name === b.name));
        bots = [...r.bots, ...made];
        draw();
      }, () => {});
    }
    return h('section', { id: 'bots', 'aria-labelledby': 'bots-h' },
      h('h3', { id: 'bots-h' }, t('web.account.bots')),
      h('p', { class: 'hint' }, t('web.account.bots_hint')),
      bots.length ? h('ul', { class: 'bots', id: 'bot-list' }, bots.map((b) => h('li', { 'data-bot': b.name },
        h('span', { class: 'name' }, b.name), ' ',
        h('button', {
          type: 'button', class: 'small', key: `rotate-${b.name}`, disabled: busy,
          on: { click: () => run(async () => { const r = await accountApi.rotateBot(b.name); shown = r; }) },
        }, t('web.account.new_token'))))) : null,
      shown ? h('div', { class: 'field', id: 'bot-token' },
        h('label', { for: 'bot-token-value' }, t('web.account.token_once', { Name: shown.bot.name })),
        h('input', { id: 'bot-token-value', type: 'text', readonly: true, value: shown.token, spellcheck: 'false' })) : null,
      h('form', {
        class: 'row', id: 'bot-form',
        on: {
          submit: (ev) => {
            ev.preventDefault();
            collect();
            run(async () => {
              const r = await accountApi.createBot(form.bot);
              shown = r;
              form.bot = '';
              bots = [...bots, r.bot];
            });
          },
        },
      },
      h('label', { for: 'bot-name', class: 'vh' }, t('web.account.bot_name')),
      h('input', {
        id: 'bot-name', key: 'bot-name', type: 'text', value: form.bot, placeholder: t('web.account.bot_name'),
        autocapitalize: 'none', spellcheck: 'false',
        on: { input: (ev) => { form.bot = ev.target.value; } },
      }),
      h('button', { type: 'submit', id: 'bot-create', key: 'bot-create', disabled: busy }, t('web.account.create_bot'))));
  }

  draw();
  me().then(draw);
  document.title = t('web.account.title');
  return {
    el,
    render: () => { draw(); document.title = t('web.account.title'); },
    destroy: () => {},
  };
}
