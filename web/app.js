/* Canasta Referee — the phone page.
 *
 * Plain JavaScript, no build step, no other host: everything comes from this
 * service's /v1 API. No inline scripts or styles, no eval, so the page runs
 * under a `default-src 'self'` Content-Security-Policy.
 *
 * Views (chosen by location.hash):
 *   #settle                      settle a dispute (the default)
 *   #score                       keep score (the game lives in localStorage)
 *   #rules                       the rule matrix and the source texts
 *   #source/<id>[/<start>/<end>] one source text, the passage [start, end) marked
 */
(function () {
  'use strict';

  // ==========================================================================================
  // Small DOM helpers

  /** h('p', {class: 'x', text: 'hi', on: {click: f}}, child, ...) */
  function h(tag, attrs) {
    const el = document.createElement(tag);
    const props = attrs || {};
    for (const key of Object.keys(props)) {
      const value = props[key];
      if (value === undefined || value === null || value === false) continue;
      if (key === 'text') el.textContent = value;
      else if (key === 'on') for (const ev of Object.keys(value)) el.addEventListener(ev, value[ev]);
      else if (key === 'class') el.className = value;
      else if (key === 'dataset') Object.assign(el.dataset, value);
      else if (key === 'value') el.value = value;
      else if (key === 'checked' || key === 'disabled' || key === 'hidden' || key === 'selected') el[key] = Boolean(value);
      else el.setAttribute(key, value === true ? '' : String(value));
    }
    for (let i = 2; i < arguments.length; i++) append(el, arguments[i]);
    return el;
  }

  function append(el, child) {
    if (child === undefined || child === null || child === false) return;
    if (Array.isArray(child)) { child.forEach((c) => append(el, c)); return; }
    el.appendChild(typeof child === 'string' || typeof child === 'number' ? document.createTextNode(String(child)) : child);
  }

  /** 'smooth' scrolling unless the reader asked for less motion. */
  function motion() {
    return window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth';
  }

  function clear(el) { while (el.firstChild) el.removeChild(el.firstChild); return el; }
  function byId(id) { return document.getElementById(id); }

  let uid = 0;
  function nextId(prefix) { uid += 1; return `${prefix}-${uid}`; }

  function fmtNumber(n) {
    if (typeof n !== 'number') return String(n);
    const s = Math.abs(n).toLocaleString('en-US').replace(/,/g, '\u202f');
    return n < 0 ? `\u2212${s}` : s;
  }
  function signed(n) { return n > 0 ? `+${fmtNumber(n)}` : fmtNumber(n); }

  function store(key, value) {
    try { localStorage.setItem(key, JSON.stringify(value)); } catch (e) { /* private mode: keep going */ }
  }
  function recall(key, fallback) {
    try {
      const raw = localStorage.getItem(key);
      return raw === null ? fallback : JSON.parse(raw);
    } catch (e) { return fallback; }
  }

  // ==========================================================================================
  // Cards

  const RANKS = ['A', 'K', 'Q', 'J', '10', '9', '8', '7', '6', '5', '4', '3', '2'];
  const SUITS = [
    { code: 'S', sym: '\u2660', name: 'spades', red: false },
    { code: 'H', sym: '\u2665', name: 'hearts', red: true },
    { code: 'D', sym: '\u2666', name: 'diamonds', red: true },
    { code: 'C', sym: '\u2663', name: 'clubs', red: false },
  ];
  const SUIT = Object.fromEntries(SUITS.map((s) => [s.code, s]));
  const RANK_NAME = {
    A: 'ace', K: 'king', Q: 'queen', J: 'jack', 10: 'ten', 9: 'nine', 8: 'eight', 7: 'seven',
    6: 'six', 5: 'five', 4: 'four', 3: 'three', 2: 'two',
  };
  const RANK_PLURAL = {
    A: 'aces', K: 'kings', Q: 'queens', J: 'jacks', 10: 'tens', 9: 'nines', 8: 'eights', 7: 'sevens',
    6: 'sixes', 5: 'fives', 4: 'fours', 3: 'threes', 2: 'twos',
  };
  const JOKER = 'JK';

  function rankOf(code) { return code === JOKER ? JOKER : code.slice(0, -1); }
  function suitOf(code) { return code === JOKER ? null : code.slice(-1); }
  function cardName(code) {
    if (code === JOKER) return 'joker';
    return `${RANK_NAME[rankOf(code)]} of ${SUIT[suitOf(code)].name}`;
  }
  function cardShort(code) { return code === JOKER ? 'Joker' : rankOf(code) + SUIT[suitOf(code)].sym; }

  function countCards(list) {
    const counts = new Map();
    for (const c of list) counts.set(c, (counts.get(c) || 0) + 1);
    return counts;
  }

  /** Pick cards of `rank` from copies still free (suits with the fewest copies in use first). */
  function freeCopies(rank, n, counts, decks, suits) {
    const out = [];
    const local = new Map(counts);
    for (let i = 0; i < n; i++) {
      const options = (suits || SUITS.map((s) => s.code)).map((s) => rank + s).filter((c) => (local.get(c) || 0) < decks);
      if (!options.length) return null;
      options.sort((a, b) => (local.get(a) || 0) - (local.get(b) || 0));
      out.push(options[0]);
      local.set(options[0], (local.get(options[0]) || 0) + 1);
    }
    out.forEach((c) => counts.set(c, (counts.get(c) || 0) + 1));
    return out;
  }

  // ==========================================================================================
  // The API

  class ApiError extends Error {
    constructor(problem) {
      super(problem.detail || problem.title || 'The request failed');
      this.problem = problem;
    }
  }

  async function api(method, path, body) {
    const init = { method, headers: { Accept: 'application/json, application/problem+json' } };
    if (body !== undefined) {
      init.headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    let response;
    try {
      response = await fetch(path, init);
    } catch (e) {
      throw new ApiError({ title: 'No answer from the referee service',
        detail: 'The page could not reach the service. Check the connection and try again.' });
    }
    const type = response.headers.get('Content-Type') || '';
    if (!response.ok) {
      let problem = { title: `Error ${response.status}`, status: response.status, detail: response.statusText };
      if (type.includes('json')) {
        try { problem = await response.json(); } catch (e) { /* keep the plain one */ }
      }
      throw new ApiError(problem);
    }
    return type.includes('json') ? response.json() : response.text();
  }

  const cache = { variants: [], byId: {}, details: {}, resolved: {}, sources: {}, matrix: null };

  async function variantDetail(id) {
    if (!cache.details[id]) cache.details[id] = api('GET', `/v1/variants/${encodeURIComponent(id)}`);
    return cache.details[id];
  }
  async function sourceText(id) {
    if (!cache.sources[id]) cache.sources[id] = api('GET', `/v1/variants/${encodeURIComponent(id)}/source`);
    return cache.sources[id];
  }
  function paramOf(detail, name) { return detail.parameters.find((p) => p.name === name); }

  // Deck limits (copies of one card, jokers) for a variant id or 'all' (the largest of any variant).
  const deckLimits = {};
  async function loadDeckLimits() {
    const details = await Promise.all(cache.variants.map((v) => variantDetail(v.id)));
    let decks = 0;
    let jokers = 0;
    details.forEach((d) => {
      const dk = paramOf(d, 'deck.decks');
      const jk = paramOf(d, 'deck.jokers');
      const lim = { decks: (dk && dk.value) || 2, jokers: (jk && typeof jk.value === 'number') ? jk.value : 4 };
      deckLimits[d.id] = lim;
      cache.resolved[d.id] = d;
      decks = Math.max(decks, lim.decks);
      jokers = Math.max(jokers, lim.jokers);
    });
    deckLimits.all = { decks, jokers };
  }
  function limitsFor(id) { return deckLimits[id] || deckLimits.all || { decks: 2, jokers: 4 }; }

  // ==========================================================================================
  // Problems (RFC 9457) in plain words

  const POINTER_WORDS = [
    [/^\/situation\/team\/score$/, 'your team\u2019s score'],
    [/^\/situation\/team\/melds$/, 'your team\u2019s melds on the table'],
    [/^\/situation\/team\/red_threes$/, 'your team\u2019s red threes'],
    [/^\/situation\/players$/, 'the number of players'],
    [/^\/situation\/first_round$/, 'whether it is still the first round'],
    [/^\/situation\/discard_pile$/, 'the discard pile'],
    [/^\/situation\/player\/hand$/, 'the cards in your hand'],
    [/^\/situation\/player\/has_melded$/, 'whether you have melded'],
    [/^\/situation\/turn\/drew$/, 'whether you have drawn this turn'],
    [/^\/situation\/stock_count$/, 'how many cards the stock has'],
    [/^\/players$/, 'the number of players'],
    [/^\/variant$/, 'the rules chosen'],
  ];
  const SEGMENT_WORDS = {
    situation: 'the situation', action: 'the question', team: 'your team', opponents: 'the opponents',
    player: 'you', hand: 'hand', melds: 'melds', discard_pile: 'discard pile', with: 'cards from your hand',
    add: 'additions', cards: 'cards', card: 'the card', discard: 'the discard', rounds: 'rounds', teams: 'teams',
    went_out: 'went out', concealed: 'concealed', red_threes: 'red threes', melded_points: 'melded points',
    hand_points: 'points left in hand', natural_canastas: 'natural canastas', mixed_canastas: 'mixed canastas',
    name: 'name', score: 'score', house_rules: 'house rules', turn: 'this turn', first_round: 'first round',
  };

  function humanPointer(pointer, labels) {
    if (labels) {
      if (labels[pointer]) return labels[pointer];
      // The longest labelled prefix: "/action/melds/0" labels "/action/melds/0/2" too.
      let best = null;
      for (const key of Object.keys(labels)) {
        if (key && pointer.startsWith(`${key}/`) && (!best || key.length > best.length)) best = key;
      }
      if (best) {
        const rest = pointer.slice(best.length + 1).split('/');
        if (rest.length === 1 && /^\d+$/.test(rest[0])) return `${labels[best]}, card ${Number(rest[0]) + 1}`;
        return [labels[best]].concat(rest.map(segmentWords)).join(' \u203a ');
      }
    }
    for (const [re, words] of POINTER_WORDS) if (re.test(pointer)) return words;
    if (!pointer) return 'the entry as a whole';
    return pointer.split('/').slice(1).map(segmentWords).join(' \u203a ');
  }

  function segmentWords(p) {
    const s = p.replace(/~1/g, '/').replace(/~0/g, '~');
    if (/^\d+$/.test(s)) return `#${Number(s) + 1}`;
    return SEGMENT_WORDS[s] || s.replace(/_/g, ' ');
  }

  /** A problem box: what went wrong, and for each field at fault where it is and why. */
  function problemBox(problem, labels) {
    const box = h('div', { class: 'problem', role: 'alert' });
    const title = problem.title || 'Something went wrong';
    box.appendChild(h('p', { class: 'problem-title' }, title === 'Unprocessable situation'
      ? 'The referee cannot rule on this entry' : title));
    const errors = Array.isArray(problem.errors) ? problem.errors : [];
    if (errors.length) {
      const list = h('ul', { class: 'problem-list' });
      errors.forEach((e) => {
        list.appendChild(h('li', null, h('strong', null, `${capitalise(humanPointer(e.pointer || '', labels))}: `),
          e.detail || ''));
      });
      box.appendChild(list);
    } else if (problem.detail) {
      box.appendChild(h('p', null, problem.detail));
    }
    if (Array.isArray(problem.known)) box.appendChild(h('p', { class: 'muted' }, `Known rules: ${problem.known.join(', ')}`));
    return box;
  }

  function capitalise(s) { return s ? s[0].toUpperCase() + s.slice(1) : s; }

  // ==========================================================================================
  // Citations

  function sourceHref(c) { return `#source/${encodeURIComponent(c.variant)}/${c.start}/${c.end}`; }

  /** The cited sentence in its own language, its heading, and a link into the source text. */
  function citationBlock(c) {
    return h('figure', { class: 'cite' },
      h('blockquote', { lang: c.language }, c.quote),
      h('figcaption', null,
        h('span', { class: 'cite-where' }, `${c.variant}${c.section ? ` \u00b7 \u201c${c.section}\u201d` : ''}`),
        ' ',
        h('a', { class: 'cite-link', href: sourceHref(c) }, 'Show in the rule text')));
  }

  // ==========================================================================================
  // The two-tap card picker
  //
  // A CardField holds a list of cards. Only one field of a form is open at a time; the open one
  // shows the ranks (and the joker), then, after a rank, its four suits. Cards the deck has
  // no copy left of are disabled. Tapping a chosen card removes it.

  class CardForm {
    constructor(onChange) {
      this.fields = [];
      this.active = null;
      this.onChange = onChange;
      this.limits = { decks: 2, jokers: 4 };
      this.extraCards = () => [];
    }

    add(field) { field.form = this; this.fields.push(field); return field; }
    reset() { this.fields = []; }

    counts() {
      const all = [];
      this.fields.forEach((f) => { if (f.attached()) all.push(...f.cards()); });
      all.push(...this.extraCards());
      return countCards(all);
    }

    open(field) {
      this.active = field;
      this.fields.forEach((f) => { if (f !== field) f.pendingRank = null; });
      this.render();
    }

    /** Move to the next field after `field` that takes cards (after a single-card field is filled). */
    advance(field) {
      const list = this.fields.filter((f) => f.attached());
      const i = list.indexOf(field);
      const next = list.slice(i + 1).find((f) => f.cards().length < f.max);
      this.active = next || null;
    }

    changed() { this.render(); if (this.onChange) this.onChange(); }
    render() { this.fields.forEach((f) => { if (f.attached()) f.render(); }); }
  }

  class CardField {
    /**
     * get/set: read and write the list of cards in the model.
     * opts: label, hint, max (default 40), addLabel, id.
     */
    constructor(get, set, opts) {
      this.get = get;
      this.set = set;
      this.max = opts.max || 40;
      this.label = opts.label;
      this.hint = opts.hint;
      this.addLabel = opts.addLabel || (this.max === 1 ? 'Choose the card' : 'Add a card');
      this.pendingRank = null;
      this.id = opts.id || nextId('cards');
      this.el = h('div', { class: 'cardfield', id: this.id, role: 'group', 'aria-labelledby': `${this.id}-label` });
      this.form = null;
    }

    attached() { return this.el.isConnected; }
    cards() { return this.get() || []; }

    render() {
      const form = this.form;
      const cards = this.cards();
      const open = form.active === this && cards.length < this.max;
      clear(this.el);
      this.el.classList.toggle('open', open);
      this.el.appendChild(h('div', { class: 'cf-label', id: `${this.id}-label` }, this.label));
      if (this.hint) this.el.appendChild(h('div', { class: 'cf-hint' }, this.hint));
      const chips = h('div', { class: 'chips' });
      cards.forEach((code, i) => {
        const red = code !== JOKER && SUIT[suitOf(code)].red;
        chips.appendChild(h('button', {
          type: 'button', class: `chip${red ? ' red' : ''}${code === JOKER ? ' joker' : ''}`,
          'aria-label': `${cardName(code)}, tap to remove`, title: 'Tap to remove',
          on: { click: () => this.remove(i) },
        }, h('span', { 'aria-hidden': 'true' }, cardShort(code)), h('span', { class: 'x', 'aria-hidden': 'true' }, '\u00d7')));
      });
      if (!open && cards.length < this.max) {
        chips.appendChild(h('button', { type: 'button', class: 'chip add', on: { click: () => form.open(this) } },
          `+ ${cards.length ? (this.max === 1 ? 'Choose' : 'Add more') : this.addLabel}`));
      }
      if (!cards.length && !open) chips.classList.add('empty');
      this.el.appendChild(chips);
      if (open) this.el.appendChild(this.picker());
    }

    picker() {
      const form = this.form;
      const counts = form.counts();
      const { decks, jokers } = form.limits;
      const used = (c) => counts.get(c) || 0;
      const box = h('div', { class: 'picker' });
      const ranks = h('div', { class: 'ranks', role: 'group', 'aria-label': 'Rank' });
      RANKS.forEach((r) => {
        const left = SUITS.some((s) => used(r + s.code) < decks);
        ranks.appendChild(h('button', {
          type: 'button', class: `rank${this.pendingRank === r ? ' chosen' : ''}`,
          'aria-pressed': this.pendingRank === r ? 'true' : 'false', disabled: !left,
          'aria-label': left ? RANK_NAME[r] : `${RANK_NAME[r]} (none left in the deck)`,
          on: { click: () => { this.pendingRank = this.pendingRank === r ? null : r; form.render(); this.focusSuits(); } },
        }, r));
      });
      const jkLeft = used(JOKER) < jokers;
      ranks.appendChild(h('button', {
        type: 'button', class: 'rank joker', disabled: !jkLeft,
        'aria-label': jkLeft ? 'joker' : 'joker (none left in the deck)',
        on: { click: () => this.choose(JOKER) },
      }, 'Joker'));
      box.appendChild(ranks);
      if (this.pendingRank) {
        const r = this.pendingRank;
        const suits = h('div', { class: 'suits', role: 'group', 'aria-label': `Suit of the ${RANK_NAME[r]}` });
        SUITS.forEach((s) => {
          const code = r + s.code;
          const left = used(code) < decks;
          suits.appendChild(h('button', {
            type: 'button', class: `suit${s.red ? ' red' : ''}`, disabled: !left,
            'aria-label': left ? cardName(code) : `${cardName(code)} (both copies in use)`,
            on: { click: () => this.choose(code) },
          }, h('span', { class: 'sym', 'aria-hidden': 'true' }, `${r}${s.sym}`), h('span', { class: 'sname', 'aria-hidden': 'true' }, s.name)));
        });
        box.appendChild(suits);
      } else {
        box.appendChild(h('p', { class: 'picker-help' }, 'Tap a rank, then its suit.'));
      }
      return box;
    }

    focusSuits() {
      const first = this.el.querySelector('.suits button:not([disabled])');
      if (first) first.focus({ preventScroll: true });
    }

    choose(code) {
      const cards = this.cards().slice();
      if (cards.length >= this.max) return;
      cards.push(code);
      this.set(cards);
      this.pendingRank = null;
      if (cards.length >= this.max) this.form.advance(this);
      this.form.changed();
      if (this.form.active && this.form.active !== this) {
        this.form.active.el.scrollIntoView({ block: 'nearest', behavior: motion() });
      }
    }

    remove(i) {
      const cards = this.cards().slice();
      cards.splice(i, 1);
      this.set(cards);
      this.form.active = this;
      this.form.changed();
    }
  }

  // ==========================================================================================
  // Small form controls

  function stepper(label, get, set, opts) {
    const o = opts || {};
    const id = nextId('step');
    const min = o.min === undefined ? 0 : o.min;
    const max = o.max === undefined ? 99 : o.max;
    const out = h('output', { class: 'step-value', id: `${id}-v`, 'aria-live': 'polite' }, String(get()));
    const update = (d) => {
      const v = Math.max(min, Math.min(max, get() + d));
      set(v);
      out.textContent = String(v);
      minus.disabled = v <= min;
      plus.disabled = v >= max;
    };
    const minus = h('button', { type: 'button', class: 'step', 'aria-label': `${label}: one fewer`, on: { click: () => update(-1) } }, '\u2212');
    const plus = h('button', { type: 'button', class: 'step', 'aria-label': `${label}: one more`, on: { click: () => update(1) } }, '+');
    minus.disabled = get() <= min;
    plus.disabled = get() >= max;
    return h('div', { class: 'stepper-row', role: 'group', 'aria-labelledby': `${id}-l` },
      h('span', { class: 'step-label', id: `${id}-l` }, label), h('div', { class: 'stepper' }, minus, out, plus));
  }

  function checkbox(label, get, set, opts) {
    const o = opts || {};
    const id = nextId('chk');
    const input = h('input', { type: 'checkbox', id, checked: get(), on: { change: () => set(input.checked) } });
    return h('label', { class: `check${o.class ? ` ${o.class}` : ''}`, for: id }, input, h('span', null, label,
      o.hint ? h('small', null, o.hint) : null));
  }

  function numberField(label, get, set, opts) {
    const o = opts || {};
    const id = nextId('num');
    const input = h('input', {
      type: 'text', inputmode: o.negative ? 'text' : 'numeric', id, class: 'num',
      value: get() === '' || get() === null || get() === undefined ? '' : String(get()),
      placeholder: o.placeholder || '', autocomplete: 'off', enterkeyhint: 'done',
      pattern: o.negative ? '-?[0-9]*' : '[0-9]*',
      on: { input: () => set(input.value.trim()) },
    });
    return h('div', { class: 'field' }, h('label', { for: id }, label, o.hint ? h('small', null, o.hint) : null), input);
  }

  /** Radio buttons drawn as a row of segments. */
  function segmented(legend, options, get, set, opts) {
    const o = opts || {};
    const name = nextId('seg');
    const fs = h('fieldset', { class: `segmented${o.class ? ` ${o.class}` : ''}` }, h('legend', null, legend));
    const row = h('div', { class: 'segments' });
    options.forEach(([value, text]) => {
      const id = nextId('opt');
      const input = h('input', { type: 'radio', name, id, value: String(value), checked: get() === value,
        on: { change: () => { if (input.checked) set(value); } } });
      row.appendChild(h('label', { class: 'segment', for: id }, input, h('span', null, text)));
    });
    fs.appendChild(row);
    return fs;
  }

  /** A whole number from a text entry: '' gives `empty`, junk gives NaN. */
  function parseWhole(text, empty) {
    const t = String(text === undefined || text === null ? '' : text).replace(/[\s\u202f.,]/g, '').replace('\u2212', '-');
    if (t === '') return empty;
    return /^-?\d+$/.test(t) ? Number(t) : NaN;
  }

  // The rest of the page is defined in the sections below and started by boot().
  const App = { h, append, motion, clear, byId, api, ApiError, cache, variantDetail, sourceText, paramOf, limitsFor,
    loadDeckLimits, problemBox, humanPointer, citationBlock, sourceHref, cardName, cardShort,
    rankOf, suitOf, countCards, freeCopies, CardForm, CardField, stepper, checkbox, numberField, segmented,
    parseWhole, fmtNumber, signed, store, recall, RANKS, SUITS, JOKER, RANK_NAME, RANK_PLURAL, capitalise };
  window.CanastaReferee = App;
}());
