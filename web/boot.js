/* Start the page: the language, the variants, the views; then follow location.hash. */
import { loadVariants, matrix } from './api.js';
import { byId, clear } from './dom.js';
import { engine } from './engine.js';
import { i18n, t } from './i18n.js';
import { offline } from './offline.js';
import { received } from './received.js';
import { rulesView, sourceView } from './rules.js';
import { view as score } from './score.js';
import { view as settle } from './settle.js';
import { problemBox } from './words.js';

const views = { settle, score, rules: rulesView, source: sourceView };


const VIEWS = ['settle', 'score', 'rules', 'source'];
const TAB_OF = { settle: 'settle', score: 'score', rules: 'rules', source: 'rules' };
const scrollOf = {};
let current = null;
let came = null;
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

function setTitle(view) { document.title = `${t(`title.${view}`)} \u00b7 ${t('brand')}`; }

function backWords() {
  const key = came === 'settle' ? 'source.backRuling' : came === 'score' ? 'source.backScore' : 'source.backRules';
  document.querySelectorAll('.source-back').forEach((a) => { a.textContent = t(key); });
}

function route() {
  const r = parseHash();
  if (current && current !== 'source') scrollOf[current] = window.scrollY;
  VIEWS.forEach((v) => { byId(`view-${v}`).hidden = v !== r.view; });
  document.querySelectorAll('.tabs .tab').forEach((tab) => {
    if (tab.id === `tab-${TAB_OF[r.view]}`) tab.setAttribute('aria-current', 'page');
    else tab.removeAttribute('aria-current');
  });
  setTitle(r.view);
  if (r.view === 'source' && current && current !== 'source') came = current;
  current = r.view;
  if (r.view === 'source') {
    backWords();
    views.source.show(r.id, r.start, r.end);
    return;
  }
  views[r.view].show();
  window.scrollTo(0, scrollOf[r.view] || 0);
}

/** A new language: the page's words at once, the service's words (names, descriptions) fetched again. */
async function languageChanged() {
  setTitle(current || 'settle');
  if (current === 'source') backWords();
  try { await loadVariants(); } catch (e) { /* offline: the names stay in the last language */ }
  ['settle', 'score', 'rules'].forEach((v) => views[v].relabel());
  if (current === 'source') route();
  offline.showStatus();
  engine.show();
  matrix().then(() => ['settle', 'score'].forEach((v) => views[v].dataChanged())).catch(() => {});
}

async function boot() {
  engine.early(); // without signal, the engine starts in its worker while the page starts here
  // A link to a question or a game (web/received.js): read first, so the page speaks the sender's language.
  const sent = received.isLink(location.hash) ? await received.read(location.hash) : null;
  i18n.start();
  received.language(sent);
  const bootMsg = byId('boot');
  try {
    await loadVariants();
  } catch (e) {
    bootMsg.hidden = true;
    const box = byId('boot-error');
    box.hidden = false;
    clear(box).appendChild(problemBox(e.problem || { title: t('boot.failed') }));
    return;
  }
  bootMsg.hidden = true;
  Object.keys(views).forEach((k) => views[k].init());
  window.addEventListener('hashchange', () => {
    if (received.isLink(location.hash)) { received.opened(location.hash); return; } // a link opened in this tab
    inAppSteps += 1;
    route();
  });
  document.querySelectorAll('.source-back').forEach((a) => a.addEventListener('click', (e) => {
    if (inAppSteps > 0) { e.preventDefault(); inAppSteps -= 2; history.back(); }
  }));
  byId('lang-select').addEventListener('change', (e) => i18n.setLang(e.target.value, true));
  i18n.onChange(languageChanged);
  route();
  if (sent) received.act(sent);
  document.documentElement.classList.add('ready');
  if (window.performance && performance.mark) performance.mark('usable'); // the first screen answers taps
  // After the first screen: the rule data (deck limits, questions, the rules view) and offline use.
  // The engine (megabytes) only after the rule data (kilobytes), so the rules view is ready first.
  offline.start().then(engine.start);
}

document.addEventListener('DOMContentLoaded', boot);
