/* The referee on the phone: keeps the offline engine (web/engine-worker.js) and asks it without signal.
 *
 * <meta name="engine"> says where the engine's files are, their sizes and their bytes on the wire (no
 * meta: the server has no engine, the page rules online only and says so). After the first screen
 * they are fetched at once, in the background, into the cache the service worker answers from, the
 * progress and the time left (from the rate so far) said in words; on a connection that saves data,
 * only after a tap. Then, once the reader leaves the page be, the worker prepares the engine once
 * (data-prepared): it keeps a memory snapshot of its first start, so later starts take a second. Without signal the engine
 * is woken at once (when the page opens, when the signal goes, at the first touch) and rules once; until it has, the
 * page does not say it is ready without signal but that it is waking it (here, in the offline line, and where an
 * answer asked meanwhile will appear: busy.js), so a question asked after "ready" is answered at a warm speed.
 */
import { ApiError } from './api-error.js';
import { byId, clear, h, recall, store } from './dom.js';
import { i18n, t } from './i18n.js';
import { emit, net, on } from './store.js';

const KEY = 'cr.engine'; // the engine version kept on this phone
const SERVED = ['/v1/adjudicate', '/v1/options', '/v1/score', '/v1/compare'];
const IDLE_MS = 15000;

let about = null; // {base, version, sizes, wire: {br, gzip}}
let state = 'absent'; // absent | waiting | ask | keeping | ready | failed
let got = 0; // bytes received so far
let began = 0;
let prepared = null; // null (not known) | 'no' | 'yes': the snapshot is kept
let awake = 'no'; // no | waking | yes
let lastInput = 0; // the reader's last touch or key
let worker = null;
let seq = 0;
const pending = new Map();
let decide = null; // resolves `decided` once start() knows whether the engine is kept (state past 'waiting')
const decided = new Promise((resolve) => { decide = resolve; });
const DECIDE_MS = 30000; // a bound: a question never waits longer for that than this

function read() {
  const meta = document.querySelector('meta[name="engine"]');
  try { about = meta ? JSON.parse(meta.content) : null; } catch (e) { about = null; }
  state = about ? 'waiting' : 'absent';
  if (!about) decide();
}

function cacheName() { return `cr-engine-${about.version}`; }
function total() { return Object.values(about.sizes).reduce((a, b) => a + b, 0); }
/** Bytes on the wire: brotli where the connection is secure (only there is it sent). */
function onWire() { return (about.wire && (window.isSecureContext ? about.wire.br : about.wire.gzip)) || total(); }
function megabytes(bytes) { return (bytes / 1e6).toLocaleString(i18n.lang, { minimumFractionDigits: 1, maximumFractionDigits: 1 }); }

function offline() { return !navigator.onLine || !net.reachable; }

function setState(next) {
  const was = state;
  state = next;
  net.engine = next;
  if (next !== 'waiting') decide();
  show();
  if (was !== next) emit('engine', next);
  if (was !== 'ready' && next === 'ready') {
    emit('connection-back'); // rounds saved before the engine was ready are checked now
    prepareWhenIdle();
    if (offline()) warm();
  }
}

/**
 * Bytes per second this phone's connection carried the page itself (its first visit, as the browser
 * timed it), or null: the estimate said before the engine's own bytes give a rate. Only the time
 * bytes were arriving counts (each response from its first byte to its last, overlaps once), not the
 * round trips before them, which the engine's few large files hardly pay.
 */
function pageRate() {
  const entries = performance.getEntriesByType('navigation').concat(performance.getEntriesByType('resource'))
    .filter((e) => e.transferSize > 0 && e.responseEnd > e.responseStart && e.responseStart > 0)
    .sort((a, b) => a.responseStart - b.responseStart);
  let bytes = 0;
  let ms = 0;
  let until = 0;
  for (const e of entries) {
    bytes += e.transferSize;
    ms += Math.max(0, e.responseEnd - Math.max(e.responseStart, until));
    until = Math.max(until, e.responseEnd);
  }
  return ms > 0 && bytes > 20000 ? (bytes / ms) * 1000 : null;
}

/** Seconds left: at the rate so far, or before there is one at the rate the page came at (else null). */
function secondsLeft(share) {
  const elapsed = (performance.now() - began) / 1000;
  if (share > 0.02 && elapsed > 1) return (elapsed / share) * (1 - share);
  const rate = pageRate();
  return rate ? (onWire() * (1 - share)) / rate : null;
}

function show() {
  const line = byId('engine-status');
  if (!line) return;
  line.hidden = state === 'waiting';
  line.dataset.state = state;
  if (prepared) line.dataset.prepared = prepared;
  line.dataset.awake = awake;
  if (state === 'keeping') {
    const share = Math.min(1, got / total());
    const left = secondsLeft(share);
    clear(line).append(h('span', null, t('engine.keeping', {
      n: megabytes(share * onWire()), of: megabytes(onWire()), left: left === null ? '' : t('engine.left', { n: Math.round(left) }),
    })), h('progress', { max: '100', value: String(Math.floor(share * 100)), 'aria-hidden': 'true' }));
  } else if (state === 'ask') {
    const button = h('button', { type: 'button', class: 'link-button', id: 'engine-keep' }, t('engine.ask', { n: megabytes(onWire()) }));
    button.addEventListener('click', () => keep());
    clear(line).append(button);
  } else {
    line.textContent = state === 'ready' ? t(waking() ? 'busy.waking' : 'engine.ready') : state === 'failed' ? t('engine.failed') : t('engine.absent');
  }
}

/** Kept, without signal, and not yet started and ruled once: "ready" would be said too early. */
function waking() { return state === 'ready' && offline() && awake !== 'yes'; }

async function allKept(cache) {
  const have = new Set((await cache.keys()).map((r) => new URL(r.url).pathname));
  return Object.keys(about.sizes).every((name) => have.has(about.base + name));
}

/** One file into the cache (through the service worker, which keeps it too), its bytes counted. */
async function keepFile(cache, name) {
  const url = about.base + name;
  if (await cache.match(url)) { got += about.sizes[name]; return; }
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  const reader = response.body.getReader();
  const chunks = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    got += value.length;
    show();
  }
  await cache.put(url, new Response(new Blob(chunks), { headers: { 'Content-Type': response.headers.get('Content-Type') } }));
}

async function keep() {
  if (!about || state === 'keeping') return;
  got = 0;
  began = performance.now();
  setState('keeping');
  const ticking = setInterval(show, 1000);
  try {
    const cache = await caches.open(cacheName());
    await Promise.all(Object.keys(about.sizes).map((name) => keepFile(cache, name)));
    store(KEY, about.version);
    setState('ready');
  } catch (e) {
    setState('failed'); // offline or refused: tried again on the next visit
  } finally {
    clearInterval(ticking);
  }
}

/** After the first screen: find out whether the engine is kept already, else keep it (or offer to). */
async function start() {
  read();
  if (!about || !('caches' in window) || !('Worker' in window)) { about = null; setState('absent'); return; }
  document.addEventListener('pointerdown', () => { if (offline()) warm(); }, { capture: true, once: true });
  ['pointerdown', 'keydown'].forEach((type) => document.addEventListener(type, () => { lastInput = performance.now(); }, true));
  try {
    if (recall(KEY, null) === about.version && await allKept(await caches.open(cacheName()))) { setState('ready'); return; }
  } catch (e) { /* no cache storage: keep() says so */ }
  const saveData = navigator.connection && navigator.connection.saveData;
  if (saveData) { setState('ask'); return; }
  keep();
}

function ready() { return state === 'ready'; }

/**
 * Resolves once the page knows whether the engine is kept on this phone. Without signal a question asked
 * before start() has looked (it waits for the rule data, seconds on a loaded phone) is answered by the engine
 * when it is kept, never refused as needing a connection.
 */
function known() {
  if (state !== 'waiting') return Promise.resolve();
  return Promise.race([decided, new Promise((resolve) => { setTimeout(resolve, DECIDE_MS); })]);
}
function serves(method, path) { return method === 'POST' && SERVED.includes(path) && ready(); }

function setAwake(next) {
  if (awake === next) return;
  awake = next;
  show();
  emit('engine-awake', next);
}

function ensureWorker() {
  if (worker) return worker;
  worker = new Worker(`${about.base}engine-worker.js`, { type: 'module' });
  setAwake('waking');
  worker.onmessage = (event) => {
    const { id, error } = event.data;
    if (!error) setAwake('yes');
    const waiting = pending.get(id);
    if (!waiting) return;
    pending.delete(id);
    if (error) waiting.reject(new Error(error));
    else waiting.resolve(event.data);
  };
  return worker;
}

function post(message) {
  const id = ++seq;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    ensureWorker().postMessage(Object.assign({ id, base: about.base, cache: cacheName() }, message));
  });
}

function warm() { if (ready() && awake === 'no') post({ lang: i18n.lang }).catch(() => {}); }

/** As the page opens without signal, before anything else: wake the engine kept on this phone at once. */
function early() {
  read();
  if (about && !navigator.onLine && recall(KEY, null) === about.version && 'Worker' in window) post({}).catch(() => {});
}

/** Once the reader leaves the page be for a while (a first start takes seconds of the phone's work). */
function prepareWhenIdle() {
  const wait = IDLE_MS - (performance.now() - lastInput);
  if (wait > 0 || document.hidden) setTimeout(prepareWhenIdle, Math.max(wait, 1000));
  else prepare();
}

/** The worker keeps the engine's snapshot once; online it is let go afterwards. */
async function prepare() {
  if (!ready() || prepared === 'yes') return;
  try {
    if (await (await caches.open(cacheName())).match(`${about.base}snapshot.bin`)) { prepared = 'yes'; show(); return; }
  } catch (e) { return; }
  prepared = 'no';
  show();
  try {
    await post({ prepare: true });
    prepared = 'yes';
    show();
    if (!offline() && pending.size === 0 && worker) { worker.terminate(); worker = null; setAwake('no'); }
  } catch (e) { /* tried again on the next visit */ }
}

/**
 * The answer the service would give to POST `path` with `body`, made on the phone. Resolves with
 * the answer (marked `onPhone`); a refusal rejects with the service's problem (an ApiError).
 */
function answer(path, body) {
  return post({ path, body: JSON.stringify(body), lang: i18n.lang }).then((said) => {
    const out = JSON.parse(said.answer);
    if (out.status !== 200) throw new ApiError(out.body, false);
    Object.defineProperty(out.body, 'onPhone', { value: true, enumerable: false });
    return out.body;
  });
}

on('reach', () => show()); // with signal or without, "ready" means another thing (waking())

export const engine = { early, start, show, ready, known, serves, answer, warm, keep, waking };
