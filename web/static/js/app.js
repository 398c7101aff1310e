// app.js: the page as a phone's app (issue 28, "What to build" item 5): it
// registers the service worker (/sw.js: web/app.go), which shows a page
// that says the game needs the network when the phone has none, and tells
// it the page's language; and it keeps the screen awake while a game goes
// on (the Screen Wake Lock API), taking the lock again when the page is
// shown again (a phone releases it when the page is hidden) and letting it
// go at the end.

/** installApp registers the service worker and tells it language lang. */
export function installApp(lang) {
  if (!('serviceWorker' in navigator)) return;
  navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => { /* the page works without it */ });
  appLang(lang);
}

/** appLang tells the service worker the page's language (its offline
 * page is drawn in it). */
export function appLang(lang) {
  if (!('serviceWorker' in navigator)) return;
  navigator.serviceWorker.ready.then((reg) => {
    if (reg.active) reg.active.postMessage({ lang });
  }).catch(() => {});
}

// The wake lock: wanted while a game goes on; the sentinel while held.
const wake = { want: false, lock: null, asking: false, requests: 0, releases: 0 };

// For the tests: what the page asked of the wake lock.
window.__mafiaWake = wake;

async function take() {
  if (!wake.want || wake.lock || wake.asking || !('wakeLock' in navigator) || document.visibilityState !== 'visible') return;
  wake.asking = true;
  wake.requests++;
  try {
    const lock = await navigator.wakeLock.request('screen');
    wake.lock = lock;
    lock.addEventListener('release', () => { if (wake.lock === lock) wake.lock = null; });
    if (!wake.want) release();
  } catch {
    // refused (a saver mode, a browser without it): the game goes on
  } finally {
    wake.asking = false;
  }
}

function release() {
  const lock = wake.lock;
  wake.lock = null;
  if (lock) {
    wake.releases++;
    lock.release().catch(() => {});
  }
}

/** keepAwake keeps the screen awake (on) or lets it sleep. */
export function keepAwake(on) {
  wake.want = !!on;
  if (wake.want) take();
  else release();
}

document.addEventListener('visibilitychange', () => { if (document.visibilityState === 'visible') take(); });
