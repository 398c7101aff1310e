// The phone's memory of its games, in IndexedDB: the settings with the
// deal, every entry the host made (each with its id, place and step), how
// many the server holds, and where the host's screens are. save() resolves
// only once its transaction has completed with durability "strict" (on
// disk, where the browser supports it): the page shows an entry as done,
// and sends it to the server, only after that, so an entry the host saw
// done outlives the browser being killed the next moment. (localStorage,
// which the page used before, reaches the disk up to a minute late; its
// games are moved here once, at the first start.)

const DB = 'assist';
const STORE = 'games';
const OLD_INDEX = 'assist.games';
const OLD_KEY = 'assist.game.';

let db = null;
// The entries of each game that a completed write holds: what may be sent.
const held = new Map();

function request(r) {
  return new Promise((resolve, reject) => {
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
}

/** Resolves when transaction tx has completed (its writes are stored). */
function done(tx) {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error || new Error('aborted'));
  });
}

const reading = () => db.transaction(STORE, 'readonly').objectStore(STORE);
const writing = () => db.transaction(STORE, 'readwrite', { durability: 'strict' });

/**
 * Opens the phone's storage (once, before anything else) and moves the
 * games an older page kept in localStorage into it.
 */
export async function open() {
  if (db) return;
  const r = indexedDB.open(DB, 1);
  r.onupgradeneeded = () => r.result.createObjectStore(STORE, { keyPath: 'id' });
  db = await request(r);
  db.onversionchange = () => db.close(); // a newer page upgrades it
  // Ask the browser not to clear the games when the phone runs short of space.
  if (navigator.storage && navigator.storage.persist) navigator.storage.persist().catch(() => {});
  await migrate();
}

/** Moves the games of localStorage here; each is removed there once stored here. */
async function migrate() {
  let keys = [];
  try {
    keys = Object.keys(localStorage).filter((k) => k.startsWith(OLD_KEY));
  } catch (_) {
    return; // no localStorage: nothing to move
  }
  for (const k of keys) {
    let rec = null;
    try { rec = JSON.parse(localStorage.getItem(k)); } catch (_) { /* unreadable: left as it is */ }
    if (!rec || !rec.id) continue;
    const have = await get(rec.id);
    if (!have || (have.commands || []).length < (rec.commands || []).length) await save(rec);
    localStorage.removeItem(k);
  }
  try { localStorage.removeItem(OLD_INDEX); } catch (_) { /* gone already */ }
}

/** The games this phone holds: [{id, name, created, ended}], newest first. */
export async function list() {
  const all = await request(reading().getAll());
  return all
    .sort((a, b) => (b.touched || 0) - (a.touched || 0))
    .slice(0, 50)
    .map((rec) => ({ id: rec.id, name: rec.settings.name, created: rec.created, ended: !!rec.ended }));
}

/** One game's record, or null. */
export async function get(id) {
  const rec = (await request(reading().get(id))) || null;
  if (rec) held.set(id, (rec.commands || []).length);
  return rec;
}

/**
 * Saves a game's record as it is now; resolves once the write has
 * completed, and rejects when it cannot be made (the phone's storage is
 * full, or refused).
 */
export async function save(rec) {
  rec.touched = Date.now();
  const n = rec.commands.length;
  const tx = writing();
  tx.objectStore(STORE).put(rec); // a copy of rec as it is now
  await done(tx);
  held.set(rec.id, n);
}

/** How many of a game's entries a completed write holds: only those are sent. */
export const stored = (id) => held.get(id) || 0;

/** Forgets a game on this phone (the server keeps it). */
export async function remove(id) {
  const tx = writing();
  tx.objectStore(STORE).delete(id);
  await done(tx);
  held.delete(id);
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
