/* The service's /v1 API: every call says the reader's language; rule data is fetched once and kept.
 *
 * The language goes as the `lang` query parameter and Accept-Language (not in POST bodies: a
 * service that does not know the member yet refuses unknown members). Rule data comes from
 * GET /v1/variants (small: names for the tiles) and GET /v1/matrix (every parameter of every
 * variant, in one answer, fetched after the first screen is up): the page does not need every
 * variant's full detail to start.
 */
(function () {
  'use strict';

  const A = window.CanastaReferee;
  const TIMEOUT_MS = 20000; // a request with no answer by then counts as no connection

  class ApiError extends Error {
    constructor(problem, offline) {
      super(problem.detail || problem.title || 'request failed');
      this.problem = problem;
      this.offline = Boolean(offline);
    }
  }

  function withLang(path) {
    return `${path}${path.includes('?') ? '&' : '?'}lang=${A.i18n.lang}`;
  }

  /**
   * The service's answer to `method path` (with `body`), in the reader's language. With no signal,
   * rulings, options, scores and comparisons come from the engine kept on the phone (web/engine.js),
   * the same answer marked `onPhone`; other requests, or no engine, fail with an offline ApiError.
   */
  async function api(method, path, body) {
    const init = { method, headers: { Accept: 'application/json, application/problem+json', 'Accept-Language': A.i18n.lang } };
    if (body !== undefined) {
      init.headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    // Known to be without signal, and the engine is on the phone: ask it at once (no 20 s wait on a dead
    // link), and look again for the service in the background.
    if (A.engine.serves(method, path) && A.offline.isOffline()) {
      A.offline.probe();
      return A.engine.answer(path, body);
    }
    let response;
    const stop = new AbortController();
    const timer = setTimeout(() => stop.abort(), TIMEOUT_MS);
    init.signal = stop.signal;
    try {
      response = await fetch(withLang(path), init);
    } catch (e) {
      // No answer at all (no network, a dead connection, a captive portal, or too slow): the page is offline.
      A.offline.reached(false);
      if (A.engine.serves(method, path)) return A.engine.answer(path, body);
      throw new ApiError({ title: A.t('problem.offline.title'), detail: A.t('problem.offline.detail') }, true);
    } finally {
      clearTimeout(timer);
    }
    // Rule data may come from the service worker's cache; only an answer the service gave counts as online.
    if (method !== 'GET') A.offline.reached(true);
    const type = response.headers.get('Content-Type') || '';
    if (!response.ok) {
      let problem = { title: A.t('problem.status', { status: response.status }), status: response.status };
      if (type.includes('json')) {
        try { problem = await response.json(); } catch (e) { /* keep the plain one */ }
      }
      throw new ApiError(problem, false);
    }
    return type.includes('json') ? response.json() : response.text();
  }

  // ---- rule data --------------------------------------------------------------------------

  const cache = { variants: [], byId: {}, matrix: null, matrixLang: null, sources: {} };
  let matrixPromise = null;

  async function loadVariants() {
    const list = await api('GET', '/v1/variants');
    cache.variants = list.variants;
    cache.byId = {};
    list.variants.forEach((v) => { cache.byId[v.id] = v; });
    return list.variants;
  }

  /** Every parameter of every variant (GET /v1/matrix), once per language. */
  function matrix() {
    if (cache.matrix && cache.matrixLang === A.i18n.lang) return Promise.resolve(cache.matrix);
    if (!matrixPromise) {
      const lang = A.i18n.lang;
      matrixPromise = api('GET', '/v1/matrix').then((m) => {
        cache.matrix = m;
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
  function variantName(id) { const v = cache.byId[id]; return v ? v.name : A.t('variant.unknown'); }

  function languageName(code) { return A.t(`langname.${code}`); }

  Object.assign(A, { ApiError, api, cache, loadVariants, matrix, sourceText, value, paramInfo, limitsFor, variantName, languageName });
}());
