// Sends a game's entries to the server in order, a batch at a time, until it
// holds them all. The server applies each place once, so a batch resent
// after a lost answer changes nothing. While the connection is down the
// entries wait on the phone (storage.js); sending resumes when the browser
// is back online, and every few seconds in any case.

import * as storage from './storage.js';

const BATCH = 100;
const TIMEOUT = 15000;

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

  /** Entries not yet held by the server. */
  waiting() { return this.rec.commands.length - this.rec.synced; }

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
    if (this.busy || this.stopped) return;
    this.busy = true;
    try {
      while (this.waiting() > 0 && !this.stopped) {
        const batch = this.rec.commands.slice(this.rec.synced, this.rec.synced + BATCH);
        this.set('sending');
        let res;
        let body;
        const ctl = new AbortController();
        const t = setTimeout(() => ctl.abort(), TIMEOUT);
        try {
          res = await fetch(`/host/api/games/${this.rec.id}/sync`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${this.rec.token}` },
            body: JSON.stringify({ commands: batch }),
            signal: ctl.signal,
          });
          body = await res.json();
        } catch (_) {
          clearTimeout(t);
          this.set('offline');
          this.later();
          return;
        }
        clearTimeout(t);
        if (typeof body.applied === 'number' && body.applied <= this.rec.commands.length) {
          const progress = body.applied !== this.rec.synced;
          this.rec.synced = body.applied;
          storage.save(this.rec);
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
}
