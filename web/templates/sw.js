// The player's page's service worker (web/app.go serves it at /sw.js, with
// VERSION, LANGS and SHELL written above this code). It touches nothing of
// the game: the API, the table's socket and the host's assistant
// (/host/, which has its own worker) always go to the network, and
// nothing is cached but the offline page (one per language) and the files
// it shows. A page asked for with no network gets the offline page, in the
// language the page last told the worker (else Georgian, the club's).

const CACHE = `mafia-app-${VERSION}`;
const offlineURL = (l) => `/offline?lang=${l}`;
let lang = '';

self.addEventListener('install', (ev) => {
  ev.waitUntil(caches.open(CACHE)
    .then((c) => c.addAll([...SHELL, ...LANGS.map(offlineURL)]))
    .then(() => self.skipWaiting()));
});

self.addEventListener('activate', (ev) => {
  ev.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k.startsWith('mafia-app-') && k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

self.addEventListener('message', (ev) => {
  const l = ev.data && ev.data.lang;
  if (!LANGS.includes(l)) return;
  lang = l;
  ev.waitUntil(caches.open(CACHE).then((c) => c.put('/offline-lang', new Response(l))));
});

async function pageLang() {
  if (!lang) {
    const kept = await caches.match('/offline-lang');
    lang = kept ? await kept.text() : '';
  }
  return LANGS.includes(lang) ? lang : LANGS[0];
}

self.addEventListener('fetch', (ev) => {
  const req = ev.request;
  if (req.method !== 'GET') return;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin) return;
  const p = url.pathname;
  if (p.startsWith('/api/') || p.startsWith('/host/') || p === '/healthz') return; // the game's: the network's alone
  if (req.mode === 'navigate') {
    ev.respondWith(fetch(req).catch(async () => (await caches.match(offlineURL(await pageLang()))) || Response.error()));
    return;
  }
  if (SHELL.includes(p)) ev.respondWith(caches.match(req).then((hit) => hit || fetch(req)));
});
