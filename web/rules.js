/* Read the rules: every parameter of every variant side by side (GET /v1/matrix), and each
 * source text with a cited passage marked. Values are put in words; quotes stay in their language.
 */
import { ApiError } from './api-error.js';
import { cache, languageName, matrix, sourceText, variantName, variantsForReader } from './api.js';
import { checkbox } from './controls.js';
import { byId, clear, h } from './dom.js';
import { fmtNumber, t } from './i18n.js';
import { citationBlock, problemBox } from './words.js';

const server = { server: '' };
const SECTIONS = ['deck', 'players', 'deal', 'partnership', 'turn', 'draw', 'card_value', 'wild', 'meld', 'canasta',
  'red_three', 'black_three', 'opening', 'first_round', 'pile', 'go_out', 'concealed', 'stock', 'score', 'game'];

const filter = { text: '', differs: false };

function sectionOf(name) {
  const prefix = SECTIONS.find((p) => name === p || name.startsWith(`${p}.`));
  return prefix ? t(`section.${prefix}`) : t('section.other');
}

function enumWord(v) { return t(`enum.${v}`) !== `enum.${v}` ? t(`enum.${v}`) : t('value.other'); }

/** A parameter value in words, by its type. */
function valueText(value, type) {
  if (value === null || value === undefined) return '\u2014';
  if (typeof value === 'boolean') return t(value ? 'yes' : 'no');
  if (type === 'bands' && Array.isArray(value)) {
    return value.map((b) => {
      const span = b.max === null || b.max === undefined ? `${fmtNumber(b.min)}+` : `${fmtNumber(b.min)}\u2013${fmtNumber(b.max)}`;
      const need = b.canasta_required ? t('opening.canasta') : (b.points === null ? '\u2014' : fmtNumber(b.points));
      return `${span}: ${need}`;
    }).join('; ');
  }
  if (Array.isArray(value)) {
    if (!value.length) return t('value.none');
    return value.map((x) => (typeof x === 'number' ? fmtNumber(x) : enumWord(x))).join(', ');
  }
  if (typeof value === 'object') return Object.keys(value).map((k) => `${t('players.n', { n: Number(k) })}: ${valueText(value[k])}`).join('; ');
  if (typeof value === 'number') return fmtNumber(value);
  return enumWord(value);
}

function renderRulesView() {
  const box = clear(byId('rules-root'));
  box.appendChild(h('p', { class: 'lead' }, t('rules.lead')));
  const texts = h('section', { class: 'block', 'aria-labelledby': 'texts-title' }, h('h3', { id: 'texts-title' }, t('rules.texts')));
  const list = h('ul', { class: 'text-list' });
  variantsForReader().forEach((v) => {
    list.appendChild(h('li', null, h('a', { class: 'text-link', href: `#source/${encodeURIComponent(v.id)}`, id: `read-${v.id}` },
      h('span', { class: 'choice-title', dataset: server, title: v.name }, v.short_name || v.name),
      h('span', { class: 'choice-sub' }, t('rules.textIn', { language: languageName(v.language) })))));
  });
  texts.appendChild(list);
  box.appendChild(texts);

  const head = h('section', { class: 'block', 'aria-labelledby': 'matrix-title' }, h('h3', { id: 'matrix-title' }, t('rules.side')));
  const search = h('input', { type: 'search', id: 'matrix-search', class: 'text', placeholder: t('rules.searchExample'), autocomplete: 'off',
    value: filter.text, on: { input: () => { filter.text = search.value; renderMatrix(); } } });
  head.appendChild(h('div', { class: 'field' }, h('label', { for: 'matrix-search' }, t('rules.search')), search));
  head.appendChild(checkbox(t('rules.onlyDiffer'), () => filter.differs, (v) => { filter.differs = v; renderMatrix(); }, { id: 'only-differ' }));
  head.appendChild(h('div', { id: 'matrix', 'aria-live': 'polite' }, h('p', { class: 'busy' }, t('rules.loading'))));
  box.appendChild(head);
  loadMatrix();
}

async function loadMatrix() {
  try {
    await matrix();
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    clear(byId('matrix')).appendChild(e.offline ? h('p', { class: 'problem' }, t('rules.offline')) : problemBox(e.problem));
    return;
  }
  renderMatrix();
}

function matches(row) {
  if (filter.differs && !row.differs) return false;
  const q = filter.text.trim().toLowerCase();
  if (!q) return true;
  if (row.description.toLowerCase().includes(q) || sectionOf(row.parameter).toLowerCase().includes(q)) return true;
  return Object.values(row.values).some((v) => valueText(v.value, row.type).toLowerCase().includes(q)
    || (v.note || '').toLowerCase().includes(q) || v.citations.some((c) => c.quote.toLowerCase().includes(q)));
}

function renderMatrix() {
  const out = byId('matrix');
  const matrix = cache.matrix;
  if (!out || !matrix) return;
  clear(out);
  const rows = matrix.rows.filter(matches);
  const filtered = Boolean(filter.text.trim() || filter.differs);
  out.appendChild(h('p', { class: 'muted', id: 'matrix-count' }, t('rules.count', { n: rows.length, of: matrix.rows.length })));
  const groups = new Map();
  rows.forEach((row) => {
    const s = sectionOf(row.parameter);
    if (!groups.has(s)) groups.set(s, []);
    groups.get(s).push(row);
  });
  let first = true;
  groups.forEach((list, title) => {
    const d = h('details', { class: 'rule-section', open: first || filtered },
      h('summary', null, h('span', null, title), h('span', { class: 'section-count' }, t('rules.sectionCount', { n: list.length }))));
    list.forEach((row) => d.appendChild(paramCard(row, matrix)));
    out.appendChild(d);
    first = false;
  });
}

function paramCard(row, matrix) {
  const card = h('article', { class: `param${row.differs ? ' differs' : ''}`, id: `param-${row.parameter.replace(/\W/g, '-')}` });
  card.appendChild(h('h4', null, h('span', { dataset: server }, row.description), row.differs ? [' ', h('span', { class: 'pill differs' }, t('rules.differs'))] : null));
  const table = h('table', { class: 'values' }, h('caption', { class: 'sr-only', dataset: server }, row.description));
  const words = h('details', { class: 'more' }, h('summary', null, t('rules.whatTextsSay')));
  matrix.variants.forEach((vid) => {
    const v = row.values[vid];
    table.appendChild(h('tr', null, h('th', { scope: 'row', dataset: server }, variantName(vid)), h('td', { class: 'value' }, valueText(v.value, row.type)),
      h('td', null, h('span', { class: `status ${v.status}` }, t(`status.${v.status}`)))));
    if (v.citations.length || v.note) {
      const part = h('div', { class: 'says' }, h('p', { class: 'says-head' }, h('span', { dataset: server }, variantName(vid)), ' ', h('span', { class: `status ${v.status}` }, t(`status.${v.status}`))));
      v.citations.forEach((c) => part.appendChild(citationBlock(c)));
      if (v.note) part.appendChild(h('p', { class: 'muted', dataset: server }, v.note));
      words.appendChild(part);
    }
  });
  card.appendChild(table);
  if (words.childNodes.length > 1) card.appendChild(words);
  return card;
}

// ==========================================================================================
// One source text

let sourceToken = 0;

async function showSource(id, start, end) {
  const token = ++sourceToken;
  const v = cache.byId[id];
  const textBox = clear(byId('source-text'));
  byId('source-title').textContent = v ? v.name : t('source.title');
  byId('source-meta').textContent = v ? t('rules.textIn', { language: languageName(v.language) }) : '';
  if (!v) {
    textBox.appendChild(problemBox({ title: t('source.unknown') }));
    return;
  }
  textBox.appendChild(h('p', { class: 'busy' }, t('source.loading')));
  let text;
  try {
    text = await sourceText(id);
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    clear(textBox).appendChild(e.offline ? h('p', { class: 'problem' }, t('rules.offline')) : problemBox(e.problem));
    return;
  }
  if (token !== sourceToken) return;
  clear(textBox);
  textBox.setAttribute('lang', v.language);
  // Offsets count Unicode code points; JavaScript strings count UTF-16 units.
  const points = Array.from(text);
  const hasRange = Number.isInteger(start) && Number.isInteger(end) && start >= 0 && end > start && end <= points.length;
  if (!hasRange) {
    textBox.appendChild(document.createTextNode(text));
    window.scrollTo(0, 0);
    return;
  }
  textBox.appendChild(document.createTextNode(points.slice(0, start).join('')));
  const mark = h('mark', { id: 'source-mark', tabindex: '-1' }, points.slice(start, end).join(''));
  textBox.appendChild(mark);
  textBox.appendChild(document.createTextNode(points.slice(end).join('')));
  requestAnimationFrame(() => {
    mark.scrollIntoView({ block: 'center' });
    mark.focus({ preventScroll: true });
  });
}

export const rulesView = { init() {}, show() { if (!byId('matrix')) renderRulesView(); else renderMatrix(); }, relabel() { if (byId('matrix')) renderRulesView(); } };
export const sourceView = { init() {}, show: showSource };
