// voice.js: the page's part of a voice table (docs/voice.md): its WebRTC
// connection to the server's forwarding unit, signalled over the table's
// own WebSocket with "voice" messages (docs/protocol.md, "voice"), the
// audio it plays, the player's microphone and its level, and the voice
// panel (the buttons and what the voice is doing now).
//
// The rules, never the page, decide who is heard: the page sends its
// microphone whenever voice is on, and the server forwards it only while
// its seat holds the floor. The page only says so. The microphone is
// asked for only when the player turns voice on with it; a player may
// listen without one. Nothing is recorded.

import { h, keep } from './dom.js';
import { t } from './i18n.js';

// LOG_MAX bounds the page's voice log (what happened when: the tests'
// and the curious' record, never sent anywhere).
const LOG_MAX = 400;
// STATS_EVERY is how often the page reads who it hears (getStats): the
// seats' "heard" marks light up while a sound comes.
const STATS_EVERY = 400;
// SOUNDING is the inbound audio level above which a seat is heard now.
const SOUNDING = 0.01;
// DISCONNECTED_WAIT is how long an ICE connection may stay "disconnected"
// (it often comes back by itself) before the page asks for a restart (ms).
const DISCONNECTED_WAIT = 2000;

/** mediaSections splits an SDP into its media sections: for each, its mid,
 * its direction and the track id it names (a=msid:stream track). */
export function mediaSections(sdp) {
  const out = [];
  let cur = null;
  for (const line of sdp.split(/\r?\n/)) {
    if (line.startsWith('m=')) {
      cur = { mid: '', dir: 'sendrecv', track: '' };
      out.push(cur);
    } else if (cur) {
      if (line.startsWith('a=mid:')) cur.mid = line.slice(6).trim();
      else if (/^a=(sendrecv|sendonly|recvonly|inactive)$/.test(line.trim())) cur.dir = line.trim().slice(2);
      else if (line.startsWith('a=msid:')) cur.track = (line.slice(7).trim().split(' ')[1] || '');
    }
  }
  return out;
}

/** withOpusFEC asks for Opus's in-band FEC and DTX in an SDP: each Opus
 * payload's fmtp line gets useinbandfec=1 and usedtx=1 where missing. */
export function withOpusFEC(sdp) {
  const pts = [...sdp.matchAll(/^a=rtpmap:(\d+) opus\/48000/gim)].map((m) => m[1]);
  let out = sdp;
  for (const pt of pts) {
    out = out.replace(new RegExp(`^(a=fmtp:${pt} )(.*)$`, 'gm'), (_, head, params) => {
      let p = params.trim();
      for (const want of ['useinbandfec=1', 'usedtx=1']) {
        const key = want.split('=')[0];
        if (new RegExp(`(^|;)\\s*${key}=`).test(p)) p = p.replace(new RegExp(`(^|;)(\\s*)${key}=\\d`), `$1$2${want}`);
        else p += `;${want}`;
      }
      return head + p.replace(/\r$/, '') + (params.endsWith('\r') ? '\r' : '');
    });
  }
  return out;
}

export class Voice {
  /**
   * id: the table; send(msg) sends a request on the table's connection and
   * resolves with its reply or error; redraw() asks the screen to draw
   * again.
   */
  constructor(id, send, redraw) {
    this.id = id;
    this.send = send;
    this.redraw = redraw;
    // What the player chose, kept over a reload: '', 'mic' or 'listen'.
    this.want = sessionStorage.getItem(`mafia.voice.${id}`) || '';
    this.status = 'off'; // off, connecting, on, failed
    this.why = ''; // a failure's or a note's reason (a code)
    this.heard = null; // the seats heard now, as the server says (null: not told yet)
    this.sounding = new Set(); // the seats whose sound comes now
    this.pc = null;
    this.stream = null; // the microphone's
    this.sending = false;
    this.seats = new Map(); // mid → seat of the tracks received
    this.tracks = new Map(); // seat → its received MediaStreamTrack
    this.loudness = 0; // the microphone's level, 0..1
    this.blocked = false; // the browser would not play without a tap
    this.log = [];
    this.gen = 0; // a join's generation: an older join's answers are dropped
    // An ICE restart asked for (the network changed, or the path was
    // lost): the server's next offer is for the same peer connection.
    this.restarting = false;
    this.restarts = 0; // restarts asked since the path last worked
    this.iceTimer = null;
    // A phone that changes networks (Wi-Fi to mobile data) keeps its peer
    // connection and asks for a new path.
    this.onNetwork = () => this.restart('network');
    if (navigator.connection && navigator.connection.addEventListener) navigator.connection.addEventListener('change', this.onNetwork);
    window.addEventListener('online', this.onNetwork);
    this.audio = h('audio', { id: 'voice-audio', autoplay: true });
    this.audio.hidden = true;
    this.meter = h('span', { class: 'voice-level-bar' });
    // The panel's buttons, made once: the panel is drawn again with every
    // frame, and a tap whose press and release land on two different
    // (redrawn) buttons would be lost.
    this.buttons = {
      mic: h('button', { type: 'button', class: 'primary', id: 'voice-mic', on: { click: () => this.turnOn(true) } }, '🎤 ', h('span', {})),
      listen: h('button', { type: 'button', id: 'voice-listen', on: { click: () => this.turnOn(false) } }, '🔈 ', h('span', {})),
      leave: h('button', { type: 'button', id: 'voice-leave', on: { click: () => this.turnOff() } }, h('span', {})),
      play: h('button', { type: 'button', class: 'primary', id: 'voice-play', on: { click: () => this.unlock() } }, h('span', {})),
    };
    this.level = h('span', { class: 'voice-level', id: 'voice-level', role: 'meter' }, this.meter);
    keep(this.audio, this.level, ...Object.values(this.buttons));
    this.ctx = null;
    this.statsTimer = null;
    this.levelTimer = null;
  }

  note(kind, data) {
    this.log.push({ at: performance.now(), kind, ...data });
    if (this.log.length > LOG_MAX) this.log.splice(0, this.log.length - LOG_MAX);
  }

  /** turnOn turns voice on, with the microphone or to listen only (the
   * player's tap: the microphone is asked for here and nowhere else). */
  async turnOn(mic) {
    this.want = mic ? 'mic' : 'listen';
    sessionStorage.setItem(`mafia.voice.${this.id}`, this.want);
    this.unlock();
    await this.join();
  }

  /** turnOff leaves the voice: nothing is sent or played any more. */
  turnOff() {
    this.want = '';
    sessionStorage.removeItem(`mafia.voice.${this.id}`);
    this.teardown(true);
    this.status = 'off';
    this.why = '';
    this.send({ type: 'voice', action: 'leave' });
    this.redraw();
  }

  /** welcome is the table's connection opened (again): a voice that was on
   * joins again, the server having ended the old one with the old
   * connection. */
  welcome() {
    if (this.want) this.join();
  }

  /** join asks the server for the audio: its offer follows. */
  async join() {
    const gen = ++this.gen;
    this.teardown(false);
    this.status = 'connecting';
    this.why = '';
    this.note('join', { mic: this.want === 'mic' });
    this.redraw();
    let mic = this.want === 'mic';
    if (mic && !this.stream) {
      try {
        this.stream = await navigator.mediaDevices.getUserMedia({ audio: { echoCancellation: true, noiseSuppression: true, autoGainControl: true } });
        this.meterOn();
      } catch {
        // No microphone, or the player said no: listen only, and say why.
        mic = false;
        this.why = 'no_mic';
      }
    }
    if (gen !== this.gen) return;
    this.sending = mic;
    const r = await this.send({ type: 'voice', action: 'join', mic: mic || undefined });
    if (gen !== this.gen) return;
    // A reply lost with a connection that dropped after the offer came
    // is no failure: the offer's connection decides.
    if (r.type === 'error' && !(r.code === 'network' && this.pc)) {
      this.fail(r.code, r.message);
    }
  }

  fail(code, message) {
    this.teardown(false);
    this.status = 'failed';
    this.why = code || 'network';
    this.failText = message || '';
    this.note('failed', { code: this.why });
    this.redraw();
  }

  /** message takes one of the server's "voice" messages. */
  message(m) {
    switch (m.action) {
      case 'offer':
        if (this.restarting && this.pc && this.pc.signalingState === 'stable') this.reoffer(m, this.pc, this.gen);
        else this.offer(m, this.gen);
        break;
      case 'candidate':
        if (this.pc && m.candidate) this.pc.addIceCandidate(m.candidate).catch(() => {});
        break;
      case 'state':
        this.heard = m.heard || [];
        this.note('state', { heard: this.heard });
        this.redraw();
        break;
      case 'closed':
        // The table stopped here or moved: join again once the
        // connection is back (welcome), where the table now is.
        this.teardown(false);
        this.status = this.want ? 'connecting' : 'off';
        this.note('closed', { code: m.code });
        this.redraw();
        break;
      default:
    }
  }

  async offer(m, gen) {
    if (this.pc) this.pc.close();
    const pc = new RTCPeerConnection({ iceServers: m.ice_servers || [] });
    this.pc = pc;
    this.seats.clear();
    this.tracks.clear();
    const sections = mediaSections(m.sdp);
    for (const s of sections) {
      const seat = /^seat-(\d+)$/.exec(s.track);
      if (seat) this.seats.set(s.mid, Number(seat[1]));
    }
    pc.onicecandidate = (ev) => {
      if (ev.candidate && ev.candidate.candidate && this.pc === pc) this.send({ type: 'voice', action: 'candidate', candidate: ev.candidate.toJSON() });
    };
    pc.ontrack = (ev) => {
      const seat = this.seats.get(ev.transceiver.mid);
      if (seat) this.tracks.set(seat, ev.track);
      if (ev.streams[0] && this.audio.srcObject !== ev.streams[0]) {
        this.audio.srcObject = ev.streams[0];
        this.play();
      }
    };
    pc.onconnectionstatechange = () => {
      if (this.pc !== pc) return;
      const s = pc.connectionState;
      this.note('pc', { state: s });
      if (s === 'connected') {
        this.status = 'on';
        this.restarts = 0;
        this.statsOn();
      } else if (s === 'failed' && this.restarts > 0 && !this.restarting) {
        this.fail('ice'); // a restart did not bring the path back
        return;
      }
      this.redraw();
    };
    // The path lost ("failed"), or gone for a while ("disconnected"),
    // while the table's connection is up: the page asks the server for an
    // ICE restart on the same peer connection (the seat keeps its place).
    pc.oniceconnectionstatechange = () => {
      if (this.pc !== pc) return;
      const s = pc.iceConnectionState;
      clearTimeout(this.iceTimer);
      if (s === 'failed') this.restart('ice_failed');
      else if (s === 'disconnected') {
        this.iceTimer = setTimeout(() => {
          if (this.pc === pc && pc.iceConnectionState === 'disconnected') this.restart('ice_disconnected');
        }, DISCONNECTED_WAIT);
      }
    };
    try {
      await pc.setRemoteDescription({ type: 'offer', sdp: m.sdp });
      const micSection = sections.find((s) => s.dir === 'recvonly');
      if (micSection && this.sending && this.stream) {
        const tr = pc.getTransceivers().find((x) => x.mid === micSection.mid);
        if (tr) {
          tr.direction = 'sendonly';
          await tr.sender.replaceTrack(this.stream.getAudioTracks()[0]);
        }
      }
      for (const tr of pc.getTransceivers()) if (tr.mid !== (micSection && micSection.mid)) tr.direction = 'recvonly';
      const answer = await pc.createAnswer();
      const sdp = withOpusFEC(answer.sdp);
      await pc.setLocalDescription({ type: 'answer', sdp });
      if (this.pc !== pc || gen !== this.gen) return;
      const r = await this.send({ type: 'voice', action: 'answer', sdp });
      if (r.type === 'error' && this.pc === pc) this.fail(r.code, r.message);
    } catch {
      if (this.pc === pc) this.fail('voice_bad_signal');
    }
  }

  /** restart asks the server for an ICE restart: a new path for the same
   * peer connection, when the network changed or the path was lost. The
   * server's offer follows (reoffer); one refused, or a second that did
   * not bring the path back, leaves the page to join again. */
  async restart(why) {
    const pc = this.pc;
    if (!pc || this.restarting || pc.signalingState !== 'stable' || pc.connectionState === 'closed') return;
    if (this.restarts >= 2) {
      this.join(); // two restarts did not help: a new peer connection
      return;
    }
    this.restarting = true;
    this.restarts++;
    this.note('restart', { why });
    const r = await this.send({ type: 'voice', action: 'restart' });
    if (this.pc !== pc) return;
    if (r.type === 'error') {
      this.restarting = false;
      this.note('restart_refused', { code: r.code });
      // Not joined any more (the server ended it), or a request lost
      // with a connection that dropped: the welcome joins again then.
      if (r.code !== 'network') this.join();
    }
  }

  /** reoffer answers the server's restart offer on the same peer
   * connection: its new ICE servers, its new credentials. */
  async reoffer(m, pc, gen) {
    this.restarting = false;
    try {
      if (m.ice_servers && pc.setConfiguration) pc.setConfiguration({ ...pc.getConfiguration(), iceServers: m.ice_servers });
      await pc.setRemoteDescription({ type: 'offer', sdp: m.sdp });
      const answer = await pc.createAnswer();
      const sdp = withOpusFEC(answer.sdp);
      await pc.setLocalDescription({ type: 'answer', sdp });
      if (this.pc !== pc || gen !== this.gen) return;
      this.note('restarted', {});
      const r = await this.send({ type: 'voice', action: 'answer', sdp });
      if (r.type === 'error' && this.pc === pc) this.fail(r.code, r.message);
    } catch {
      if (this.pc === pc) this.fail('voice_bad_signal');
    }
  }

  /** unlock lets the page play sound later (called in a tap). */
  unlock() {
    try {
      if (!this.ctx) this.ctx = new AudioContext();
      if (this.ctx.state === 'suspended') this.ctx.resume();
    } catch { /* no Web Audio: no level meter */ }
    if (this.audio.srcObject) this.play();
  }

  play() {
    const p = this.audio.play();
    if (p && p.then) {
      p.then(() => { if (this.blocked) { this.blocked = false; this.redraw(); } },
        () => { if (!this.blocked) { this.blocked = true; this.redraw(); } });
    }
  }

  /** meterOn measures the microphone's level for its meter. */
  meterOn() {
    if (!this.stream) return;
    try {
      if (!this.ctx) this.ctx = new AudioContext();
      const an = this.ctx.createAnalyser();
      an.fftSize = 512;
      this.ctx.createMediaStreamSource(this.stream).connect(an);
      const buf = new Float32Array(an.fftSize);
      clearInterval(this.levelTimer);
      this.levelTimer = setInterval(() => {
        an.getFloatTimeDomainData(buf);
        let sum = 0;
        for (const x of buf) sum += x * x;
        this.loudness = Math.min(1, Math.sqrt(sum / buf.length) * 4);
        // Written only when it moves: each write restarted the bar's
        // transition, and the page drew frames ten times a second in
        // silence too.
        const width = `${Math.round(this.loudness * 100)}%`;
        if (this.meter.style.width !== width) this.meter.style.width = width;
      }, 100);
    } catch { /* no Web Audio: no meter */ }
  }

  /** statsOn reads, now and then, whose sound comes in (the seats' marks). */
  statsOn() {
    clearInterval(this.statsTimer);
    const pc = this.pc;
    this.statsTimer = setInterval(async () => {
      if (this.pc !== pc) return;
      const now = new Set();
      try {
        const stats = await pc.getStats();
        stats.forEach((r) => {
          if (r.type === 'inbound-rtp' && r.kind === 'audio' && (r.audioLevel || 0) > SOUNDING) {
            const seat = this.seats.get(r.mid);
            if (seat) now.add(seat);
          }
        });
      } catch { return; }
      const same = now.size === this.sounding.size && [...now].every((s) => this.sounding.has(s));
      if (!same) {
        this.sounding = now;
        this.redraw();
      }
    }, STATS_EVERY);
  }

  /** teardown ends the WebRTC connection (and, with all, the microphone). */
  teardown(all) {
    clearInterval(this.statsTimer);
    clearTimeout(this.iceTimer);
    this.restarting = false;
    this.restarts = 0;
    if (this.pc) {
      this.pc.close();
      this.pc = null;
    }
    this.seats.clear();
    this.tracks.clear();
    this.sounding = new Set();
    this.heard = null;
    this.audio.srcObject = null;
    if (all) {
      this.gen++;
      clearInterval(this.levelTimer);
      if (this.stream) for (const tr of this.stream.getTracks()) tr.stop();
      this.stream = null;
      this.sending = false;
      this.loudness = 0;
    }
  }

  /** destroy ends everything (the screen closes). */
  destroy() {
    this.teardown(true);
    if (navigator.connection && navigator.connection.removeEventListener) navigator.connection.removeEventListener('change', this.onNetwork);
    window.removeEventListener('online', this.onNetwork);
    if (this.ctx) this.ctx.close().catch(() => {});
  }
}

/** reasonOf is why the player is not heard now (a key of web.voice.muted),
 * or '' when they are. */
function reasonOf(st, voice) {
  const heard = voice.heard || [];
  if (st.seat && heard.includes(st.seat)) return '';
  const v = st.view;
  if (st.paused) return 'paused';
  if (!v || !v.phase) return 'lobby';
  if (v.phase === 'night') return 'night';
  if (v.phase === 'vote' || v.phase === 'revote' || v.phase === 'all_vote') return 'vote';
  if (v.speaker && v.speaker !== st.seat) return 'floor';
  if (v.speaker === st.seat) return 'foul'; // the floor is this seat's, and it is cut
  return 'step';
}

/** renderVoice draws the voice panel: the buttons, the state, and the
 * microphone's level (at a table where this page may use the voice:
 * table.js's voiceAt, which decides whether this module is loaded). */
export function renderVoice(st, voice) {
  const out = [];
  const listenOnly = !st.seat;
  const heard = voice.heard || [];
  let text = '';
  let cls = voice.status;
  if (voice.status === 'off') {
    text = t(listenOnly ? 'web.voice.off_listen' : 'web.voice.off');
  } else if (voice.status === 'connecting') {
    text = t('web.voice.connecting');
  } else if (voice.status === 'failed') {
    text = t('web.voice.failed', { Why: voice.failText || t(`web.voice.why.${voice.why === 'ice' || voice.why === 'network' ? voice.why : 'setup'}`) });
  } else if (!voice.sending) {
    const speakers = heard.filter((s) => s !== st.seat);
    text = speakers.length ? t('web.voice.listening') : t('web.voice.silence');
  } else {
    const why = voice.heard === null ? 'step' : reasonOf(st, voice);
    if (!why) {
      cls = 'on mine';
      text = st.view && st.view.phase && st.view.phase !== 'ended' ? t('web.voice.your_floor') : t('web.voice.everyone');
    } else {
      cls = 'on muted';
      text = t(`web.voice.muted.${why}`, { Seat: (st.view && st.view.speaker) || 0 });
    }
  }
  out.push(h('p', { class: `voice-state ${cls}`, id: 'voice-state', 'data-status': voice.status, role: 'status' }, text));
  if (voice.why === 'no_mic' && voice.status !== 'failed') out.push(h('p', { class: 'note', id: 'voice-no-mic' }, t('web.voice.no_mic')));
  const b = voice.buttons;
  const label = (el, text) => {
    const span = el.lastChild;
    if (span.textContent !== text) span.textContent = text;
    return el;
  };
  if (voice.blocked) out.push(label(b.play, t('web.voice.tap_to_hear')));
  const row = [];
  if (voice.status === 'off' || voice.status === 'failed') {
    if (!listenOnly) row.push(label(b.mic, t('web.voice.talk')));
    row.push(label(b.listen, t('web.voice.listen')));
  } else {
    row.push(label(b.leave, t('web.voice.leave')));
    if (voice.sending) {
      voice.level.setAttribute('aria-label', t('web.voice.level'));
      row.push(voice.level);
    }
  }
  out.push(h('div', { class: 'row wrap voice-buttons' }, row));
  return out;
}
