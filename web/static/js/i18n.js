// i18n.js: the message catalogs of package locale, as the server serves them
// (GET /api/i18n/{lang}). Every string the page shows comes from here:
// t(id, data) fills a message's {{.Field}}s; tn(id, n, data) picks the
// plural form of n with Intl.PluralRules, as go-i18n does on the server.

let lang = 'en';
let messages = {};
let rules = new Intl.PluralRules('en');
const cache = new Map();

export const LANGS = ['ka', 'en', 'ru'];

/** choose returns the language to start in: the player's own choice, then
 * the one the server drew the page in (<html lang>: the request's
 * language, or Georgian when it names none the catalogs hold). */
export function choose() {
  const saved = localStorage.getItem('mafia.lang');
  if (LANGS.includes(saved)) return saved;
  const drawn = document.documentElement.lang;
  if (LANGS.includes(drawn)) return drawn;
  return 'ka';
}

/** load fetches a language's catalog and makes it the page's language. */
export async function load(l) {
  if (!LANGS.includes(l)) l = 'en';
  let cat = cache.get(l);
  if (!cat) {
    const r = await fetch(`/api/i18n/${l}`, { credentials: 'same-origin' });
    if (!r.ok) throw new Error(`catalog ${l}: ${r.status}`);
    cat = await r.json();
    cache.set(l, cat);
  }
  lang = l;
  messages = cat.messages;
  rules = new Intl.PluralRules(l);
  document.documentElement.lang = l;
}

/** remember saves the player's choice (and tells the server, for the first
 * draw of the next page). */
export function remember(l) {
  localStorage.setItem('mafia.lang', l);
  document.cookie = `lang=${l}; path=/; max-age=31536000; samesite=strict`;
}

export function current() { return lang; }

export function has(id) { return Object.prototype.hasOwnProperty.call(messages, id); }

function fill(text, data) {
  return text.replace(/\{\{\s*\.(\w+)\s*\}\}/g, (_, k) =>
    data && Object.prototype.hasOwnProperty.call(data, k) ? String(data[k]) : '<no value>');
}

/** t renders a message; a missing one renders as its id, so the gap shows. */
export function t(id, data) {
  const m = messages[id];
  if (!m) return id;
  return fill(m.other ?? Object.values(m)[0], data);
}

/** tn renders a message in the plural form that n takes in the language;
 * data defaults to {Count: n}. */
export function tn(id, n, data) {
  const m = messages[id];
  if (!m) return id;
  const text = m[rules.select(n)] ?? m.other;
  return fill(text, data ?? { Count: n });
}
