/* Words for people: the four languages of the page, chosen from the phone's languages or the switch.
 *
 * Packs live in web/i18n/<lang>.js (all four travel in the one script, so switching works offline).
 * A string may hold {name} placeholders, or be a function of its values (plurals, word order).
 * Codes (variant ids, parameter names, card codes, JSON pointers) are never shown: see words.js.
 */
import { byId, recall, store } from './dom.js';
import da from './i18n/da.js';
import en from './i18n/en.js';
import nb from './i18n/nb.js';
import sv from './i18n/sv.js';

const LANGS = ['sv', 'nb', 'da', 'en'];
const LOCALE = { sv: 'sv-SE', nb: 'nb-NO', da: 'da-DK', en: 'en-GB' };
const KEY = 'cr.lang';
const packs = { en, sv, nb, da };
const listeners = [];
let lang = 'en';

/** A language tag as the page knows it: Norwegian in any form is Bokmål. */
function normalise(tag) {
  const base = String(tag || '').toLowerCase().split(/[-_]/)[0];
  if (base === 'no' || base === 'nn' || base === 'nb') return 'nb';
  return LANGS.includes(base) ? base : null;
}

function detect() {
  const saved = normalise(recall(KEY, null));
  if (saved) return saved;
  const wanted = (navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language]);
  for (const tag of wanted) {
    const hit = normalise(tag);
    if (hit) return hit;
  }
  return 'en';
}

function t(key, vars) {
  const pack = packs[lang] || {};
  let entry = pack[key];
  if (entry === undefined) entry = (packs.en || {})[key];
  if (entry === undefined) return key;
  if (typeof entry === 'function') return entry(vars || {});
  return vars ? entry.replace(/\{(\w+)\}/g, (m, name) => (vars[name] === undefined ? m : String(vars[name]))) : entry;
}

/** Fill in the page's static text (data-i18n, data-i18n-aria) and <html lang>. */
function apply(root) {
  document.documentElement.lang = lang === 'nb' ? 'nb' : lang;
  (root || document).querySelectorAll('[data-i18n]').forEach((el) => { el.textContent = t(el.dataset.i18n); });
  (root || document).querySelectorAll('[data-i18n-aria]').forEach((el) => { el.setAttribute('aria-label', t(el.dataset.i18nAria)); });
  const select = byId('lang-select');
  if (select) select.value = lang;
}

function setLang(next, remember) {
  const chosen = normalise(next) || 'en';
  if (remember) store(KEY, chosen);
  if (chosen === lang) return;
  lang = chosen;
  apply();
  listeners.forEach((f) => f(lang));
}

function fmtNumber(n) {
  if (typeof n !== 'number') return String(n);
  const s = Math.abs(n).toLocaleString(LOCALE[lang]);
  return n < 0 ? `\u2212${s}` : s;
}
function signed(n) { return n > 0 ? `+${fmtNumber(n)}` : fmtNumber(n); }

export const i18n = {
  packs, LANGS, normalise, detect, apply, setLang,
  get lang() { return lang; },
  onChange(f) { listeners.push(f); },
  start() { lang = detect(); apply(); },
};
const capitalise = (s) => (s ? s[0].toUpperCase() + s.slice(1) : s);

export { t, fmtNumber, signed, capitalise };
