// The host's page kept on the phone: a service worker for /host/ (served as
// /host/sw.js, with VERSION, PAGE and FILES set above this line by the
// server). It keeps the page, its scripts and styles and the engine module
// of one version in a cache of that version, so the page opens, reloads
// and makes games while the server cannot be reached. The API
// (/host/api/...) is never cached: entries wait in IndexedDB and sync.js
// sends them. A new version installs its own cache, takes over at once and
// deletes the old one.

/* global VERSION, PAGE, FILES */

const CACHE = `assist-${VERSION}`;
const PREFIX = 'assist-';
const STATIC = `/host/static/${VERSION}/`;
// How long a page load may wait for the server before the kept page is
// shown (a venue's network may hang instead of failing).
const PAGE_WAIT = 4000;

// plain copies a response to keep: the body as the browser decoded it (the
// engine module travels gzipped), the headers without the encoding and the
// length, which no longer describe that body.
async function plain(res) {
  const headers = new Headers(res.headers);
  headers.delete('Content-Encoding');
  headers.delete('Content-Length');
  return new Response(await res.arrayBuffer(), { status: 200, statusText: 'OK', headers });
}

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    for (const url of [PAGE, ...FILES]) {
      const res = await fetch(new Request(url, { cache: 'reload', credentials: 'same-origin' }));
      if (!res.ok) throw new Error(`${url}: ${res.status}`);
      await cache.put(url, await plain(res));
    }
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

// page answers a load of the page: the server's page when it answers in
// time, else the kept one.
async function page(req) {
  const cache = await caches.open(CACHE);
  let timer;
  const late = new Promise((resolve) => { timer = setTimeout(() => resolve(null), PAGE_WAIT); });
  try {
    const res = await Promise.race([fetch(req), late]);
    if (res && res.status < 500) return res;
  } catch (_) {
    // no connection: the kept page
  } finally {
    clearTimeout(timer);
  }
  return (await cache.match(PAGE)) || Response.error();
}

// kept answers a file of this version from the cache (it never changes),
// from the network if it is missing.
async function kept(req, path) {
  const hit = await caches.match(path, { cacheName: CACHE });
  return hit || fetch(req);
}

self.addEventListener('fetch', (event) => {
  const req = event.request;
  if (req.method !== 'GET') return;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin || url.pathname.startsWith('/host/api/')) return;
  if (req.mode === 'navigate' && url.pathname === PAGE) {
    event.respondWith(page(req));
  } else if (url.pathname.startsWith(STATIC)) {
    event.respondWith(kept(req, url.pathname));
  }
});
