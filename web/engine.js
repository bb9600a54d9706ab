/* The referee on the phone: keeps the offline engine (web/engine-worker.js) and asks it when the
 * service cannot be reached.
 *
 * The service says in <meta name="engine"> where its engine files are and how big they are; with
 * no such meta (the runtime is not installed on this server) the page rules online only and says
 * so. After the first screen is up the files are fetched once, in the background, into a cache the
 * service worker answers from, with the progress shown; then the page says it is ready without
 * signal. On a connection that asks to save data (navigator.connection.saveData) it waits for a tap.
 */
import { ApiError } from './api-error.js';
import { byId, clear, h, recall, store } from './dom.js';
import { i18n, t } from './i18n.js';
import { emit, net } from './store.js';

const KEY = 'cr.engine'; // the engine version kept on this phone
const SERVED = ['/v1/adjudicate', '/v1/options', '/v1/score', '/v1/compare'];

let about = null; // {base, version, sizes}
let state = 'absent'; // absent | waiting | ask | keeping | ready | failed
let share = 0; // 0..1 of the bytes kept
let worker = null;
let seq = 0;
const pending = new Map();

function read() {
  const meta = document.querySelector('meta[name="engine"]');
  try { about = meta ? JSON.parse(meta.content) : null; } catch (e) { about = null; }
  state = about ? 'waiting' : 'absent';
}

function cacheName() { return `cr-engine-${about.version}`; }

function setState(next) {
  const was = state;
  state = next;
  net.engine = next;
  show();
  if (was !== next) emit('engine', next);
  if (was !== 'ready' && next === 'ready') {
    emit('connection-back'); // rounds saved before the engine was ready are checked now
  }
}

function show() {
  const line = byId('engine-status');
  if (!line) return;
  line.hidden = state === 'waiting';
  line.dataset.state = state;
  const pct = Math.floor(share * 100);
  if (state === 'keeping') {
    clear(line).append(h('span', null, t('engine.keeping', { n: pct })),
      h('progress', { max: '100', value: String(pct), 'aria-hidden': 'true' }));
  } else if (state === 'ask') {
    const mb = Math.round(Object.values(about.sizes).reduce((a, b) => a + b, 0) / 4e6); // about a third goes on the wire
    const button = h('button', { type: 'button', class: 'link-button', id: 'engine-keep' }, t('engine.ask', { n: mb }));
    button.addEventListener('click', () => keep());
    clear(line).append(button);
  } else {
    line.textContent = state === 'ready' ? t('engine.ready') : state === 'failed' ? t('engine.failed') : t('engine.absent');
  }
}

async function allKept(cache) {
  const have = new Set((await cache.keys()).map((r) => new URL(r.url).pathname));
  return Object.keys(about.sizes).every((name) => have.has(about.base + name));
}

/** Fetch every engine file once into the cache the service worker answers from, with the progress shown. */
async function keep() {
  if (!about || state === 'keeping') return;
  share = 0;
  setState('keeping');
  try {
    const cache = await caches.open(cacheName());
    const total = Object.values(about.sizes).reduce((a, b) => a + b, 0);
    let done = 0;
    for (const [name, size] of Object.entries(about.sizes)) {
      const url = about.base + name;
      if (!(await cache.match(url))) {
        const response = await fetch(url);
        if (!response.ok) throw new Error(`${url}: ${response.status}`);
        const reader = response.body.getReader();
        const chunks = [];
        for (;;) {
          const { done: end, value } = await reader.read();
          if (end) break;
          chunks.push(value);
          share = (done + chunks.reduce((n, c) => n + c.length, 0)) / total;
          show();
        }
        await cache.put(url, new Response(new Blob(chunks), { headers: { 'Content-Type': response.headers.get('Content-Type') } }));
      }
      done += size;
      share = done / total;
      show();
    }
    store(KEY, about.version);
    setState('ready');
  } catch (e) {
    setState('failed'); // offline or refused: tried again on the next visit
  }
}

/** After the first screen: find out whether the engine is kept already, else keep it (or offer to). */
async function start() {
  read();
  if (!about || !('caches' in window) || !('Worker' in window)) { about = null; setState('absent'); return; }
  try {
    if (recall(KEY, null) === about.version && await allKept(await caches.open(cacheName()))) { setState('ready'); return; }
  } catch (e) { /* no cache storage: keep() says so */ }
  const saveData = navigator.connection && navigator.connection.saveData;
  if (saveData) { setState('ask'); return; }
  keep();
}

function ready() { return state === 'ready'; }
function serves(method, path) { return method === 'POST' && SERVED.includes(path) && ready(); }

function ensureWorker() {
  if (worker) return worker;
  const url = document.querySelector('meta[name="engine-worker"]').content;
  worker = new Worker(url, { type: 'module' });
  worker.onmessage = (event) => {
    const { id, answer, error } = event.data;
    const waiting = pending.get(id);
    if (!waiting) return;
    pending.delete(id);
    if (error) waiting.reject(new Error(error));
    else waiting.resolve(JSON.parse(answer));
  };
  return worker;
}

/** Boot the engine before it is asked (once the page knows it has no signal): the first answer comes sooner. */
function warm() { if (ready()) ensureWorker().postMessage({ id: 0, base: about.base, path: '/', body: '{}', lang: i18n.lang }); }

/**
 * The answer the service would give to POST `path` with `body`, made on the phone. Resolves with
 * the answer (marked `onPhone`); a refusal rejects with the service's problem (an ApiError).
 */
function answer(path, body) {
  const id = ++seq;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    ensureWorker().postMessage({ id, base: about.base, path, body: JSON.stringify(body), lang: i18n.lang });
  }).then((out) => {
    if (out.status !== 200) throw new ApiError(out.body, false);
    Object.defineProperty(out.body, 'onPhone', { value: true, enumerable: false });
    return out.body;
  });
}

export const engine = { start, show, ready, serves, answer, warm, keep };
