// The host's assistant: loads the engine, draws the header (language, the
// sync light), and routes between the home screen, the setup and a game.

import * as E from './engine.js';
import * as I from './i18n.js';
import * as storage from './storage.js';
import { h } from './dom.js';
import { clearToast, toast } from './ui.js';
import { homeScreen } from './home.js';
import { setupScreen, tournamentSetup } from './setup.js';
import { Game } from './game.js';
import { joinScreen } from './handoff.js';
import { unlockAudio } from './timer.js';
import { keepOnPhone } from './offline.js';
import { clubScreen } from './club_admin.js';
import { followScreen, stopFollowing } from './follow.js';

let game = null;
let lastWaiting = -1;

// The host's language is kept on this phone under this key.
const LANG_KEY = 'assist.lang';

/** Speaks l, its sentences rendered by the engine module (on the phone,
 * with no server), and remembers it on this phone. */
function setLang(l) {
  const spoken = E.speak(l);
  I.speak(spoken, E.sentences);
  I.remember(LANG_KEY, spoken);
}

function header() {
  const sel = h('select', { class: 'lang', 'aria-label': 'language', dataset: { t: 'lang' },
    onchange: (e) => { setLang(e.target.value); shell(); route(); } },
  I.LANGS.map((l) => h('option', { value: l, lang: l, selected: l === I.current() }, I.t(`assist.language.${l}`))));
  return h('header', { class: 'top' },
    h('a', { class: 'brand', href: '#/' }, I.t('assist.title')),
    h('span', { id: 'sync', class: 'sync', dataset: { t: 'sync' } }),
    sel);
}

function shell() {
  document.title = I.t('assist.title');
  document.getElementById('app').replaceChildren(header(), h('main', { id: 'screen', class: 'screen' }));
}

/** Shows the sync light: everything sent, sending, or waiting offline. */
function status(g) {
  const el = document.getElementById('sync');
  if (!el) return;
  const s = g.syncer;
  const waiting = s.waiting();
  el.dataset.state = s.status;
  el.dataset.waiting = String(waiting);
  const entries = waiting - (g.rec.create ? 1 : 0);
  if (s.status === 'error') el.textContent = (s.error && s.error.message) || I.t('assist.sync.error');
  else if (waiting === 0) el.textContent = I.t('assist.sync.saved');
  else if (g.rec.create && s.status === 'offline') {
    el.textContent = entries ? I.tn('assist.offline.game_and_entries', entries, { Count: entries }) : I.t('assist.offline.game_waits');
  } else if (g.rec.create) el.textContent = I.t('assist.offline.sending_game');
  else if (s.status === 'offline') el.textContent = I.tn('assist.sync.offline', waiting, { Count: waiting });
  else el.textContent = I.tn('assist.sync.sending', waiting, { Count: waiting });
  el.className = `sync ${s.status} ${waiting ? 'waiting' : 'done'}`;
  if (g.state.phase === 'ended' && lastWaiting > 0 && waiting === 0 && !g.rec.ui.announce) {
    lastWaiting = waiting;
    g.render();
  }
  lastWaiting = waiting;
}

// A sentence to show on the next screen (a game made on this phone).
let noteAfterRoute = null;
// Counts the routes: a game read from storage is shown only if no other
// route began meanwhile.
let routes = 0;

async function route() {
  const mine = ++routes;
  clearToast();
  if (noteAfterRoute) { toast(noteAfterRoute); noteAfterRoute = null; }
  const hash = location.hash || '#/';
  const m = hash.match(/^#\/game\/([0-9a-f]+)$/);
  if (!m && game) { game.close(); game = null; window.__assistGame = null; }
  const sync = document.getElementById('sync');
  if (sync && !m) { sync.textContent = ''; sync.className = 'sync'; }
  const follow = hash.match(/^#\/follow\/([0-9a-f]+)(?:\/([0-9a-f]+))?$/); // a referee's invitation (follow.js)
  if (follow) { followScreen(follow[1], follow[2]); return; }
  stopFollowing();
  const join = hash.match(/^#\/join\/([0-9a-f]+)\/([0-9a-f]+)$/); // another phone's hand-off link
  if (join) { joinScreen(join[1], join[2]); return; }
  if (m) {
    if (!game || game.rec.id !== m[1]) {
      if (game) { game.close(); game = null; window.__assistGame = null; }
      const rec = await storage.get(m[1]);
      if (mine !== routes) return;
      if (!rec) { location.hash = '#/'; return; }
      game = new Game(rec, status);
      window.__assistGame = game; // for tests and debugging
    }
    game.render();
    return;
  }
  if (hash === '#/club') {
    clubScreen();
    return;
  }
  const tq = hash.match(/^#\/new\?(.*)$/); // a tournament's table (setup.js, tournamentSetup)
  if (tq) { tournamentSetup(new URLSearchParams(tq[1])); return; }
  if (hash === '#/new') {
    setupScreen((rec, note) => { noteAfterRoute = note || null; location.hash = `#/game/${rec.id}`; });
    return;
  }
  homeScreen(() => mine === routes);
}

/**
 * The start-up failure screen: a sentence of the catalogs (the engine did
 * not load: the page's own, rendered by the server; the phone keeps no
 * games: the engine's) and a reload button. The raw error goes to the
 * console only.
 */
function failed(sentence, err) {
  const boot = document.getElementById('boot');
  if (err) console.warn('assist: start-up failed:', err);
  document.getElementById('app').replaceChildren(
    h('section', { class: 'boot failed', dataset: { t: 'boot-failed' } },
      h('p', { class: 'error' }, sentence),
      h('button', { type: 'button', class: 'btn primary', dataset: { t: 'reload' }, onclick: () => location.reload() },
        boot.dataset.reload)));
}

async function boot() {
  try {
    await E.load(document.body.dataset.version);
  } catch (err) {
    failed(document.getElementById('boot').dataset.failed, err);
    return;
  }
  setLang(I.choose(LANG_KEY));
  try {
    await storage.open();
  } catch (err) {
    failed(I.t('assist.storage.unavailable'), err);
    return;
  }
  shell();
  window.addEventListener('hashchange', route);
  document.addEventListener('pointerdown', unlockAudio, { once: true });
  await route();
  window.__assistReady = true; // the first screen is drawn (for tests)
  keepOnPhone();
}

boot();
