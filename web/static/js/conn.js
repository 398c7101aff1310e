// conn.js: one seat's WebSocket (server/conn.go). The seat's token travels
// in its HttpOnly cookie, so a reload or a new connection resumes the seat
// with no prompt. A dropped connection comes back by itself, with backoff,
// asking only for the events after those it has (?since=).
//
// At night the page's own traffic must not show that its player acts
// (docs/protocol.md, "Frame lengths"): it sends exactly one frame
// a second, the next request waiting or else a ping, each padded with
// spaces to a multiple of NIGHT_PAD bytes. The server's frames need nothing
// of the page: pads are ignored, and JSON.parse reads the spaces after a
// frame as the white space they are.

import { current } from './i18n.js';

// A silent server is a lost connection (docs/protocol.md, "Keep reading"):
// after PING_IDLE with no frame the page pings, and a server that still
// says nothing PING_WAIT later (its process paused, its host frozen) is
// left: the page shows the connection lost and reconnects, within 5 s of
// the silence. The browser answers the server's WebSocket pings itself
// and shows them to no page, hence a ping of the protocol.
const PING_IDLE = 2500;
const PING_WAIT = 2400;
const REQUEST_WAIT = 10000;
const NIGHT_EVERY = 1000; // the night's beat: the server's night tick
const NIGHT_PAD = 512;

export class Conn {
  /**
   * handlers: message(m) for every frame; state(s) with 'connecting',
   * 'open', 'lost'; refused(m) when the server refuses the seat's token
   * (it then stays closed); gone() when the table does not answer at all
   * before a first welcome; since() the events the page already has.
   */
  constructor(table, handlers) {
    this.table = table;
    this.h = handlers;
    this.ws = null;
    this.attempt = 0;
    this.nextID = 0;
    this.waiting = new Map();
    this.stopped = false;
    this.welcomed = false;
    this.timer = null;
    this.pingTimer = null;
    this.pinging = false; // a silence's ping awaits its answer
    this.lastRx = 0;
    this.night = false;
    this.nightTimer = null;
    this.queue = []; // requests waiting for the night's next beat
    this.onOnline = () => this.reconnectNow();
    this.onVisible = () => { if (document.visibilityState === 'visible') this.check(); };
    // A phone that slept (its timers frozen, the socket closed under it),
    // or a page brought back from the back-forward cache, reconnects at
    // once, not at its backoff's next try.
    this.onShow = () => this.check();
    window.addEventListener('online', this.onOnline);
    document.addEventListener('visibilitychange', this.onVisible);
    window.addEventListener('pageshow', this.onShow);
  }

  url() {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    return `${proto}//${location.host}/api/tables/${encodeURIComponent(this.table)}/ws?since=${this.h.since()}&lang=${current()}`;
  }

  start() {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.h.state(this.attempt === 0 ? 'connecting' : 'lost');
    let ws;
    try {
      ws = new WebSocket(this.url());
    } catch {
      this.retry();
      return;
    }
    this.ws = ws;
    let refused = false;
    let got = false; // any frame on this connection
    let welcome = false; // its welcome
    ws.onmessage = (ev) => {
      got = true;
      this.lastRx = Date.now();
      let m;
      try { m = JSON.parse(ev.data); } catch { return; }
      if (m.type === 'pad') return; // the same frame every seat gets: nothing for the page
      if (m.type === 'welcome') {
        welcome = true;
        this.attempt = 0;
        this.welcomed = true;
        this.h.state('open');
      }
      if (m.type === 'error' && !m.id && !welcome) {
        // The server refused the connection (the seat's token is unknown
        // here): it closes it next, and a retry would get the same.
        refused = true;
        this.h.refused(m);
        return;
      }
      if ((m.type === 'reply' || m.type === 'error' || m.type === 'history' || m.type === 'pong') && m.id && this.waiting.has(m.id)) {
        const w = this.waiting.get(m.id);
        this.waiting.delete(m.id);
        clearTimeout(w.timer);
        w.done(m);
      }
      this.h.message(m);
    };
    ws.onopen = () => {
      this.lastRx = Date.now();
      this.schedulePing();
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      clearTimeout(this.pingTimer);
      for (const [, w] of this.waiting) { clearTimeout(w.timer); w.done({ type: 'error', code: 'network' }); }
      this.waiting.clear();
      if (this.stopped || refused) return;
      if (!got && !this.welcomed && this.attempt === 0 && this.h.gone) {
        this.h.gone().then((gone) => { if (!gone) this.retry(); });
        return;
      }
      this.retry();
    };
  }

  retry() {
    if (this.stopped) return;
    this.h.state('lost');
    const delay = Math.min(10000, 300 * 2 ** this.attempt) * (0.6 + Math.random() * 0.4);
    this.attempt++;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.start(), delay);
  }

  /** reconnectNow drops the connection (if any) and opens a new one at once. */
  reconnectNow() {
    if (this.stopped) return;
    this.attempt = Math.min(this.attempt, 1);
    if (this.ws) {
      const ws = this.ws;
      this.ws = null;
      ws.onclose = null;
      ws.close();
      clearTimeout(this.pingTimer);
    }
    this.start();
  }

  /** check reconnects when the connection is gone or silent too long. */
  check() {
    if (!this.ws || this.ws.readyState > WebSocket.OPEN) this.reconnectNow();
    else if (Date.now() - this.lastRx > PING_IDLE + PING_WAIT) this.silent();
  }

  /** silent leaves a connection whose server said nothing for too long:
   * the page shows it lost, and it reconnects at once. */
  silent() {
    if (this.stopped) return;
    this.h.state('lost');
    this.reconnectNow();
  }

  /** schedulePing looks every PING_IDLE/5: after PING_IDLE of silence it
   * pings (the night's beat pings already), after PING_IDLE + PING_WAIT
   * it takes the connection as lost. */
  schedulePing() {
    clearTimeout(this.pingTimer);
    this.pingTimer = setTimeout(() => {
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return;
      const quiet = Date.now() - this.lastRx;
      if (quiet > PING_IDLE + PING_WAIT) {
        this.silent();
        return;
      }
      if (quiet > PING_IDLE && !this.pinging && !this.night) {
        this.pinging = true;
        this.send({ type: 'ping' }).then(() => { this.pinging = false; });
      }
      this.schedulePing();
    }, PING_IDLE / 5);
  }

  /** send sends a request and resolves with the server's reply or error
   * frame (a history request: its page); a lost connection resolves with {type:'error', code:'network'}.
   * At night it waits for the night's next beat. */
  send(msg) {
    return new Promise((resolve) => {
      if (this.night) {
        this.queue.push({ msg, resolve });
        return;
      }
      this.transmit(msg, resolve);
    });
  }

  transmit(msg, resolve) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
      resolve({ type: 'error', code: 'network' });
      return;
    }
    const id = ++this.nextID;
    const timer = setTimeout(() => {
      this.waiting.delete(id);
      resolve({ type: 'error', code: 'network' });
    }, REQUEST_WAIT);
    this.waiting.set(id, { done: resolve, timer });
    let text = JSON.stringify({ v: 1, id, ...msg });
    if (this.night) {
      const n = new TextEncoder().encode(text).length;
      text += ' '.repeat(Math.ceil(n / NIGHT_PAD) * NIGHT_PAD - n);
    }
    this.ws.send(text);
  }

  /** setNight starts or stops the night's beat: one frame a second. */
  setNight(on) {
    if (on === this.night) return;
    this.night = on;
    clearInterval(this.nightTimer);
    this.nightTimer = null;
    if (on) {
      this.nightTimer = setInterval(() => this.beat(), NIGHT_EVERY);
      return;
    }
    for (const q of this.queue.splice(0)) this.transmit(q.msg, q.resolve);
  }

  beat() {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
      for (const q of this.queue.splice(0)) q.resolve({ type: 'error', code: 'network' });
      return;
    }
    const q = this.queue.shift();
    if (q) this.transmit(q.msg, q.resolve);
    else this.transmit({ type: 'ping' }, () => {});
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    clearTimeout(this.pingTimer);
    clearInterval(this.nightTimer);
    window.removeEventListener('online', this.onOnline);
    document.removeEventListener('visibilitychange', this.onVisible);
    window.removeEventListener('pageshow', this.onShow);
    if (this.ws) {
      const ws = this.ws;
      this.ws = null;
      ws.onclose = null;
      ws.close();
    }
  }
}
