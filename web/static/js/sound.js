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
export const played = { warn: 0, end: 0, turn: 0, nominated: 0, night: 0, morning: 0, sounded: 0, vibrated: 0, resumed: 0 };

// played.audio is the audio context's state ('none' before the first touch,
// then 'running' or 'suspended'): for the tests.
Object.defineProperty(played, 'audio', { get: () => (ctx ? ctx.state : 'none') });

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

// A running AudioContext renders silence without end (an audio thread
// woken hundreds of times a second, and the system's audio output kept
// open): on a phone that is battery for nothing. So the context runs only
// while it sounds: unlocked by the first touch, it is suspended once the
// touch's moment has passed, resumed for each signal (the touch already
// given allows it) and suspended again shortly after the signal's last
// tone. unlocked says the player's touch came (a signal may then sound).
let unlocked = false;
let idle = null; // the timer that suspends the context after a signal
function rest(afterS) {
  clearTimeout(idle);
  idle = setTimeout(() => { if (ctx && ctx.state === 'running') ctx.suspend().catch(() => {}); }, afterS * 1000 + 250);
}

function unlock() {
  try {
    if (!ctx) ctx = new (window.AudioContext || window.webkitAudioContext)();
    if (unlocked) return;
    if (ctx.state === 'suspended') ctx.resume().then(() => { unlocked = true; rest(0); }, () => {});
    else { unlocked = true; rest(0); }
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
  if (muted || !ctx || !unlocked || ctx.state === 'closed') return;
  played.sounded++;
  if (ctx.state === 'suspended') ctx.resume().then(() => { played.resumed++; }, () => {});
  const now = ctx.currentTime + 0.01;
  rest(1.5); // the longest signal's tones end within 1.5 s
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
