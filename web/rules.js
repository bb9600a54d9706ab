/* Read the rules: the rule matrix (GET /v1/matrix) and each source text, with a cited passage marked. */
(function () {
  'use strict';

  const A = window.CanastaReferee;
  const { h, clear, byId, api, citationBlock, problemBox, fmtNumber } = A;

  const SECTIONS = [
    ['deck', 'The deck'], ['players', 'Players and the deal'], ['deal', 'Players and the deal'],
    ['partnership', 'Players and the deal'], ['turn', 'The turn'], ['draw', 'The turn'],
    ['card_value', 'Card values'], ['wild', 'Wild cards'], ['meld', 'Melds'], ['canasta', 'Canastas'],
    ['red_three', 'Threes'], ['black_three', 'Threes'], ['opening', 'Opening'], ['first_round', 'Opening'],
    ['pile', 'The discard pile'], ['go_out', 'Going out'], ['concealed', 'Going out'], ['stock', 'The stock'],
    ['score', 'Scoring'], ['game', 'End of the game'],
  ];
  const STATUS_WORDS = { stated: 'stated', interpreted: 'interpreted', not_stated: 'not stated', house_rule: 'house rule' };

  const filter = { text: '', differs: false };
  let matrix = null;

  function sectionOf(name) {
    const prefix = name.split('.')[0];
    const hit = SECTIONS.find(([p]) => p === prefix);
    return hit ? hit[1] : 'Other';
  }

  /** A parameter value in words, by its type. */
  function valueText(value, type) {
    if (value === null || value === undefined) return '\u2014';
    if (typeof value === 'boolean') return value ? 'yes' : 'no';
    if (type === 'bands' && Array.isArray(value)) {
      return value.map((b) => {
        const span = b.max === null || b.max === undefined ? `${fmtNumber(b.min)}+` : `${fmtNumber(b.min)}\u2013${fmtNumber(b.max)}`;
        const need = b.canasta_required ? 'a canasta' : (b.points === null ? '\u2014' : fmtNumber(b.points));
        return `${span}: ${need}`;
      }).join('; ');
    }
    if (Array.isArray(value)) return value.length ? value.map((x) => String(x).replace(/_/g, ' ')).join(', ') : 'none';
    if (typeof value === 'object') {
      return Object.keys(value).map((k) => `${k} players: ${valueText(value[k])}`).join('; ');
    }
    if (typeof value === 'number') return fmtNumber(value);
    return String(value).replace(/_/g, ' ');
  }

  function renderRulesView() {
    const box = clear(byId('rules-root'));
    box.appendChild(h('p', { class: 'lead' }, 'Every rule the referee uses, side by side, with the words of each text. Tap a quote\u2019s link to read it in place.'));

    const texts = h('section', { class: 'block', 'aria-labelledby': 'texts-title' }, h('h3', { id: 'texts-title' }, 'The rule texts'));
    const list = h('ul', { class: 'text-list' });
    A.cache.variants.forEach((v) => {
      list.appendChild(h('li', null, h('a', { class: 'text-link', href: `#source/${encodeURIComponent(v.id)}`, id: `read-${v.id}` },
        h('span', { class: 'choice-title' }, v.id),
        h('span', { class: 'choice-sub' }, `${({ sv: 'Swedish', no: 'Norwegian', da: 'Danish' })[v.language] || v.language} text`))));
    });
    texts.appendChild(list);
    box.appendChild(texts);

    const head = h('section', { class: 'block', 'aria-labelledby': 'matrix-title' }, h('h3', { id: 'matrix-title' }, 'The rules side by side'));
    const search = h('input', { type: 'search', id: 'matrix-search', class: 'text', placeholder: 'e.g. joker, frozen, 5000', autocomplete: 'off',
      value: filter.text, on: { input: () => { filter.text = search.value; renderMatrix(); } } });
    head.appendChild(h('div', { class: 'field' }, h('label', { for: 'matrix-search' }, 'Find a rule'), search));
    head.appendChild(A.checkbox('Only where the texts differ', () => filter.differs, (v) => { filter.differs = v; renderMatrix(); }));
    head.appendChild(h('div', { id: 'matrix', 'aria-live': 'polite' }, h('p', { class: 'busy' }, 'Loading the rules\u2026')));
    box.appendChild(head);
    loadMatrix();
  }

  async function loadMatrix() {
    if (!matrix) {
      try {
        matrix = await api('GET', '/v1/matrix');
      } catch (e) {
        if (!(e instanceof A.ApiError)) throw e;
        clear(byId('matrix')).appendChild(problemBox(e.problem));
        return;
      }
    }
    renderMatrix();
  }

  function matches(row) {
    if (filter.differs && !row.differs) return false;
    const q = filter.text.trim().toLowerCase();
    if (!q) return true;
    if (row.parameter.toLowerCase().includes(q) || row.description.toLowerCase().includes(q)) return true;
    return Object.values(row.values).some((v) => valueText(v.value, row.type).toLowerCase().includes(q)
      || (v.note || '').toLowerCase().includes(q) || v.citations.some((c) => c.quote.toLowerCase().includes(q)));
  }

  function renderMatrix() {
    const out = byId('matrix');
    if (!out || !matrix) return;
    clear(out);
    const rows = matrix.rows.filter(matches);
    const filtered = Boolean(filter.text.trim() || filter.differs);
    out.appendChild(h('p', { class: 'muted', id: 'matrix-count' }, `${rows.length} of ${matrix.rows.length} rules`));
    const groups = new Map();
    rows.forEach((row) => {
      const s = sectionOf(row.parameter);
      if (!groups.has(s)) groups.set(s, []);
      groups.get(s).push(row);
    });
    let first = true;
    groups.forEach((list, title) => {
      const d = h('details', { class: 'rule-section', open: first || filtered },
        h('summary', null, h('span', null, title), h('span', { class: 'count' }, `${list.length}`)));
      list.forEach((row) => d.appendChild(paramCard(row)));
      out.appendChild(d);
      first = false;
    });
  }

  function paramCard(row) {
    const card = h('article', { class: `param${row.differs ? ' differs' : ''}`, id: `param-${row.parameter.replace(/\W/g, '-')}` });
    card.appendChild(h('h4', null, row.description));
    card.appendChild(h('p', { class: 'rule-id' }, row.parameter, row.differs ? h('span', { class: 'pill differs' }, 'differs') : null));
    const table = h('table', { class: 'values' }, h('caption', { class: 'sr-only' }, row.description));
    const words = h('details', { class: 'more' }, h('summary', null, 'What the texts say'));
    matrix.variants.forEach((vid) => {
      const v = row.values[vid];
      table.appendChild(h('tr', null, h('th', { scope: 'row' }, vid), h('td', { class: 'value' }, valueText(v.value, row.type)),
        h('td', null, h('span', { class: `status ${v.status}` }, STATUS_WORDS[v.status] || v.status))));
      if (v.citations.length || v.note) {
        const part = h('div', { class: 'says' }, h('p', { class: 'says-head' }, vid, ' ', h('span', { class: `status ${v.status}` }, STATUS_WORDS[v.status] || v.status)));
        v.citations.forEach((c) => part.appendChild(citationBlock(c)));
        if (v.note) part.appendChild(h('p', { class: 'muted' }, v.note));
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
    const v = A.cache.byId[id];
    const textBox = clear(byId('source-text'));
    byId('source-title').textContent = v ? v.name : id;
    if (v) byId('source-title').setAttribute('lang', v.language);
    byId('source-meta').textContent = v ? `${v.id} \u00b7 ${({ sv: 'Swedish', no: 'Norwegian', da: 'Danish' })[v.language] || v.language} \u00b7 ${v.source_file}` : '';
    if (!v) {
      textBox.appendChild(problemBox({ title: 'Unknown rule text', detail: `There is no variant called ${id}.` }));
      return;
    }
    textBox.appendChild(h('p', { class: 'busy' }, 'Loading the text\u2026'));
    let text;
    try {
      text = await A.sourceText(id);
    } catch (e) {
      if (!(e instanceof A.ApiError)) throw e;
      clear(textBox).appendChild(problemBox(e.problem));
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

  A.views = A.views || {};
  A.views.rules = { init() {}, show() { if (!byId('matrix')) renderRulesView(); else renderMatrix(); } };
  A.views.source = { init() {}, show: showSource };
}());
