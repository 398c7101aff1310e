// Every sentence the host's page shows comes from the project's catalogs
// (locale/catalog/active.*.toml), rendered by package locale inside the
// engine module: t('assist.…'), plural forms, and the names of roles,
// phases and results.

const LANGS = ['ka', 'en', 'ru'];
let current = 'en';

/** The languages the catalogs hold. */
export const langs = () => LANGS;
/** The language now spoken. */
export const lang = () => current;

/** Switches the language (remembered on this phone). */
export function setLang(l) {
  current = window.mafiaAssist.lang(l);
  try { localStorage.setItem('assist.lang', current); } catch (_) { /* private mode */ }
  document.documentElement.lang = current;
  document.cookie = `lang=${current}; path=/; max-age=31536000; samesite=lax`;
  return current;
}

/** The language to start in: the phone's choice, else the page's. */
export function initialLang() {
  let l = null;
  try { l = localStorage.getItem('assist.lang'); } catch (_) { /* private mode */ }
  return LANGS.includes(l) ? l : (document.body.dataset.lang || 'en');
}

/** Renders a catalog message. */
export const t = (id, data) => window.mafiaAssist.t(id, data ? JSON.stringify(data) : '');
/** Renders a catalog message in the plural form of n. */
export const plural = (id, n, data) => window.mafiaAssist.plural(id, n, data ? JSON.stringify(data) : '');
/** The name of a role, phase, result or winner. */
export const name = (group, key) => window.mafiaAssist.name(group, key);
