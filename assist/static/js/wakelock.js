// The screen wake lock while a game is open, so that the phone's screen
// (and the speech clock on it) does not go dark in the middle of a speech.
// The browser drops the lock whenever the page is hidden; it is asked for
// again each time the page is shown. A browser without the API, or one
// that refuses the lock (battery saver, no permission), is left alone:
// nothing is said, and the game goes on.

let wanted = false;
let sentinel = null;
let asking = false;

async function ask() {
  if (!wanted || asking || (sentinel && !sentinel.released)) return;
  if (!navigator.wakeLock || typeof navigator.wakeLock.request !== 'function') return;
  if (document.visibilityState !== 'visible') return;
  asking = true;
  try {
    sentinel = await navigator.wakeLock.request('screen');
    window.__assistWakeLock = sentinel; // for tests
    if (!wanted) { sentinel.release().catch(() => {}); sentinel = null; }
  } catch (_) {
    sentinel = null; // refused: the screen may go dark, as without the API
  } finally {
    asking = false;
  }
}

document.addEventListener('visibilitychange', () => { ask(); });

/** Keeps the screen on (a game is open) or lets it go dark again. */
export function keepAwake(on) {
  wanted = on;
  if (on) { ask(); return; }
  if (sentinel) { sentinel.release().catch(() => {}); sentinel = null; }
}
