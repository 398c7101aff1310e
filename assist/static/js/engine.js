// The engine, compiled from Go to WebAssembly (assist/wasm): the same rules
// as the server's, so the host keeps playing when the connection drops.
// Every call takes and returns JSON text; this module parses it.

let api = null;

/** Loads the module once; resolves when mafiaAssist is ready. */
export async function load(version) {
  if (api) return api;
  const go = new Go(); // from wasm_exec.js
  const ready = new Promise((resolve) => { window.mafiaAssistReady = resolve; });
  const url = `/host/static/${version}/engine.wasm`;
  let result;
  if (WebAssembly.instantiateStreaming) {
    result = await WebAssembly.instantiateStreaming(fetch(url), go.importObject);
  } else {
    const bytes = await (await fetch(url)).arrayBuffer();
    result = await WebAssembly.instantiate(bytes, go.importObject);
  }
  go.run(result.instance);
  await ready;
  api = window.mafiaAssist;
  return api;
}

const call = (name, ...args) => JSON.parse(api[name](...args));

// The sentences and names rendered so far in the language spoken, by what
// was asked: a screen asks for the same few dozen again at every tap, and
// each answer from the module is a call into it and a string copied out
// (the largest share of a redraw's time). An answer depends on nothing but
// the language and the question, so a kept one is the module's own; a new
// language starts afresh, and so does a full memory (names and numbers in
// the data make questions without end).
let said = new Map();
const KEEP = 4000;
const remembered = (key, render) => {
  let s = said.get(key);
  if (s === undefined) {
    if (said.size >= KEEP) said = new Map();
    s = render();
    said.set(key, s);
  }
  return s;
};

/** Makes the engine speak l; returns the language it speaks (English for
 * one the catalogs do not hold). */
export const speak = (l) => { said = new Map(); return api.lang(l); };
/** The engine's catalogs as the page's sentences (a source of i18n.js),
 * rendered on the phone in the language it speaks. A message no catalog
 * holds renders as its id (locale.Printer.T), which is how has knows it. */
export const sentences = {
  t: (id, data) => {
    const d = data ? JSON.stringify(data) : '';
    return remembered(`t\n${id}\n${d}`, () => api.t(id, d));
  },
  tn: (id, n, data) => {
    const d = data ? JSON.stringify(data) : '';
    return remembered(`n\n${id}\n${n}\n${d}`, () => api.plural(id, n, d));
  },
  has: (id) => sentences.t(id) !== id,
};
/** The name of a role, phase, result or winner in the language spoken. */
export const name = (group, key) => remembered(`k\n${group}\n${key}`, () => api.name(group, key));

/** Starts a game from settings and replays its entries: {events, state, error}. */
export const start = (settings, commands) => call('start', JSON.stringify(settings), JSON.stringify(commands || []));
/** Hands one entry to the engine: {events, state} or {error: {code, message}}. */
export const apply = (cmd) => call('apply', JSON.stringify(cmd));
/** Would the engine accept the entry? {} or {error}. */
export const check = (cmd) => call('check', JSON.stringify(cmd));
/** The host's state now. */
export const state = () => call('state').state;
/** The entries that record the mafia's choice (0: a miss). */
export const mafia = (target) => call('mafia', target).commands || [];
/** The protocol of the game so far. */
export const protocol = () => call('protocol');
/** Every event so far, narrated for the host. */
export const log = () => call('log');
/** The preset for a player count, checked. */
export const preset = (n) => call('preset', n);
/** A custom setup, checked. */
export const setup = (counts) => call('setup', JSON.stringify(counts));
/** The house rules with their values. */
export const options = () => call('options');
/** The rules a rules code names ("f1h3"): {code, options} or {error}. */
export const rulesFrom = (code) => call('rules', code);
/** The rules code of the options chosen: {code, options} or {error}. */
export const rulesCode = (opts) => call('code', JSON.stringify(opts || {}));
/** Deals a new game on the phone (bridge.NewGame, a decimal seed): {settings} or {error}. */
export const deal = (req, seed) => call('deal', JSON.stringify(req), seed);
/** What an undo now would take back: {undo, commands, lines} or {error}. */
export const undoable = () => call('undoable');
/**
 * Works out a co-host's correction of an earlier entry ({kind: 'shot', round,
 * seat}) without applying it: {from, commands (the whole new list; the
 * correction's own entries have no id yet), kept, dropped (lines), reason}
 * or {error}.
 */
export const amend = (fix) => call('amend', JSON.stringify(fix));
/** The QR code of a text as SVG: {svg} or {error}. */
export const qr = (text) => call('qr', text);
