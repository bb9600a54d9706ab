/* The service's /v1 API: every call says the reader's language; rule data is fetched once and kept.
 *
 * The language goes as the `lang` query parameter and Accept-Language (not in POST bodies: a
 * service that does not know the member yet refuses unknown members). Rule data comes from
 * GET /v1/variants (small: names for the tiles) and GET /v1/matrix (every parameter of every
 * variant, in one answer, fetched after the first screen is up): the page does not need every
 * variant's full detail to start.
 */
import { ApiError } from './api-error.js';
import { engine } from './engine.js';
import { i18n, t } from './i18n.js';
import { emit, net } from './store.js';

const TIMEOUT_MS = 20000; // a request with no answer by then counts as no connection

const PROBE_TIMEOUT_MS = 8000;

/** Offline: the phone says so, or the service did not answer the last time (navigator.onLine stays
 * true on a captive portal, a dead mobile connection or behind a cut-off access point). */
function isOffline() { return !navigator.onLine || !net.reachable; }

/** What a request found out: `true` the service answered, `false` nothing answered. */
function reached(ok) {
  if (net.reachable === Boolean(ok)) return;
  net.reachable = Boolean(ok);
  emit('reach', net.reachable);
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

function withLang(path) {
  return `${path}${path.includes('?') ? '&' : '?'}lang=${i18n.lang}`;
}

/**
 * The service's answer to `method path` (with `body`), in the reader's language. With no signal,
 * rulings, options, scores and comparisons come from the engine kept on the phone (web/engine.js),
 * the same answer marked `onPhone`; other requests, or no engine, fail with an offline ApiError.
 */
async function api(method, path, body) {
  const init = { method, headers: { Accept: 'application/json, application/problem+json', 'Accept-Language': i18n.lang } };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  // Known to be without signal, and the engine is on the phone: ask it at once (no 20 s wait on a dead
  // link), and look again for the service in the background.
  if (method === 'POST' && isOffline()) await engine.known();
  if (engine.serves(method, path) && isOffline()) {
    probe();
    return engine.answer(path, body);
  }
  let response;
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(), TIMEOUT_MS);
  init.signal = stop.signal;
  try {
    response = await fetch(withLang(path), init);
  } catch (e) {
    // No answer at all (no network, a dead connection, a captive portal, or too slow): the page is offline.
    reached(false);
    if (method === 'POST') await engine.known();
    if (engine.serves(method, path)) return engine.answer(path, body);
    throw new ApiError({ title: t('problem.offline.title'), detail: t('problem.offline.detail') }, true);
  } finally {
    clearTimeout(timer);
  }
  // Rule data may come from the service worker's cache; only an answer the service gave counts as online.
  if (method !== 'GET') reached(true);
  const type = response.headers.get('Content-Type') || '';
  if (!response.ok) {
    let problem = { title: t('problem.status', { status: response.status }), status: response.status };
    if (type.includes('json')) {
      try { problem = await response.json(); } catch (e) { /* keep the plain one */ }
    }
    throw new ApiError(problem, false);
  }
  return type.includes('json') ? response.json() : response.text();
}

// ---- rule data --------------------------------------------------------------------------

const cache = { variants: [], byId: {}, matrix: null, matrixLang: null, sources: {}, details: {}, paramWords: {}, overridable: {} };
let matrixPromise = null;

// The service's question for each parameter, per language, kept on the phone once read (no request of its
// own: the first visit stays light): offline a house rule is asked in those words, or in the page's own.
const WORDS_KEY = 'cr.words';
try { Object.assign(cache.paramWords, JSON.parse(localStorage.getItem(WORDS_KEY)) || {}); } catch (e) { /* none kept */ }

function learnWords(lang, parameters) {
  const words = cache.paramWords[lang] || (cache.paramWords[lang] = {});
  parameters.forEach((p) => { words[p.name] = { question: p.question, overridable: p.overridable }; });
  try { localStorage.setItem(WORDS_KEY, JSON.stringify(cache.paramWords)); } catch (e) { /* storage full: kept for this visit */ }
}


async function loadVariants() {
  const list = await api('GET', '/v1/variants');
  cache.variants = list.variants;
  cache.byId = {};
  list.variants.forEach((v) => { cache.byId[v.id] = v; });
  return list.variants;
}

/** Every parameter of every variant (GET /v1/matrix), once per language. */
function matrix() {
  if (cache.matrix && cache.matrixLang === i18n.lang) return Promise.resolve(cache.matrix);
  if (!matrixPromise) {
    const lang = i18n.lang;
    matrixPromise = api('GET', '/v1/matrix').then((m) => {
      cache.matrix = m;
      document.documentElement.dataset.matrix = lang; // for tests and styles: the rule data is in
      cache.matrixLang = lang;
      cache.rowOf = Object.fromEntries(m.rows.map((r) => [r.parameter, r]));
      return m;
    }).finally(() => { matrixPromise = null; });
  }
  return matrixPromise;
}

function sourceText(id) {
  if (!cache.sources[id]) {
    cache.sources[id] = api('GET', `/v1/variants/${encodeURIComponent(id)}/source`)
      .catch((e) => { delete cache.sources[id]; throw e; });
  }
  return cache.sources[id];
}

/**
 * One variant in full (GET /v1/variants/{id}), once per language: it says, for each parameter, the
 * point it settles in words (`question`) and whether a house rule may set it (`overridable`).
 */
function variantDetail(id) {
  const key = `${id}|${i18n.lang}`;
  if (!cache.details[key]) {
    const lang = i18n.lang;
    cache.details[key] = api('GET', `/v1/variants/${encodeURIComponent(id)}`).then((detail) => {
      learnWords(lang, detail.parameters);
      cache.overridable[id] = new Set(detail.parameters.filter((p) => p.overridable).map((p) => p.name));
      return detail;
    }).catch((e) => { delete cache.details[key]; throw e; });
  }
  return cache.details[key];
}

/** The service's words for a parameter ({question, overridable}) once a variant's detail is in, else null. */
function paramWords(name) { return (cache.paramWords[i18n.lang] || {})[name] || null; }

/** Whether a house rule may set parameter `name` of variant `id`, as its detail says (null before it is in). */
function overridable(id, name) { return cache.overridable[id] ? cache.overridable[id].has(name) : null; }

/** One variant's value of a parameter (from the matrix), or `fallback` before the matrix is in. */
function value(variantId, name, fallback) {
  const row = cache.rowOf && cache.rowOf[name];
  const cell = row && row.values[variantId];
  return cell && cell.value !== null && cell.value !== undefined ? cell.value : fallback;
}

/** What the page knows of a parameter: its type, what it accepts, its description. */
function paramInfo(name) { return (cache.rowOf && cache.rowOf[name]) || null; }

/** Copies of one card and jokers in a variant's deck; for 'all' (or not yet known) the largest. */
function limitsFor(id) {
  const ids = cache.byId[id] ? [id] : cache.variants.map((v) => v.id);
  let decks = 0;
  let jokers = 0;
  ids.forEach((v) => {
    decks = Math.max(decks, value(v, 'deck.decks', 2));
    jokers = Math.max(jokers, value(v, 'deck.jokers', 6));
  });
  return { decks: decks || 2, jokers: jokers || 6 };
}

/** Name of a variant for people (the service's `name`, in the reader's language once it sends one). */
function variantName(id) { const v = cache.byId[id]; return v ? v.name : t('variant.unknown'); }

/** The variants in the order a reader looks for them: those written in the reader's language first. */
function variantsForReader() {
  const mine = (v) => (v.language === i18n.lang || (v.language === 'no' && i18n.lang === 'nb') ? 0 : 1);
  return cache.variants.map((v, i) => [mine(v), i, v]).sort((a, b) => a[0] - b[0] || a[1] - b[1]).map((x) => x[2]);
}

function languageName(code) { return t(`langname.${code}`); }

export { ApiError, api, cache, loadVariants, matrix, sourceText, value, paramInfo, variantDetail, paramWords, overridable, limitsFor, variantName, variantsForReader, languageName, isOffline, reached, probe };
