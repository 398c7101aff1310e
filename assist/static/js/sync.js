// Sends a game's entries to the server in order, a batch at a time, until it
// holds them all. Only entries the phone's storage holds are sent (so the
// server never holds an entry the phone could lose). The server applies
// each place once, so a batch resent after a lost answer changes nothing.
// While the connection is down the entries wait on the phone (storage.js);
// sending resumes when the browser is back online, and every few seconds
// in any case. A game made on the
// phone while the server could not be reached (rec.create) is sent first:
// the server makes it under the phone's id, token and deal, and takes a
// repeat of that create as the same game.

import * as storage from './storage.js';

const BATCH = 100;
const TIMEOUT = 15000;

/** What the page last heard from the server: down after a request failed. */
export const link = { down: false };
window.addEventListener('online', () => { link.down = false; });

/**
 * POSTs JSON with a timeout; resolves to {res, body}, or null when the
 * server cannot be reached (no connection, no answer, or a gateway's error).
 */
export const post = (url, data, token) => send('POST', url, data, token);

/** Sends a request with a JSON body (or none) the way post does: {res, body} or null. */
export async function send(method, url, data, token) {
  const ctl = new AbortController();
  const t = setTimeout(() => ctl.abort(), TIMEOUT);
  const headers = { 'Content-Type': 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  try {
    const res = await fetch(url, { method, headers, body: data === undefined ? undefined : JSON.stringify(data), signal: ctl.signal });
    if (res.status === 502 || res.status === 503 || res.status === 504) throw new Error('gateway');
    const body = await res.json();
    link.down = false;
    return { res, body };
  } catch (_) {
    link.down = true;
    return null;
  } finally {
    clearTimeout(t);
  }
}

/** A sync loop for one game record; onChange(status) after every change. */
export class Syncer {
  constructor(rec, onChange) {
    this.rec = rec;
    this.onChange = onChange;
    this.busy = false;
    this.status = 'idle'; // idle | sending | offline | error
    this.error = null;
    this.delay = 1000;
    this.timer = null;
    this.stopped = false;
    this.kick = this.kick.bind(this);
    window.addEventListener('online', this.kick);
  }

  /**
   * The first entry to send: where a pending rewrite begins (a correction of
   * an earlier entry, rec.rewrite), else the first the server lacks.
   */
  start() { return this.rec.rewrite ? this.rec.rewrite.from : this.rec.synced; }

  /** Entries not yet held by the server (and the game itself, if it waits). */
  waiting() { return this.rec.commands.length - this.start() + (this.rec.create ? 1 : 0); }

  /** Holds the sending (the entries are being rewritten); resolves once no batch is on its way. */
  async pause() {
    this.paused = true;
    while (this.busy) await new Promise((r) => { setTimeout(r, 50); });
  }

  /** Sends again after pause. */
  resume() {
    this.paused = false;
    this.kick();
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    window.removeEventListener('online', this.kick);
  }

  set(status, error) {
    this.status = status;
    this.error = error || null;
    this.onChange(this);
  }

  /** Sends now if anything waits. */
  kick() {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = null;
    this.pump();
  }

  later() {
    if (this.stopped || this.timer) return;
    this.timer = setTimeout(() => { this.timer = null; this.pump(); }, this.delay);
    this.delay = Math.min(this.delay * 2, 8000);
  }

  async pump() {
    if (this.busy || this.stopped || this.paused) return;
    this.busy = true;
    try {
      if (this.rec.create && !(await this.create())) return;
      while (this.waiting() > 0 && !this.stopped) {
        const from = this.start();
        const upto = Math.min(from + BATCH, storage.stored(this.rec.id));
        if (upto <= from) break; // the rest is being saved: sent once it is (the game kicks)
        const batch = this.rec.commands.slice(from, upto);
        // A rewrite replaces the server's entries from rw.from on (the host's
        // token only; rw.was is the entry the server held there).
        const rw = this.rec.rewrite;
        const req = { commands: batch };
        if (rw) req.rewrite = { from: rw.from, was: rw.was, fixes: rw.fixes || [], dropped: rw.dropped || 0 };
        this.set('sending');
        const got = await post(`/host/api/games/${this.rec.id}/sync`, req, this.rec.token);
        if (!got) {
          this.set('offline');
          this.later();
          return;
        }
        const { res, body } = got;
        // The count of entries the server holds is this phone's progress
        // only when the answer is about this phone's entries: a diverged
        // refusal counts another phone's.
        const ours = res.ok || (res.status === 409 && body.error && body.error.code === 'out_of_order');
        if (ours && typeof body.applied === 'number' && body.applied <= this.rec.commands.length) {
          const progress = body.applied !== this.rec.synced || (!!rw && res.ok);
          if (rw && res.ok && this.rec.rewrite === rw) delete this.rec.rewrite;
          this.rec.synced = body.applied;
          storage.save(this.rec).catch(() => {}); // kept with the next save if not now
          if (res.ok || (res.status === 409 && body.error.code === 'out_of_order' && progress)) {
            this.delay = 1000;
            continue;
          }
        }
        if (res.status >= 500 || res.status === 503) {
          this.set('offline');
          this.later();
          return;
        }
        this.set('error', body && body.error);
        return;
      }
      this.set('idle');
    } finally {
      this.busy = false;
    }
    if (this.waiting() > 0) this.later();
  }

  /** Sends the game made on this phone; true once the server holds it. */
  async create() {
    this.set('sending');
    const got = await post('/host/api/games', this.rec.create);
    if (!got) {
      this.set('offline');
      this.later();
      return false;
    }
    const { res, body } = got;
    if (res.ok && body.id === this.rec.id) {
      delete this.rec.create;
      storage.save(this.rec).catch(() => {}); // not kept: the server takes the same create again
      this.delay = 1000;
      return true;
    }
    if (res.status >= 500) {
      this.set('offline');
      this.later();
      return false;
    }
    this.set('error', body && body.error);
    return false;
  }
}
