// ratedseat.js: a seat at a rated table (docs/ratings.md#rated-tables),
// which only an account may take. A guest is told why and offered to log
// in or sign up right there: the form opens in place, and once it is sent
// the page takes the seat for the account, on the same table. A player
// logged in takes it with one tap, under the account's name.

import { h, keep } from './dom.js';
import { t } from './i18n.js';
import { account, enter } from './account.js';

/** makeRatedSeat builds the in-place log-in form once, so that what a
 * player types survives every re-render of the table. sit(name) takes the
 * seat once the account is logged in. */
export function makeRatedSeat(sit) {
  const rs = { mode: '', error: '', busy: false };
  const name = h('input', {
    id: 'rated-name', key: 'rated-name', type: 'text', autocomplete: 'username', spellcheck: 'false', autocapitalize: 'none', required: true,
    value: localStorage.getItem('mafia.name') || '',
  });
  const password = h('input', { id: 'rated-password', key: 'rated-password', type: 'password', required: true });
  const nameLabel = h('label', { for: 'rated-name' });
  const passwordLabel = h('label', { for: 'rated-password' });
  const rules = h('p', { class: 'hint' });
  const error = h('p', { class: 'error', role: 'alert', id: 'rated-error' });
  const submit = h('button', { type: 'submit', class: 'primary', id: 'rated-submit' });
  const other = h('button', {
    type: 'button', class: 'secondary', id: 'rated-switch',
    on: { click: () => { rs.mode = rs.mode === 'signup' ? 'login' : 'signup'; rs.error = ''; rs.redraw(); } },
  });
  rs.form = h('form', {
    class: 'rated-auth', id: 'rated-form',
    on: {
      submit: async (ev) => {
        ev.preventDefault();
        if (rs.busy) return;
        rs.busy = true;
        rs.error = '';
        rs.redraw();
        try {
          const a = await enter(rs.mode, name.value, password.value);
          password.value = '';
          rs.mode = '';
          await sit(a.name);
        } catch (e) {
          rs.error = e.message;
        }
        rs.busy = false;
        rs.redraw();
      },
    },
  },
  h('div', { class: 'field' }, nameLabel, name),
  h('div', { class: 'field' }, passwordLabel, password),
  rules, error, h('div', { class: 'row wrap' }, submit, other));
  keep(rs.form);
  // fill sets the form's words for its mode and language.
  rs.fill = () => {
    const signup = rs.mode === 'signup';
    nameLabel.textContent = t('web.account.name');
    passwordLabel.textContent = t('web.account.password');
    password.autocomplete = signup ? 'new-password' : 'current-password';
    rules.textContent = t('web.account.rules');
    rules.hidden = !signup;
    error.textContent = rs.error;
    error.hidden = !rs.error;
    submit.textContent = t(signup ? 'web.account.signup' : 'web.account.login');
    submit.disabled = rs.busy;
    other.textContent = t(signup ? 'web.account.have_one' : 'web.account.new_one');
  };
  rs.redraw = () => {};
  return rs;
}

/** renderRatedSeat returns what a player not seated at a rated table is
 * offered: a guest the reason and the two ways in (the form in place once
 * one is chosen), a player logged in the seat under their account's name. */
export function renderRatedSeat(st, ctx, rs, full) {
  rs.redraw = ctx.redraw;
  const a = account();
  if (a === undefined) return [h('p', { class: 'note' }, '…')];
  if (a) {
    if (full) return [h('p', { class: 'note' }, t('error.table_full'))];
    return [h('button', {
      type: 'button', class: 'primary', id: 'rated-sit', key: 'rated-sit', disabled: st.busy,
      on: { click: () => ctx.sit(a.name) },
    }, t('web.rated_seat.sit_as', { Name: a.name }))];
  }
  const out = [h('p', { class: 'note', id: 'rated-guest' }, t('web.rated_seat.guest_note'))];
  if (full) return out;
  if (!rs.mode) {
    out.push(h('div', { class: 'row wrap' },
      h('button', {
        type: 'button', class: 'primary', id: 'rated-login', key: 'rated-login',
        on: { click: () => { rs.mode = 'login'; ctx.redraw(); } },
      }, t('web.rated_seat.login')),
      h('button', {
        type: 'button', class: 'secondary', id: 'rated-signup', key: 'rated-signup',
        on: { click: () => { rs.mode = 'signup'; ctx.redraw(); } },
      }, t('web.rated_seat.signup'))));
    return out;
  }
  out.push(h('h3', { id: 'rated-form-h' }, t(rs.mode === 'signup' ? 'web.rated_seat.signup' : 'web.rated_seat.login')));
  rs.fill();
  out.push(rs.form);
  return out;
}
