// The phone's memory of its games (localStorage): the settings with the
// deal, every entry the host made (each with its id and place), how many the
// server holds, and where the host's screens are. A game is saved after
// every entry, before it is sent, so nothing entered is lost.

const INDEX = 'assist.games';
const key = (id) => `assist.game.${id}`;

function read(k, fallback) {
  try {
    const s = localStorage.getItem(k);
    return s ? JSON.parse(s) : fallback;
  } catch (_) {
    return fallback;
  }
}

/** The games this phone holds: [{id, name, created, ended}], newest first. */
export const list = () => read(INDEX, []);

/** One game's record, or null. */
export const get = (id) => read(key(id), null);

/** Saves a game's record and its line in the list. */
export function save(rec) {
  localStorage.setItem(key(rec.id), JSON.stringify(rec));
  const games = list().filter((g) => g.id !== rec.id);
  games.unshift({ id: rec.id, name: rec.settings.name, created: rec.created, ended: !!rec.ended });
  localStorage.setItem(INDEX, JSON.stringify(games.slice(0, 50)));
}

/** Forgets a game on this phone (the server keeps it). */
export function remove(id) {
  localStorage.removeItem(key(id));
  localStorage.setItem(INDEX, JSON.stringify(list().filter((g) => g.id !== id)));
}

/** n random bytes (no secure context needed). */
export function randomBytes(n) {
  const b = new Uint8Array(n);
  crypto.getRandomValues(b);
  return b;
}

/** n random bytes as lowercase hex digits. */
export const randomHex = (n) => Array.from(randomBytes(n), (x) => x.toString(16).padStart(2, '0')).join('');

/** A fresh id for an entry. */
export const newID = () => randomHex(12);
