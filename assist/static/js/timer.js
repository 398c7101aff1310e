// The speech clock: a large countdown the host starts, pauses, resumes and
// ends early, with a sound at 10 seconds left and at 0. Its state lives in
// the game's record (rec.ui.timer), so a redraw or a reload does not restart
// it; it belongs to one step (key) of the game.

import { h } from './dom.js';
import { button } from './ui.js';
import { t } from './i18n.js';

let audio = null;
let ticker = null;
// The AudioContext runs only while it sounds: a running one renders silence
// without end (an audio thread woken hundreds of times a second), a phone's
// battery for nothing. Each beep resumes it and it is suspended again just
// after (the host's tap that unlocked it still allows the resume).
let idle = null;
// For the tests: the context's state, and how many beeps resumed it.
window.__assistAudio = () => (audio ? audio.state : 'none');
window.__assistResumed = 0;
function rest(afterS) {
  clearTimeout(idle);
  idle = setTimeout(() => { if (audio && audio.state === 'running') audio.suspend().catch(() => {}); }, afterS * 1000 + 250);
}

/** Beeps: high and short at 10 s, low and long at 0; the phone vibrates
 * too (short at 10 s, twice at 0), for a host whose phone is silent.
 * Tests read window.__assistBeeps. */
export function beep(kind) {
  (window.__assistBeeps = window.__assistBeeps || []).push(kind);
  try {
    if (navigator.vibrate) navigator.vibrate(kind === 'end' ? [400, 150, 400] : 200);
  } catch (_) { /* no vibration on this device */ }
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    if (audio.state === 'suspended') audio.resume().then(() => { window.__assistResumed++; }, () => {});
    const o = audio.createOscillator();
    const g = audio.createGain();
    o.frequency.value = kind === 'end' ? 440 : 880;
    g.gain.value = 0.25;
    o.connect(g).connect(audio.destination);
    o.start();
    o.stop(audio.currentTime + (kind === 'end' ? 0.9 : 0.2));
    rest(kind === 'end' ? 0.9 : 0.2);
  } catch (_) { /* no audio on this device */ }
}

/** Unlocks audio on a phone: call from a tap. */
export function unlockAudio() {
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    if (audio.state === 'suspended') audio.resume().then(() => rest(0), () => {});
    else rest(0);
  } catch (_) { /* no audio */ }
}

const now = () => Date.now();

// Live co-hosting: told(tm) whenever the host starts, pauses, resumes or
// ends a clock, so that a referee's phone follows at once (cohost.js).
let listener = null;
/** Calls fn(timer) at each start, pause, resume and end of a clock (null: nobody). */
export function onClock(fn) { listener = fn; }
function told(tm) { if (listener) listener(tm); }

// A double tap on "End" ends one speech. The End tap names the speech it
// ends (its step key); the second tap of a double tap lands on the next
// speaker's End, drawn under the finger, and a phone reports it as a tap
// of its own (a click count of one) once the taps are further apart than
// its double-tap timeout (300 ms on Android), so the count (ui.js, guard)
// does not catch it. A tap on End that continues the gesture of the End
// tap before it (on the same spot, its finger down within DOUBLE_TAP_MS of
// that tap's, no tap elsewhere between) is for the speech that tap ended,
// already over: it does nothing. A tap elsewhere ends the gesture.
const DOUBLE_TAP_MS = 500; // the longest interval platforms count as a double click
const DOUBLE_TAP_PX = 24; // a finger's second tap lands about where its first did
let lastDown = null; // where and when the last tap's finger came down
let lastEnd = null; // the last End tap: {key, x, y, at}
document.addEventListener('pointerdown', (e) => { lastDown = { x: e.clientX, y: e.clientY, at: e.timeStamp }; }, true);
document.addEventListener('click', (e) => {
  if (!(e.target instanceof Element) || !e.target.closest('[data-t="end"]')) lastEnd = null;
}, true);

/** Wraps onEnd, the end of speech key: a tap continuing the last End tap's gesture does nothing. */
function endOf(key, onEnd) {
  return (e) => {
    const d = lastDown;
    if (lastEnd && lastEnd.key !== key && d && d.at - lastEnd.at < DOUBLE_TAP_MS
      && Math.abs(d.x - lastEnd.x) <= DOUBLE_TAP_PX && Math.abs(d.y - lastEnd.y) <= DOUBLE_TAP_PX) return undefined;
    lastEnd = d ? { key, ...d } : null;
    return onEnd(e);
  };
}

function left(tm) {
  return tm.running ? Math.max(0, tm.until - now()) : tm.left;
}

/** Writes milliseconds left as the clock shows them ("0:59"). */
export function fmt(ms) {
  const s = Math.ceil(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** Stops the ticking of whatever clock is shown. */
export function stopTicking() {
  clearInterval(ticker);
  ticker = null;
}

/**
 * Draws the clock for step key lasting seconds. ui is rec.ui (saved by
 * save()); onEnd ends the step (the host's "next"; it stops the ticking).
 */
export function clock(ui, key, seconds, save, onEnd, endLabel) {
  stopTicking();
  if (!ui.timer || ui.timer.key !== key) {
    ui.timer = { key, total: seconds * 1000, left: seconds * 1000, running: true, until: now() + seconds * 1000, warned: false, ended: false };
    save();
    told(ui.timer);
  }
  const tm = ui.timer;
  const wrap = h('div', { class: 'timer' });
  const pause = button('', () => {
    if (tm.running) { tm.left = left(tm); tm.running = false; } else { tm.until = now() + tm.left; tm.running = true; }
    save();
    told(tm);
    draw();
  }, 'secondary', 'pause');
  const { face, bar, draw } = ticking(tm, save, wrap, (ms) => {
    const label = tm.running ? t('assist.timer.pause') : t('assist.timer.resume');
    if (pause.textContent !== label) pause.textContent = label;
    void ms;
  });
  const end = button(endLabel || t('assist.timer.end'), endOf(key, onEnd), 'primary', 'end');
  end.dataset.speech = key; // the speech this End ends
  wrap.append(face, h('div', { class: 'clock-track' }, bar), h('div', { class: 'row' }, pause, end));
  return wrap;
}

/**
 * The clock of step key, small and without its buttons, for a screen over
 * the speech (the fouls, the choice of a nominee): it goes on ticking, with
 * its signals, so the host keeps the time in view. Null when the step has
 * no clock running.
 */
export function miniClock(ui, key, save) {
  stopTicking();
  const tm = ui.timer;
  if (!tm || tm.key !== key) return null;
  const wrap = h('div', { class: 'timer mini' });
  const { face, bar } = ticking(tm, save, wrap, () => {});
  wrap.append(face, h('div', { class: 'clock-track' }, bar));
  return wrap;
}

// ticking makes a clock's face and bar for timer tm and keeps them ticking
// (with the signals at 10 s and at 0) while the face is on the page.
function ticking(tm, save, wrap, also) {
  const face = h('div', { class: 'clock', dataset: { t: 'clock' } });
  const bar = h('div', { class: 'clock-bar' });
  // Each tick writes only what changed, and the bar moves by whole pixels
  // of its track: a write, even of the value already there, made the page
  // work out its styles and lay out again five times a second for as long
  // as a clock ran (a phone's battery; in the browser tests, the renderer's
  // CPU at a speech: 50 layouts in 10 s, now about one a second).
  const drawn = {};
  const put = (key, value, write) => { if (drawn[key] !== value) { drawn[key] = value; write(value); } };
  const draw = () => {
    const ms = left(tm);
    put('face', fmt(ms), (x) => { face.textContent = x; });
    put('warn', ms <= 10000, (x) => face.classList.toggle('warn', x));
    put('zero', ms === 0, (x) => face.classList.toggle('zero', x));
    put('paused', !tm.running && ms > 0, (x) => face.classList.toggle('paused', x)); // the end is no pause: 0:00 stays bright
    const track = bar.parentElement ? bar.parentElement.clientWidth : 0;
    const px = track > 0 ? Math.round(track * (window.devicePixelRatio || 1)) : 1000;
    put('width', `${(Math.round((ms / tm.total) * px) / px * 100).toFixed(2)}%`, (x) => { bar.style.width = x; });
    put('done', ms === 0, (x) => wrap.classList.toggle('clock-done', x));
    also(ms);
    if (!tm.warned && ms <= 10000 && ms > 0 && tm.total > 10000) { tm.warned = true; save(); beep('warn'); }
    if (!tm.ended && ms === 0) { tm.ended = true; tm.left = 0; tm.running = false; save(); told(tm); beep('end'); draw(); }
  };
  draw();
  ticker = setInterval(() => { if (!document.body.contains(face)) stopTicking(); else draw(); }, 200);
  return { face, bar, draw };
}
