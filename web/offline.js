/* Offline first: the service worker keeps the page and the rule data; this module registers it,
 * fills its cache with what reading the rules needs, and says when the connection is gone.
 */
import { cache, isOffline, loadVariants, matrix, probe, sourceText } from './api.js';
import { byId } from './dom.js';
import { engine } from './engine.js';
import { t } from './i18n.js';
import { emit, net, on } from './store.js';

function register() {
  if (!('serviceWorker' in navigator)) return;
  const meta = document.querySelector('meta[name="service-worker"]');
  if (!meta) return;
  navigator.serviceWorker.register(meta.content, { scope: '/' }).catch(() => { /* the page works without it, online */ });
}

/**
 * Resolves once the worker controls the page (at once on a repeat visit), or after `ms`.
 * On a first visit the rule data is fetched only then, so it passes through the worker's
 * cache instead of being downloaded twice.
 */
function whenControlled(ms) {
  if (!('serviceWorker' in navigator) || navigator.serviceWorker.controller) return Promise.resolve();
  return new Promise((resolve) => {
    navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true });
    setTimeout(resolve, ms);
  });
}

/**
 * Fetch what the rules view and the open-point questions need, so the worker keeps it: the
 * matrix in the reader's language and every source text. Done once the first screen is up.
 */
async function warm() {
  try {
    await whenControlled(8000);
    // All asked at once, each a round trip on a slow link: the variants once more (now through the
    // worker's cache), the matrix, every source text (the page knows the variants from its first screen).
    const again = firstWarm ? null : loadVariants();
    firstWarm = true;
    const texts = Promise.all(cache.variants.map((v) => sourceText(v.id)));
    await Promise.all([again, matrix().then(() => emit('data-changed')), texts]);
  } catch (e) { /* offline or refused: tried again on the next visit */ }
}

let firstWarm = false;

function showStatus() {
  const line = byId('net-status');
  if (!line) return;
  line.hidden = !isOffline();
  line.textContent = isOffline() ? t(engine.waking() ? 'net.offlineWaking' : engine.ready() ? 'net.offlineEngine' : 'net.offline') : '';
}

/** The service was reached, or not: say so; when it is back, send what waits and refill the rule data. */
function reachChanged(ok) {
  showStatus();
  if (ok) { emit('connection-back'); warm(); } else engine.warm();
}

function start() {
  register();
  showStatus();
  window.addEventListener('offline', () => { showStatus(); engine.warm(); });
  window.addEventListener('online', () => { showStatus(); probe(); });
  document.addEventListener('visibilitychange', () => { if (!document.hidden && navigator.onLine) probe(); });
  // A round saved offline is scored as soon as the service answers again, even without an 'online' event.
  setInterval(() => { if (navigator.onLine) { if (net.reachable) emit('connection-back'); else probe(); } }, 15000);
  on('reach', reachChanged);
  // "offline" says the phone rules and scores once the engine is kept, started and has ruled once
  on('engine', showStatus);
  on('engine-awake', showStatus);
  if (navigator.serviceWorker && navigator.serviceWorker.controller) firstWarm = true; // this visit's data came through it
  probe();
  return warm();
}

export const offline = { start, showStatus, warm };
