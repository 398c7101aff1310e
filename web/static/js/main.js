// main.js: the page: its header (the brand, the account, how to play and
// the settings menu: language, sound, vibration), and its screens: the
// lobby at /, a table at /t/{id}, its review, the account and the players.

import { h, patch } from './dom.js';
import { t, load, choose, remember, current, LANGS } from './i18n.js';
import { lobbyScreen } from './lobby.js';
import { tableScreen } from './table.js';
import { reviewScreen } from './review.js';
import { isMuted, setMuted, vibrates, setVibrate } from './sound.js';
import { howtoDialog } from './howto.js';
import { boot } from './boot.js';
import { accountScreen, me, onChange, account } from './account.js';
import { profileScreen } from './profile.js';
import { leaderboardScreen } from './leaderboard.js';
import { installApp, appLang } from './app.js';

// The player's language is kept on this device under this key.
const LANG_KEY = 'mafia.lang';

const header = h('header', { class: 'top' });
const main = h('main', { id: 'main' });
const live = h('div', { id: 'live', class: 'vh', 'aria-live': 'polite' });
let screen = null;
const howto = howtoDialog();

function announce(text) {
  live.textContent = '';
  setTimeout(() => { live.textContent = text; }, 50);
}

function navigate(path) {
  if (path !== location.pathname) history.pushState({}, '', path);
  route();
}

function route() {
  if (screen) screen.destroy();
  const m = location.pathname.match(/^\/t\/([0-9a-zA-Z]+)\/?$/);
  // The game's review (review.js), at /t/{id}/review.
  const rv = location.pathname.match(/^\/t\/([0-9a-zA-Z]+)\/review\/?$/);
  const p = location.pathname.match(/^\/players\/([^/]+)\/?$/);
  if (rv) screen = reviewScreen(rv[1], { navigate, announce });
  else if (m) screen = tableScreen(m[1], { navigate, announce });
  else if (p) screen = profileScreen(decodeURIComponent(p[1]), { navigate });
  else if (location.pathname === '/account') screen = accountScreen({ navigate });
  else if (location.pathname === '/ratings') screen = leaderboardScreen({ navigate });
  else screen = lobbyScreen({ boot, navigate, announce });
  main.replaceChildren(screen.el);
  window.scrollTo(0, 0);
}

async function switchLang(l) {
  if (l === current()) return;
  await load(l);
  remember(LANG_KEY, l);
  appLang(l);
  live.textContent = '';
  drawHeader();
  if (screen) {
    screen.render();
    if (screen.langChanged) screen.langChanged();
  }
}

// icon is a 24x24 line drawing of path d, hidden from assistive
// technology (its button carries the words).
function icon(d) {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  const path = document.createElementNS(ns, 'path');
  path.setAttribute('d', d);
  svg.append(path);
  return svg;
}

// speakerIcon is a loudspeaker, crossed out when off.
function speakerIcon(off) {
  return icon(off
    ? 'M4 9h4l5-4v14l-5-4H4z M16 9l5 6 M21 9l-5 6'
    : 'M4 9h4l5-4v14l-5-4H4z M16.5 8.5a5 5 0 0 1 0 7 M19 6a8.5 8.5 0 0 1 0 12');
}

// vibrateIcon is a phone between two pairs of short lines.
function vibrateIcon() {
  return icon('M8 4h8v16H8z M4 8v8 M20 8v8 M1.5 10v4 M22.5 10v4');
}

// personIcon is a head and shoulders: the account's button.
function personIcon() {
  return icon('M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8z M4 21a8 8 0 0 1 16 0');
}

// accountButton opens the player's page when logged in, else the screen
// to sign up or log in.
function accountButton() {
  if (!boot.accounts) return null;
  const a = account();
  const path = a ? `/players/${encodeURIComponent(a.name)}` : '/account';
  const label = a ? t('web.account.you_are', { Name: a.name }) : t('web.account.login');
  return h('a', {
    class: `button acct${a ? ' in' : ''}`, id: 'account-link', key: 'account', href: path, 'aria-label': label, title: label,
    on: { click: (ev) => { ev.preventDefault(); navigate(path); } },
  }, personIcon());
}

// gearIcon is a cog: the settings menu's button.
function gearIcon() {
  return icon('M12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6z M12 2v3 M12 19v3 M2 12h3 M19 12h3 M4.9 4.9l2.1 2.1 M17 17l2.1 2.1 M4.9 19.1L7 17 M17 7l2.1-2.1');
}

// The settings menu holds the language, sound and vibration switches
// behind one 44 px button (a disclosure: the button says whether it is
// open, its panel follows it in the tab order), so that on a 360 px phone
// the header keeps the brand, the account, how to play and the menu.
// Escape, a tap outside it and a language chosen close it.
let settingsOpen = false;

function setSettings(open, focus) {
  if (settingsOpen === open) return;
  settingsOpen = open;
  drawHeader();
  if (focus) header.querySelector('#settings-open')?.focus();
}

document.addEventListener('click', (ev) => {
  if (settingsOpen && !(ev.target instanceof Element && ev.target.closest('.settings'))) setSettings(false, false);
});
document.addEventListener('keydown', (ev) => {
  if (settingsOpen && ev.key === 'Escape') {
    ev.preventDefault();
    setSettings(false, true);
  }
});

function settingsMenu() {
  const muted = isMuted();
  const open = settingsOpen;
  return h('div', { class: 'settings' },
    h('button', {
      type: 'button', class: 'settings-open', id: 'settings-open', key: 'settings-open',
      'aria-expanded': open ? 'true' : 'false', 'aria-controls': 'settings',
      'aria-label': t('web.settings'), title: t('web.settings'),
      on: { click: () => setSettings(!settingsOpen, false) },
    }, gearIcon(), h('span', { class: 'settings-lang', 'aria-hidden': 'true' }, t(`web.lang_short.${current()}`))),
    h('div', { class: 'settings-panel', id: 'settings', role: 'group', 'aria-label': t('web.settings'), hidden: !open },
      h('div', { class: 'langs', role: 'group', 'aria-label': t('web.lang') }, LANGS.map((l) => h('button', {
        type: 'button', class: 'lang', key: `lang-${l}`, lang: l, 'data-lang': l,
        'aria-pressed': l === current() ? 'true' : 'false',
        on: { click: async () => { settingsOpen = false; await switchLang(l); drawHeader(); header.querySelector('#settings-open')?.focus(); } },
      }, t(`web.lang_name.${l}`)))),
      h('button', {
        type: 'button', class: 'mute', id: 'mute', key: 'mute', 'aria-pressed': muted ? 'true' : 'false',
        title: t(muted ? 'web.sound_off' : 'web.sound_on'),
        on: { click: () => { setMuted(!isMuted()); drawHeader(); } },
      }, speakerIcon(muted), h('span', {}, t('web.mute'))),
      navigator.vibrate ? h('button', {
        type: 'button', class: 'buzz', id: 'vibrate', key: 'vibrate', 'aria-pressed': vibrates() ? 'true' : 'false',
        on: { click: () => { setVibrate(!vibrates()); drawHeader(); } },
      }, vibrateIcon(), h('span', {}, t('web.vibrate'))) : null));
}

function drawHeader() {
  patch(header,
    // The brand: its icon and name (app.css: on the narrowest screens the
    // icon alone).
    h('a', { class: 'brand', href: '/', key: 'home', on: { click: (ev) => { ev.preventDefault(); navigate('/'); } } },
      h('img', { class: 'brand-icon', src: new URL('../icon.svg', import.meta.url).href, alt: '', width: 26, height: 26 }),
      h('span', { class: 'brand-name' }, t('web.title'))),
    h('div', { class: 'switches' },
      accountButton(),
      h('button', {
        type: 'button', class: 'help', id: 'howto-open', key: 'howto', 'aria-label': t('web.howto.heading'), title: t('web.howto.heading'),
        on: { click: howto.open },
      }, '?'),
      settingsMenu()));
}

async function start() {
  await load(choose(LANG_KEY));
  document.body.replaceChildren(header, main, live, howto.dlg);
  drawHeader();
  if (boot.accounts) {
    onChange(drawHeader);
    me();
  }
  window.addEventListener('popstate', route);
  route();
  installApp(current());
  document.body.dataset.ready = 'true';
}

start().catch((e) => {
  document.body.textContent = String(e);
});
