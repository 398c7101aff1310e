// sound.js: the soft signals of a speech's clock (10 s before its end, and
// at its end), made with Web Audio: no sound files. A browser lets a page
// sound only after the player has touched it, so the first touch or key
// unlocks the audio. The mute switch is remembered.

let ctx = null;
let muted = localStorage.getItem('mafia.muted') === '1';

/** played counts the signals given, by kind, and sounded those that made a
 * sound (not muted, audio unlocked): for the tests. */
export const played = { warn: 0, end: 0, sounded: 0 };

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

/** signal gives the warning ('warn': one soft tone) or the end of a speech
 * ('end': two falling tones), unless muted. */
export function signal(kind) {
  played[kind] = (played[kind] || 0) + 1;
  if (muted || !ctx || ctx.state !== 'running') return;
  played.sounded++;
  const now = ctx.currentTime + 0.01;
  if (kind === 'warn') {
    beep(now, 660, 0.35);
  } else {
    beep(now, 587, 0.3);
    beep(now + 0.32, 440, 0.45);
  }
}
