/* Offline first: the service worker keeps the page and the rule data; this module registers it,
 * fills its cache with what reading the rules needs, and says when the connection is gone.
 */
(function () {
  'use strict';

  const A = window.CanastaReferee;
  const t = (...args) => A.t(...args);
  const PROBE_TIMEOUT_MS = 8000;

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
      if (!firstWarm) { firstWarm = true; await A.loadVariants(); } // once more, now through the worker's cache
      await A.matrix();
      ['settle', 'score'].forEach((v) => A.views[v].dataChanged());
      await Promise.all(A.cache.variants.map((v) => A.sourceText(v.id)));
    } catch (e) { /* offline or refused: tried again on the next visit */ }
  }

  let firstWarm = false;
  // Whether the service answered the last time the page asked. navigator.onLine alone is not enough:
  // it stays true on a captive portal, a dead mobile connection or behind a cut-off access point.
  let reachable = true;

  function isOffline() { return !navigator.onLine || !reachable; }

  function showStatus() {
    const line = A.byId('net-status');
    if (!line) return;
    line.hidden = !isOffline();
    line.textContent = isOffline() ? t(A.engine.ready() ? 'net.offlineEngine' : 'net.offline') : '';
  }

  /** What a request found out: `true` the service answered, `false` nothing answered. */
  function reached(ok) {
    const was = reachable;
    reachable = Boolean(ok);
    if (was === reachable) return;
    showStatus();
    if (reachable) { A.views.score.connectionBack(); warm(); } else A.engine.warm();
  }

  /**
   * Ask the service itself (not the worker's cache, which answers the page's own files and rule
   * data without a connection) whether it is there. Cheap: /healthz is a few bytes.
   */
  async function probe() {
    const stop = new AbortController();
    const timer = setTimeout(() => stop.abort(), PROBE_TIMEOUT_MS);
    try {
      const response = await fetch('/healthz', { cache: 'no-store', signal: stop.signal });
      await response.arrayBuffer(); // read to the end: the connection is free again
      reached(response.ok || response.status < 500);
    } catch (e) {
      reached(false);
    } finally {
      clearTimeout(timer);
    }
  }

  function start() {
    register();
    showStatus();
    window.addEventListener('offline', showStatus);
    window.addEventListener('online', () => { showStatus(); probe(); });
    document.addEventListener('visibilitychange', () => { if (!document.hidden && navigator.onLine) probe(); });
    // A round saved offline is scored as soon as the service answers again, even without an 'online' event.
    setInterval(() => { if (navigator.onLine) { if (reachable) A.views.score.connectionBack(); else probe(); } }, 15000);
    if (navigator.serviceWorker && navigator.serviceWorker.controller) firstWarm = true; // this visit's data came through it
    probe();
    return warm();
  }

  A.offline = { start, showStatus, warm, reached, probe, isOffline };
}());
