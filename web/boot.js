/* Start the page: load the variants, set up the views, follow location.hash. */
(function () {
  'use strict';

  const A = window.CanastaReferee;
  const { byId, api, problemBox, clear } = A;

  const VIEWS = ['settle', 'score', 'rules', 'source'];
  const TAB_OF = { settle: 'settle', score: 'score', rules: 'rules', source: 'rules' };
  const scrollOf = {};
  let current = null;
  let inAppSteps = 0;

  function parseHash() {
    const raw = decodeURIComponent((location.hash || '').replace(/^#/, ''));
    const parts = raw.split('/').filter((p) => p !== '');
    const name = parts[0] || 'settle';
    if (name === 'source' && parts[1]) {
      const start = parts[2] !== undefined ? Number(parts[2]) : null;
      const end = parts[3] !== undefined ? Number(parts[3]) : null;
      return { view: 'source', id: parts[1], start, end };
    }
    return { view: VIEWS.includes(name) && name !== 'source' ? name : 'settle' };
  }

  function route() {
    const r = parseHash();
    if (current && current !== 'source') scrollOf[current] = window.scrollY;
    VIEWS.forEach((v) => { byId(`view-${v}`).hidden = v !== r.view; });
    document.querySelectorAll('.tabs .tab').forEach((tab) => {
      if (tab.id === `tab-${TAB_OF[r.view]}`) tab.setAttribute('aria-current', 'page');
      else tab.removeAttribute('aria-current');
    });
    const titles = { settle: 'Settle a dispute', score: 'Keep score', rules: 'Read the rules', source: 'Rule text' };
    document.title = `${titles[r.view]} \u00b7 Canasta Referee`;
    const came = current;
    current = r.view;
    if (r.view === 'source') {
      const back = came === 'settle' ? '\u2190 Back to the ruling' : came === 'score' ? '\u2190 Back to the score' : '\u2190 Back to the rules';
      if (came && came !== 'source') document.querySelectorAll('.source-back').forEach((a) => { a.textContent = back; });
      A.views.source.show(r.id, r.start, r.end);
      return;
    }
    A.views[r.view].show();
    window.scrollTo(0, scrollOf[r.view] || 0);
  }

  async function boot() {
    const bootMsg = byId('boot');
    try {
      const list = await api('GET', '/v1/variants');
      A.cache.variants = list.variants;
      list.variants.forEach((v) => { A.cache.byId[v.id] = v; });
      await A.loadDeckLimits();
    } catch (e) {
      bootMsg.hidden = true;
      const box = byId('boot-error');
      box.hidden = false;
      clear(box).appendChild(problemBox(e.problem || { title: 'The page could not start', detail: String(e.message || e) }));
      throw e;
    }
    bootMsg.hidden = true;
    Object.keys(A.views).forEach((k) => A.views[k].init());
    window.addEventListener('hashchange', () => { inAppSteps += 1; route(); });
    document.querySelectorAll('.source-back').forEach((a) => a.addEventListener('click', (e) => {
      if (inAppSteps > 0) { e.preventDefault(); inAppSteps -= 2; history.back(); }
    }));
    route();
    document.documentElement.classList.add('ready');
  }

  document.addEventListener('DOMContentLoaded', boot);
}());
