// sound.js: the soft signals of a speech's clock (10 s before its end, and
// at its end) and of the game's moments (your floor, your nomination, the
// night, the morning), made with Web Audio: no sound files; on a phone
// that can, the moments also vibrate, unless the player turned it off. A browser lets a page
// sound only after the player has touched it, so the first touch or key
// unlocks the audio. The mute switch is remembered.

let ctx = null;
let muted = localStorage.getItem('mafia.muted') === '1';

/** played counts the signals given, by kind, and sounded those that made a
 * sound (not muted, audio unlocked): for the tests. */
export const played = { warn: 0, end: 0, turn: 0, nominated: 0, night: 0, morning: 0, sounded: 0, vibrated: 0 };

let buzz = localStorage.getItem('mafia.vibrate') !== '0';

/** vibrates reports whether the moments vibrate (on where the phone can). */
export function vibrates() { return buzz; }

export function setVibrate(on) {
  buzz = on;
  localStorage.setItem('mafia.vibrate', on ? '1' : '0');
}

// The tones and the vibration of each moment.
const MOMENTS = {
  turn: { tones: [[523, 0.18], [784, 0.3]], buzz: [120, 60, 120] },
  nominated: { tones: [[698, 0.25]], buzz: [200] },
  night: { tones: [[392, 0.3], [294, 0.5]], buzz: [60] },
  morning: { tones: [[440, 0.2], [659, 0.4]], buzz: [60] },
};

export function isMuted() { return muted; }

export function setMuted(m) {
  muted = m;
  localStorage.setItem('mafia.muted', m ? '1' : '0');
}

function unlock() {
  try {
    if (!ctx) ctx = new (window.AudioContext || window.webkitAudioContext)();
    if (ctx.state === 'suspended') ctx.resume();
  } catch {
    ctx = null;
  }
}
window.addEventListener('pointerdown', unlock, { passive: true });
window.addEventListener('keydown', unlock);

function beep(at, freq, length) {
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.type = 'sine';
  osc.frequency.value = freq;
  gain.gain.setValueAtTime(0.0001, at);
  gain.gain.exponentialRampToValueAtTime(0.12, at + 0.03);
  gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
  osc.connect(gain).connect(ctx.destination);
  osc.start(at);
  osc.stop(at + length + 0.05);
}

/** signal gives the warning ('warn': one soft tone), the end of a speech
 * ('end': two falling tones) or a moment ('turn', 'nominated', 'night',
 * 'morning'), unless muted. */
export function signal(kind) {
  played[kind] = (played[kind] || 0) + 1;
  const m = MOMENTS[kind];
  if (m && buzz && !muted && navigator.vibrate) {
    try { if (navigator.vibrate(m.buzz)) played.vibrated++; } catch { /* not allowed */ }
  }
  if (muted || !ctx || ctx.state !== 'running') return;
  played.sounded++;
  const now = ctx.currentTime + 0.01;
  if (m) {
    let at = now;
    for (const [freq, length] of m.tones) {
      beep(at, freq, length);
      at += length + 0.02;
    }
  } else if (kind === 'warn') {
    beep(now, 660, 0.35);
  } else {
    beep(now, 587, 0.3);
    beep(now + 0.32, 440, 0.45);
  }
}
