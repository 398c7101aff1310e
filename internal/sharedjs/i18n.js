// i18n.js: the one language module of the browser client (web/) and the
// host's assistant (assist/). The languages the catalogs hold, the one to
// start in, the player's choice remembered, and every sentence the page
// shows from the project's catalogs (package locale): t(id, data) fills a
// message's {{.Field}}s; tn(id, n, data) picks the plural form of n, as
// go-i18n does on the server.
//
// The sentences come from a source: the JSON catalog the server serves
// (GET /api/i18n/{lang}; load, the browser client's), or one a page brings
// (speak; the assistant's engine module renders them on the phone, with no
// server).

export const LANGS = ['ka', 'en', 'ru'];

let lang = 'en';
let source = catalog({}, 'en'); // until a language is spoken: every message its id
const cache = new Map();

/** choose returns the language to start in: the choice saved on this
 * device under key, then the one the server drew the page in (<html lang>:
 * the request's language), else Georgian, the club's own. */
export function choose(key) {
  let saved = null;
  try { saved = localStorage.getItem(key); } catch (_) { /* private mode */ }
  if (LANGS.includes(saved)) return saved;
  const drawn = document.documentElement.lang;
  if (LANGS.includes(drawn)) return drawn;
  return 'ka';
}

/** remember saves the player's choice on this device under key, and in the
 * "lang" cookie, for the server's first draw of the next page (sent on a
 * link followed from elsewhere too: samesite=lax). */
export function remember(key, l) {
  try { localStorage.setItem(key, l); } catch (_) { /* private mode */ }
  document.cookie = `lang=${l}; path=/; max-age=31536000; samesite=lax`;
}

/** speak makes l the page's language, its sentences from src:
 * {t(id, data), tn(id, n, data), has(id)}. */
export function speak(l, src) {
  lang = l;
  source = src;
  document.documentElement.lang = l;
}

/** load fetches a language's catalog from the server (once a language) and
 * speaks it; a language the catalogs do not hold is English. */
export async function load(l) {
  if (!LANGS.includes(l)) l = 'en';
  let cat = cache.get(l);
  if (!cat) {
    const r = await fetch(`/api/i18n/${l}`, { credentials: 'same-origin' });
    if (!r.ok) throw new Error(`catalog ${l}: ${r.status}`);
    cat = await r.json();
    cache.set(l, cat);
  }
  speak(l, catalog(cat.messages, l));
}

function fill(text, data) {
  return text.replace(/\{\{\s*\.(\w+)\s*\}\}/g, (_, k) =>
    data && Object.prototype.hasOwnProperty.call(data, k) ? String(data[k]) : '<no value>');
}

/** catalog is the source of a catalog as the server serves it: messages by
 * id, each as its plural forms ("one", "few", "many", "other"; a plain
 * message has "other" alone). A missing message renders as its id, so the
 * gap shows. */
export function catalog(messages, l) {
  const rules = new Intl.PluralRules(l);
  const has = (id) => Object.prototype.hasOwnProperty.call(messages, id);
  return {
    has,
    t(id, data) {
      if (!has(id)) return id;
      const m = messages[id];
      return fill(m.other ?? Object.values(m)[0], data);
    },
    tn(id, n, data) {
      if (!has(id)) return id;
      const m = messages[id];
      return fill(m[rules.select(n)] ?? m.other, { Count: n, ...data });
    },
  };
}

/** current is the language now spoken. */
export function current() { return lang; }

/** has reports whether the catalog holds a message. */
export function has(id) { return source.has(id); }

/** t renders a message. */
export function t(id, data) { return source.t(id, data); }

/** tn renders a message in the plural form that n takes in the language;
 * data's Count is n unless data says otherwise. */
export function tn(id, n, data) { return source.tn(id, n, data); }
