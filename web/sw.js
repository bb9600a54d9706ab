/* The service worker: the page and its rule data, kept for use without a connection.
 *
 * Served by web_api/page.py at /web/sw.js (scope /), which fills in the three values below:
 * the versioned files of this deploy, and versions that change with those files and with
 * the service's rule data. A new version installs a new worker, which caches afresh (the
 * rule data the old one held is fetched again) and drops the old caches.
 *
 *   the page and its files   cache first (their URLs carry a content hash); what the page loads only when
 *                            asked (the send sheet and its QR encoder, web_api/page.py LAZY) is not fetched
 *                            on install but kept here the first time it is used
 *   GET /v1/variants*, /v1/matrix   cache first within a data version (fetched on first use)
 *   /web/engine/<version>/*   cache first (the page keeps them there, with the engine's worker script;
 *                             their URLs carry a version). The engine's worker keeps in the same cache
 *                             the memory snapshot of its first start (snapshot.bin), so it goes with them.
 *   everything else (rulings, scores)   the network, untouched
 */
'use strict';

const VERSION = '__VERSION__';
const DATA_VERSION = '__DATA_VERSION__';
const SHELL = ['__SHELL__'];
const SHELL_CACHE = `cr-shell-${VERSION}`;
const DATA_CACHE = `cr-data-${DATA_VERSION}`;
const ENGINE = '__ENGINE__'; // the offline engine's version ('' when the server has none)
const ENGINE_CACHE = `cr-engine-${ENGINE}`; // filled by the page (web/engine.js), with its progress shown
const MATCH = { ignoreVary: true };

function isData(url) {
  return url.pathname === '/v1/matrix' || url.pathname === '/v1/variants' || url.pathname.startsWith('/v1/variants/');
}

/** The rule data the previous worker held, fetched again for this version (best effort). */
async function refillData() {
  const names = (await caches.keys()).filter((n) => n.startsWith('cr-data-') && n !== DATA_CACHE);
  const target = await caches.open(DATA_CACHE);
  for (const name of names) {
    const old = await caches.open(name);
    for (const request of await old.keys()) {
      try {
        const response = await fetch(request.url, { cache: 'no-store' });
        if (response.ok) await target.put(request.url, response);
      } catch (e) { /* offline: fetched on first use instead */ }
    }
  }
}

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(SHELL_CACHE);
    // The HTTP cache may answer: the files' URLs carry their content hash, and the page has just
    // loaded them, so a first visit does not download them twice.
    await cache.addAll(SHELL);
    await refillData();
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    const keep = [SHELL_CACHE, DATA_CACHE, ENGINE_CACHE];
    await Promise.all((await caches.keys()).filter((n) => n.startsWith('cr-') && !keep.includes(n)).map((n) => caches.delete(n)));
    await self.clients.claim();
  })());
});

/**
 * From the cache, else from the network and kept. `streamed` (an event): the response is handed on as its
 * bytes arrive and kept meanwhile (the engine's megabytes: the page counts them as they come, for its
 * progress and time left), instead of once it is whole and kept.
 */
async function cacheFirst(cacheName, request, key, fallbackAnySearch, streamed) {
  const cache = await caches.open(cacheName);
  const hit = await cache.match(key || request, MATCH);
  if (hit) return hit;
  try {
    const response = await fetch(request);
    if (response.ok) {
      const kept = cache.put(key || request, response.clone());
      if (streamed) streamed.waitUntil(kept.catch(() => {})); else await kept;
    }
    return response;
  } catch (offline) {
    // Offline, the rule data in another language is better than none (quotes are never translated).
    const other = fallbackAnySearch && await cache.match(key, { ignoreVary: true, ignoreSearch: true });
    if (other) return other;
    throw offline;
  }
}

/** A source text is the same in every language: one entry for it. */
function dataKey(url) {
  return url.pathname.endsWith('/source') ? url.pathname : url.pathname + url.search;
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === 'navigate' && url.pathname === '/') {
    event.respondWith(cacheFirst(SHELL_CACHE, request, '/'));
  } else if (/^\/web\/.+\.[0-9a-f]{10}\.[a-z0-9]+$/.test(url.pathname)) {
    event.respondWith(cacheFirst(SHELL_CACHE, request, url.pathname));
  } else if (ENGINE && url.pathname.startsWith(`/web/engine/${ENGINE}/`)) {
    event.respondWith(cacheFirst(ENGINE_CACHE, request, url.pathname, false, event));
  } else if (isData(url)) {
    event.respondWith(cacheFirst(DATA_CACHE, request, dataKey(url), true));
  }
});
