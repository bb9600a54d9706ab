/* Settle a dispute: the facts a question needs, built into a request for POST /v1/adjudicate.
 *
 * The facts are kept as they are typed (localStorage), per question, so a follow-up question
 * changes only what differs and a reload loses nothing. The request says only what the family
 * entered: a card is sent only if it was picked; what is known without naming cards (the team has
 * opened, its canastas, a wild card lies in the pile) goes as those facts, and the referee says
 * where a card nobody named would matter. Every pointer of the request is labelled in words (words.js).
 */
import { cache, languageName, limitsFor, variantsForReader } from './api.js';
import { JOKER, cardShort, cardsText, kindWords, rankOf } from './cards.js';
import { checkbox, fieldError, numberField, parseWhole, segmented, stepper } from './controls.js';
import { byId, clear, h, recall, showError, store } from './dom.js';
import { t } from './i18n.js';
import { openPoints } from './openpoints.js';
import { CardField, CardForm } from './picker.js';
import { questionForm } from './question-form.js';
import { ruling } from './ruling.js';
import { score } from './score-model.js';
import { SETTLE_KEY, blankFacts, emit, on, settleFacts } from './store.js';


const QUESTIONS = ['take_pile', 'meld', 'open', 'go_out', 'discard', 'options'];
// Where on the page each fact of a request is entered: a "fill in" the ruling shows leads there (ruling.js).
const FIELDS = {
  '/situation/team/score': 'team-score', '/situation/first_round': 'first-round', '/situation/players': 'players-choice',
  '/situation/stock_count': 'stock-count', '/situation/player/hand': 'field-hand', '/situation/discard_pile': 'field-options-top',
  '/situation/team/melds': 'table-meld-0', '/situation/turn/drew': 'turn-choice',
  '/situation/pile_unnamed/wild': 'pile-wild', '/situation/pile_unnamed/black_three': 'pile-black3',
  '/situation/pile_unnamed/red_three_first': 'pile-red3',
};
// The facts, per question (web/store.js): kept while the player switches questions and across reloads.
const m = settleFacts;
let form = null;
// Saved at every change (a few hundred bytes): a reload or a closed tab loses nothing.
/** Keep the facts on the phone, and say they changed (a ruling on other facts is then out of date). */
const save = () => { store(SETTLE_KEY, m); emit('facts-changed', JSON.stringify(m)); };

const nonEmpty = (melds) => melds.filter((x) => x.length);
const flat = (melds) => melds.reduce((a, x) => a.concat(x), []);

// ==========================================================================================
// The variant (shared with the score keeper: the last one used) and the question

function renderVariantChoices() {
  const box = clear(byId('variant-choices'));
  variantsForReader().forEach((v) => box.appendChild(variantTile(v.id, v.name, tileSub(v), 'variant')));
  box.appendChild(variantTile('all', t('variant.all'), t('variant.allSub'), 'variant'));
}

function variantTile(id, title, sub, name) {
  const inputId = `${name}-${id}`;
  const input = h('input', { type: 'radio', name, id: inputId, value: id, checked: m.variant === id,
    on: { change: () => { if (input.checked) setVariant(id); } } });
  return h('label', { class: 'choice', for: inputId }, input,
    h('span', { class: 'choice-title', dataset: id === 'all' ? {} : { server: '' } }, title), h('span', { class: 'choice-sub' }, sub));
}

function tileSub(v) {
  const p = v.players_supported;
  const players = p.length > 1 ? t('players.range', { from: p[0], to: p[p.length - 1] }) : t('players.n', { n: p[0] });
  return `${languageName(v.language)} \u00b7 ${players}`;
}

function setVariant(id) {
  m.variant = id;
  if (id) store('cr.variant', id);
  byId('variant-error').hidden = true;
  const players = playersSupported();
  if (!players.includes(m.players)) m.players = players.includes(4) ? 4 : players[0];
  renderHouse();
  renderFacts();
}

function playersSupported() {
  if (m.variant === 'all' || !cache.byId[m.variant]) {
    const all = new Set();
    cache.variants.forEach((v) => v.players_supported.forEach((p) => all.add(p)));
    return [...all].sort();
  }
  return cache.byId[m.variant].players_supported;
}

function renderQuestionChoices() {
  const box = clear(byId('question-choices'));
  QUESTIONS.forEach((q) => {
    const inputId = `question-${q}`;
    const input = h('input', { type: 'radio', name: 'question', id: inputId, value: q, checked: m.question === q,
      on: { change: () => { if (input.checked) setQuestion(q); } } });
    box.appendChild(h('label', { class: 'choice', for: inputId }, input, h('span', { class: 'choice-title' }, t(`q.${q}`))));
  });
}

function setQuestion(q) {
  m.question = q;
  save();
  renderFacts();
}

/** "What may I do?" has its own form; "Rule on it" belongs to the questions. */
function renderActions() {
  const own = m.question === 'options';
  byId('rule-button').hidden = own;
  byId('options-button').className = own ? 'primary big' : 'secondary big';
  byId('options-button').closest('.actionbar').classList.toggle('two', !own);
}

/** The game on the Score tab under the chosen variant, if any: its house rules are the table's. */
function gameHere() { const g = score.game; return g && m.variant && g.variant === m.variant ? g : null; }

/** House rules of the chosen variant (the game's while one is played under it): listed above the
 *  facts, changeable, sent with each ruling and options request. */
function houseRules() {
  if (!m.variant || m.variant === 'all') return {};
  const game = gameHere();
  return game ? game.houseRules : (m.house[m.variant] || {}); // a rule removed on the pad is gone here too
}

function setHouseRule(name, value) {
  if (!m.variant || m.variant === 'all') return;
  if (gameHere()) score.setHouseRule(name, value); // the score pad scores again under it
  m.house[m.variant] = Object.assign({}, m.house[m.variant], { [name]: value });
  save();
  renderHouse();
}

function removeHouseRule(name) {
  if (gameHere() && name in score.game.houseRules) score.removeHouseRule(name);
  if (m.house[m.variant]) delete m.house[m.variant][name];
  save();
  renderHouse();
}

function renderHouse() {
  const slot = clear(byId('settle-house'));
  const game = gameHere();
  const box = openPoints.houseRulesBox(houseRules(), (name, value) => { setHouseRule(name, value); submit(); },
    removeHouseRule, { id: 'settle-house-rules', variant: m.variant, players: game ? game.players : m.players });
  if (box) slot.appendChild(box);
}

// ==========================================================================================
// The facts form

function renderFacts() {
  const root = clear(byId('facts'));
  form = new CardForm(save);
  form.limits = limitsFor(m.variant);
  const builders = { take_pile: factsTake, meld: factsMeld, open: factsOpen, go_out: factsOut, discard: factsDiscard, options: factsOptions };
  renderActions();
  root.appendChild(builders[m.question]());
  const common = h('fieldset', { class: 'block' }, h('legend', null, t('table.legend')));
  if (m.question !== 'discard') {
    common.appendChild(checkbox(t('table.firstRound'), () => m.firstRound, (v) => { m.firstRound = v; save(); },
      { hint: t('table.firstRoundHint'), id: 'first-round' }));
  }
  const players = playersSupported();
  if (players.length > 1) {
    common.appendChild(segmented(t('table.players'), players.map((p) => [p, String(p)]), () => m.players,
      (v) => { m.players = v; save(); }, { name: 'players', id: 'players-choice' }));
  }
  if (common.childNodes.length > 1) root.appendChild(common);
  root.appendChild(h('div', { class: 'row facts-foot' },
    h('button', { type: 'button', class: 'link', id: 'clear-facts', on: { click: clearFacts } }, t('facts.clear'))));
  root.appendChild(h('div', { id: 'facts-error', class: 'inline-error', role: 'alert', tabindex: '-1', hidden: true }));
  // Start with the first field that still wants cards open.
  form.active = form.fields.find((f) => f.attached() && f.cards().length < f.max) || null;
  form.render();
}

function focusPicker() {
  const first = form && form.active && form.active.el.querySelector('.kinds button:not([disabled])');
  if (first) first.focus({ preventScroll: true });
}

function clearFacts() {
  const keep = { question: m.question, players: m.players, house: m.house, variant: m.variant };
  Object.assign(m, blankFacts(), keep);
  save();
  clear(byId('ruling'));
  renderFacts();
}

function cardsField(get, set, opts) { return form.add(new CardField(get, set, opts)).el; }

/** Several melds, each its own card field; "Another meld" adds one. */
function meldList(get, set, label, opts) {
  const o = opts || {};
  const wrap = h('div', { class: 'meldlist' });
  let melds = get();
  if (!melds.length) { melds = [[]]; set(melds); }
  melds.forEach((meld, i) => {
    wrap.appendChild(cardsField(() => get()[i] || [], (cards) => {
      const all = get().slice();
      all[i] = cards;
      set(all);
    }, { label: melds.length > 1 ? `${label} ${i + 1}` : label, hint: i === 0 ? o.hint : null, addLabel: o.addLabel,
      id: o.idPrefix ? `${o.idPrefix}-${i}` : null }));
  });
  wrap.appendChild(h('button', { type: 'button', class: 'secondary small', on: { click: () => {
    const kept = nonEmpty(get());
    kept.push([]);
    set(kept);
    renderFacts();
    const target = form.fields.filter((f) => f.attached()).find((f) => f.label === `${label} ${kept.length}`);
    if (target) { form.open(target); target.el.scrollIntoView({ block: 'nearest' }); }
  } } }, o.moreLabel || t('facts.anotherMeld')));
  return wrap;
}

/** The team's score. `needed`: the question cannot be answered without it (an opening). */
function scoreField(hint, needed) {
  return numberField(t('facts.score'), () => m.score, (v) => { m.score = v; save(); },
    { negative: true, placeholder: t('facts.scoreExample'), hint: hint || t('facts.scoreHint'), id: 'team-score', needed });
}

/** Has the team melded; its canastas and other melds (for going out, additions, the last card). */
function teamBlock(tm, opts) {
  const o = opts || {};
  const fs = h('fieldset', { class: 'block' }, h('legend', null, t('facts.team')));
  if (!o.forceUnopened) {
    fs.appendChild(segmented(t('facts.opened'), [['no', t('facts.notYet')], ['yes', t('yes')]],
      () => tm.opened || 'yes', (v) => { tm.opened = v; save(); renderFacts(); }, { name: 'opened' }));
  }
  const opened = !o.forceUnopened && (tm.opened || 'yes') === 'yes';
  if (opened) {
    fs.appendChild(stepper(t('facts.naturalCanastas'), () => tm.natural, (v) => { tm.natural = v; save(); }, { max: 10, id: 'natural' }));
    fs.appendChild(stepper(t('facts.mixedCanastas'), () => tm.mixed, (v) => { tm.mixed = v; save(); }, { max: 10, id: 'mixed' }));
    if (o.table) {
      fs.appendChild(meldList(() => tm.table, (v) => { tm.table = v; }, t('facts.tableMeld'), {
        hint: t('facts.tableMeldHint'), addLabel: t('facts.addItsCards'), moreLabel: t('facts.anotherTableMeld'), idPrefix: 'table-meld' }));
    }
    if (!nonEmpty(tm.table || []).length) rankFacts(tm).forEach((x) => fs.appendChild(x));
  }
  fs.appendChild(scoreField(o.scoreHint, !opened));
  return fs;
}

/** What the family said of the ranks its team has melded, its melds not listed ("no meld of nines"): each
 *  answer given under a ruling stays on the form, to change or take back ("Not sure"). */
function rankFacts(tm) {
  return Object.keys(tm.ranks || {}).filter((r) => typeof tm.ranks[r] === 'boolean').map((r) =>
    segmented(t('fact.hasRank', { kinds: t(`kind.${r}.n`) }), [[true, t('yes')], [false, t('no')], ['unsure', t('facts.rankUnsure')]],
      () => tm.ranks[r], (v) => { if (v === 'unsure') delete tm.ranks[r]; else tm.ranks[r] = v; save(); renderFacts(); },
      { name: `has-rank-${r}`, id: `has-rank-${r}` }));
}

/** The team's facts of the question on screen (its own form's). */
function teamOfQuestion() {
  return { take_pile: m.take, meld: m.meld, open: m.open, go_out: m.out, discard: m.discard, options: m.options }[m.question];
}

/** An answer to "Does your team already have a meld of nines?" under a ruling: kept with the form's facts. */
function tellRank(pointer, value) {
  const tm = teamOfQuestion();
  tm.ranks = Object.assign({}, tm.ranks, { [pointer.split('/').pop()]: value });
  save();
  renderFacts();
}

function additionBlock(tm) {
  const fs = h('fieldset', { class: 'block' }, h('legend', null, t('facts.addition')));
  const ranks = [...new Set(nonEmpty(tm.table).map(naturalRank).filter(Boolean))];
  if (!ranks.length) {
    fs.appendChild(h('p', { class: 'muted' }, t('facts.additionFirst')));
    return fs;
  }
  if (!ranks.includes(tm.addTo)) tm.addTo = ranks[0];
  fs.appendChild(segmented(t('facts.onto'), ranks.map((r) => [r, kindWords(r, 2)]), () => tm.addTo,
    (v) => { tm.addTo = v; save(); }, { name: 'add-to' }));
  fs.appendChild(cardsField(() => tm.add, (v) => { tm.add = v; }, { label: t('facts.youAdd') }));
  return fs;
}

function naturalRank(meld) {
  const naturals = meld.filter((c) => c !== JOKER && rankOf(c) !== '2');
  return naturals.length ? rankOf(naturals[0]) : null;
}

function factsTake() {
  const tk = m.take;
  const frag = document.createDocumentFragment();
  const pile = h('fieldset', { class: 'block' }, h('legend', null, t('take.pile')));
  // The top card decides the "Yes, with nines" choice: draw the form again, then keep picking where it left off.
  pile.appendChild(cardsField(() => tk.top, (v) => { tk.top = v; save(); queueMicrotask(() => { renderFacts(); focusPicker(); }); }, { label: t('take.top'), max: 1,
    id: 'field-top', addLabel: t('take.chooseTop') }));
  pile.appendChild(checkbox(t('take.wild'), () => tk.wild, (v) => { tk.wild = v; save(); },
    { hint: t('take.wildHint'), id: 'pile-wild' }));
  pile.appendChild(checkbox(t('take.red3'), () => tk.red3, (v) => { tk.red3 = v; save(); }, { id: 'pile-red3' }));
  pile.appendChild(checkbox(t('take.black3'), () => tk.black3, (v) => { tk.black3 = v; save(); }, { id: 'pile-black3' }));
  frag.appendChild(pile);

  const hand = h('fieldset', { class: 'block' }, h('legend', null, t('take.hand')));
  hand.appendChild(cardsField(() => tk.with, (v) => { tk.with = v; }, { label: t('take.with'),
    id: 'field-with', hint: t('take.withHint') }));
  const more = h('details', { class: 'more' }, h('summary', null, t('take.alsoMeld')));
  more.appendChild(meldList(() => tk.melds, (v) => { tk.melds = v; }, t('facts.meld'), { hint: t('take.alsoMeldHint') }));
  hand.appendChild(more);
  if (nonEmpty(tk.melds).length) more.open = true;
  frag.appendChild(hand);

  const team = h('fieldset', { class: 'block' }, h('legend', null, t('facts.team')));
  if (tk.opened === 'rank') tk.opened = 'yes'; // kept by an older page: its meld of the top's rank was made up
  team.appendChild(segmented(t('facts.opened'), [['no', t('facts.notYet')], ['yes', t('yes')]], () => tk.opened,
    (v) => { tk.opened = v; save(); renderFacts(); }, { name: 'opened' }));
  if (tk.opened === 'yes') {
    team.appendChild(meldList(() => tk.table, (v) => { tk.table = v; }, t('facts.tableMeld'), {
      hint: t('options.tableHint'), addLabel: t('facts.addItsCards'), moreLabel: t('facts.anotherTableMeld'), idPrefix: 'table-meld' }));
  }
  if ((tk.opened || 'yes') === 'yes' && !nonEmpty(tk.table || []).length) rankFacts(tk).forEach((x) => team.appendChild(x));
  team.appendChild(scoreField(null, tk.opened === 'no'));
  team.appendChild(checkbox(t('take.drew'), () => tk.drew, (v) => { tk.drew = v; save(); }, { id: 'drew' }));
  frag.appendChild(team);
  form.extraCards = () => [];
  return frag;
}

function factsMeld() {
  const tm = m.meld;
  const frag = document.createDocumentFragment();
  const fs = h('fieldset', { class: 'block' }, h('legend', null, t('meld.legend')));
  fs.appendChild(meldList(() => tm.melds, (v) => { tm.melds = v; }, t('facts.newMeld'), { addLabel: t('facts.addItsCards'), idPrefix: 'new-meld' }));
  fs.appendChild(leftSelect(tm));
  frag.appendChild(fs);
  frag.appendChild(teamBlock(tm, { table: true }));
  if ((tm.opened || 'yes') === 'yes') frag.appendChild(additionBlock(tm));
  form.extraCards = () => [];
  return frag;
}

function factsOpen() {
  const tm = m.open;
  const frag = document.createDocumentFragment();
  const fs = h('fieldset', { class: 'block' }, h('legend', null, t('open.legend')));
  fs.appendChild(meldList(() => tm.melds, (v) => { tm.melds = v; }, t('facts.meld'), { addLabel: t('facts.addItsCards'),
    hint: t('open.hint'), idPrefix: 'open-meld' }));
  fs.appendChild(leftSelect(tm));
  frag.appendChild(fs);
  frag.appendChild(teamBlock(tm, { forceUnopened: true, scoreHint: t('open.scoreHint') }));
  form.extraCards = () => [];
  return frag;
}

function factsOut() {
  const tm = m.out;
  const frag = document.createDocumentFragment();
  const fs = h('fieldset', { class: 'block' }, h('legend', null, t('out.legend')));
  fs.appendChild(meldList(() => tm.melds, (v) => { tm.melds = v; }, t('facts.newMeld'), { addLabel: t('facts.addItsCards'),
    hint: t('out.hint'), idPrefix: 'out-meld' }));
  fs.appendChild(cardsField(() => tm.discard, (v) => { tm.discard = v; }, { label: t('out.discard'), max: 1, id: 'field-discard' }));
  fs.appendChild(checkbox(t('out.concealed'), () => tm.concealed, (v) => { tm.concealed = v; save(); renderFacts(); },
    { hint: t('out.concealedHint'), id: 'concealed' }));
  frag.appendChild(fs);
  if (tm.concealed) {
    const team = h('fieldset', { class: 'block' }, h('legend', null, t('facts.team')));
    team.appendChild(scoreField(null, true));
    frag.appendChild(team);
  } else {
    frag.appendChild(teamBlock(tm, { table: true }));
    if ((tm.opened || 'yes') === 'yes') frag.appendChild(additionBlock(tm));
  }
  form.extraCards = () => [];
  return frag;
}

function factsDiscard() {
  const tm = m.discard;
  const frag = document.createDocumentFragment();
  const fs = h('fieldset', { class: 'block' }, h('legend', null, t('discard.legend')));
  fs.appendChild(cardsField(() => tm.card, (v) => { tm.card = v; }, { label: t('discard.card'), max: 1, id: 'field-card' }));
  fs.appendChild(segmented(t('discard.last'), [[2, t('no')], [0, t('discard.lastYes')]], () => tm.left, (v) => { tm.left = v; save(); }, { name: 'last-card' }));
  frag.appendChild(fs);
  const team = h('fieldset', { class: 'block' }, h('legend', null, t('facts.team')));
  team.appendChild(stepper(t('facts.naturalCanastas'), () => tm.natural, (v) => { tm.natural = v; save(); }, { max: 10, id: 'natural' }));
  team.appendChild(stepper(t('facts.mixedCanastas'), () => tm.mixed, (v) => { tm.mixed = v; save(); }, { max: 10, id: 'mixed' }));
  frag.appendChild(team);
  form.extraCards = () => [];
  return frag;
}

/** "What may I do?": my hand, what the table shows, where I am in the turn -- nothing borrowed from a question. */
function factsOptions() {
  const tm = m.options;
  const frag = document.createDocumentFragment();
  const mine = h('fieldset', { class: 'block' }, h('legend', null, t('options.mine')));
  mine.appendChild(cardsField(() => tm.hand, (v) => { tm.hand = v; }, { label: t('options.hand'), id: 'field-hand',
    addLabel: t('options.addHand') }));
  mine.appendChild(segmented(t('options.turn'), [['before', t('options.before')], ['after', t('options.after')], ['unsure', t('options.unsure')]],
    () => tm.turn, (v) => { tm.turn = v; save(); }, { name: 'turn', id: 'turn-choice', class: 'three' }));
  frag.appendChild(mine);

  const table = h('fieldset', { class: 'block' }, h('legend', null, t('options.table')));
  table.appendChild(cardsField(() => tm.top, (v) => { tm.top = v; save(); queueMicrotask(() => { renderFacts(); focusPicker(); }); },
    { label: t('take.top'), max: 1, id: 'field-options-top', addLabel: t('take.chooseTop'), hint: t('options.topHint') }));
  if (tm.top.length) {
    table.appendChild(checkbox(t('take.wild'), () => tm.wild, (v) => { tm.wild = v; save(); }, { hint: t('take.wildHint'), id: 'pile-wild' }));
    table.appendChild(checkbox(t('take.red3'), () => tm.red3, (v) => { tm.red3 = v; save(); }, { id: 'pile-red3' }));
    table.appendChild(checkbox(t('take.black3'), () => tm.black3, (v) => { tm.black3 = v; save(); }, { id: 'pile-black3' }));
  }
  table.appendChild(segmented(t('facts.opened'), [['no', t('facts.notYet')], ['yes', t('yes')]], () => tm.opened,
    (v) => { tm.opened = v; save(); renderFacts(); }, { name: 'opened', id: 'options-opened' }));
  if (tm.opened === 'yes') {
    table.appendChild(meldList(() => tm.table, (v) => { tm.table = v; }, t('facts.tableMeld'), {
      hint: t('options.tableHint'), addLabel: t('facts.addItsCards'), moreLabel: t('facts.anotherTableMeld'), idPrefix: 'table-meld' }));
  }
  if ((tm.opened || 'yes') === 'yes' && !nonEmpty(tm.table || []).length) rankFacts(tm).forEach((x) => table.appendChild(x));
  table.appendChild(scoreField(null, tm.opened === 'no'));
  table.appendChild(numberField(t('options.stock'), () => tm.stock, (v) => { tm.stock = v; save(); },
    { hint: t('options.stockHint'), id: 'stock-count' }));
  frag.appendChild(table);
  form.extraCards = () => [];
  return frag;
}


function leftSelect(tm) {
  return segmented(t('facts.left'), [[2, t('facts.left2')], [1, '1'], [0, t('facts.left0')]], () => tm.left,
    (v) => { tm.left = v; save(); }, { name: 'left' });
}

// ==========================================================================================
// From the facts to a request: {variant, situation, action}, and words for every pointer in it

class Problem extends Error {
  constructor(message, fieldId) { super(message); this.fieldId = fieldId; }
}

function teamScore() {
  const score = parseWhole(m.score, null);
  if (Number.isNaN(score)) throw new Problem(t('facts.scoreError'), 'team-score');
  return score;
}


/** The pile as the family knows it: the top card named, and what lies under it in words (a wild card, a black
 *  three, a red three first: the ticks). The cards under it are never named for the player (#34). */
function pileFacts(tk, labels) {
  labels['/situation/discard_pile'] = t('take.pile');
  labels['/situation/discard_pile/0'] = t('label.pileTop', { card: cardShort(tk.top[0]) });
  labels['/situation/pile_unnamed/wild'] = t('take.wild');
  labels['/situation/pile_unnamed/black_three'] = t('take.black3');
  labels['/situation/pile_unnamed/red_three_first'] = t('take.red3');
  return { discard_pile: tk.top.slice(), pile_unnamed: { wild: Boolean(tk.wild), black_three: Boolean(tk.black3), red_three_first: Boolean(tk.red3) } };
}

/** The team as the family gave it: not opened; opened with its melds listed; or opened, its melds not listed,
 *  with the canastas the steppers say (`counted`: the form has them). Nothing is made up. */
function teamFacts(tm, labels, counted) {
  const team = { score: teamScore() };
  if ((tm.opened || 'yes') === 'no') { team.melds = []; return team; }
  const listed = nonEmpty(tm.table || []);
  if (listed.length) {
    team.melds = listed;
    listed.forEach((meld, i) => { labels[`/situation/team/melds/${i}`] = t('label.teamMeldOf', { cards: cardsText(meld) }); });
    return team;
  }
  team.opened = true;
  labels['/situation/team/melds'] = t('facts.tableMeld');
  // The ranks it has melded or not, as the family said them (a tap under a ruling): only what was tapped.
  const said = Object.entries(tm.ranks || {}).filter(([, v]) => typeof v === 'boolean');
  if (said.length) {
    team.ranks = Object.fromEntries(said);
    said.forEach(([r]) => { labels[`/situation/team/ranks/${r}`] = t('fact.hasRank', { kinds: t(`kind.${r}.n`) }); });
  }
  if (counted) team.canastas = (tm.natural || 0) + (tm.mixed || 0);
  return team;
}

function labelCards(labels, base, cards, what) {
  labels[base] = what;
  cards.forEach((c, i) => { labels[`${base}/${i}`] = `${what}: ${cardShort(c)}`; });
}

function labelMelds(labels, base, melds, what) {
  labels[base] = what;
  melds.forEach((meld, j) => labelCards(labels, `${base}/${j}`, meld, `${what} ${j + 1}`));
}

function buildRequest() {
  const labels = {
    '/situation/team/score': t('facts.score'), '/situation/players': t('table.players'),
    '/situation/first_round': t('table.firstRound'), '/variant': t('settle.which'),
  };
  if (!m.variant) throw new Problem(t('settle.chooseRules'), 'variant');
  const situation = { first_round: m.firstRound };
  if (playersSupported().length > 1 || m.variant === 'all') situation.players = m.players;
  let action;
  const q = m.question;
  if (q === 'take_pile') {
    const tk = m.take;
    if (!tk.top.length) throw new Problem(t('take.topFirst'), 'field-top');
    Object.assign(situation, pileFacts(tk, labels));
    const melds = nonEmpty(tk.melds);
    const hand = tk.with.concat(flat(melds));
    situation.team = teamFacts(tk, labels, false);
    // The take form asks for the cards shown, not the whole hand: the hand is given only with the melds laid in
    // the same take (the pile's cards in them are told apart from the hand's), never made complete otherwise.
    if (melds.length) situation.player = { hand };
    situation.turn = { drew: tk.drew ? 'stock' : null, cards_from_pile: [] };
    labelCards(labels, '/action/with', tk.with, t('take.with'));
    labelCards(labels, '/situation/player/hand', hand, t('seg.hand'));
    action = { type: 'take_pile', with: tk.with };
    if (melds.length) { action.melds = melds; labelMelds(labels, '/action/melds', melds, t('facts.meld')); }
  } else if (q === 'meld' || q === 'open') {
    const tm = q === 'meld' ? m.meld : m.open;
    const melds = nonEmpty(tm.melds);
    const adds = q === 'meld' && tm.add.length ? [{ to: tm.addTo, cards: tm.add }] : [];
    if (!melds.length && !adds.length) throw new Problem(t('meld.first'), q === 'meld' ? 'new-meld-0' : 'open-meld-0');
    const laid = flat(melds).concat(flat(adds.map((a) => a.cards)));
    situation.team = q === 'meld' ? teamFacts(tm, labels, true) : { score: teamScore(), melds: [] };
    situation.player = { hand_count: laid.length + Number(tm.left) };
    situation.turn = { drew: 'stock', cards_from_pile: [] };
    action = { type: 'meld', melds };
    labelMelds(labels, '/action/melds', melds, t('facts.newMeld'));
    if (adds.length) { action.add = adds; labelCards(labels, '/action/add/0/cards', tm.add, t('facts.youAdd')); }
  } else if (q === 'go_out') {
    const tm = m.out;
    const melds = nonEmpty(tm.melds);
    const adds = !tm.concealed && tm.add.length ? [{ to: tm.addTo, cards: tm.add }] : [];
    if (!melds.length && !adds.length && !tm.discard.length) throw new Problem(t('out.first'), 'out-meld-0');
    const hand = flat(melds).concat(flat(adds.map((a) => a.cards)), tm.discard);
    const opened = !tm.concealed && (tm.opened || 'yes') === 'yes';
    situation.team = opened ? teamFacts(tm, labels, true) : { score: teamScore(), melds: [] };
    situation.player = { hand, has_melded: opened };
    situation.turn = { drew: 'stock', cards_from_pile: [] };
    action = { type: 'go_out', melds };
    labelMelds(labels, '/action/melds', melds, t('facts.newMeld'));
    labelCards(labels, '/situation/player/hand', hand, t('seg.hand'));
    if (adds.length) { action.add = adds; labelCards(labels, '/action/add/0/cards', tm.add, t('facts.youAdd')); }
    if (tm.discard.length) { action.discard = tm.discard[0]; labels['/action/discard'] = t('label.discard', { card: cardShort(tm.discard[0]) }); }
  } else {
    const tm = m.discard;
    if (!tm.card.length) throw new Problem(t('discard.first'), 'field-card');
    // Only the canastas matter to the last card: the steppers give them (the team's melds are not asked).
    situation.team = { score: teamScore(), canastas: (tm.natural || 0) + (tm.mixed || 0) };
    situation.player = { hand_count: Number(tm.left) + 1 };
    situation.turn = { drew: 'stock', cards_from_pile: [] };
    action = { type: 'discard', card: tm.card[0] };
    labels['/action/card'] = t('label.discard', { card: cardShort(tm.card[0]) });
  }
  Object.keys(houseRules()).forEach((name) => { labels[`/house_rules/${name}`] = openPoints.question(name); });
  return { situation, action, labels };
}

// ==========================================================================================
// Asking the referee

/** Show the entry problem beside its cause and move focus there. */
function showProblem(e) {
  if (e.fieldId === 'variant') {
    showError(byId('variant-error'), e.message, byId('variant-choices').querySelector('input'));
    return;
  }
  if (fieldError(e.fieldId, e.message)) return;
  const field = byId(e.fieldId);
  const slot = byId('facts-error');
  if (field) field.after(slot);
  showError(slot, e.message, field && field.querySelector('button') ? field.querySelector('button') : slot);
}

async function submit(ev) {
  if (ev) ev.preventDefault();
  if (m.question === 'options') { askOptions(); return; }
  byId('facts-error').hidden = true;
  document.querySelectorAll('#facts .field-error').forEach((x) => { x.hidden = true; });
  let built;
  try {
    built = buildRequest();
  } catch (e) {
    if (!(e instanceof Problem)) throw e;
    showProblem(e);
    return;
  }
  const body = { situation: built.situation, action: built.action };
  const house = houseRules();
  if (Object.keys(house).length) body.house_rules = house;
  ruling.ask(m.variant, body, built.labels, {
    question: m.question, fields: FIELDS,
    facts: JSON.stringify(m), form: questionForm.hintOf(m),
    answer: (name, value) => { setHouseRule(name, value); submit(); },
    fact: (pointer, value) => { tellRank(pointer, value); submit(); },
  });
}

/** The situation of "What may I do?" from its own form: only what the player entered. */
function buildOptionsRequest() {
  const tm = m.options;
  const labels = {
    '/situation/team/score': t('facts.score'), '/situation/players': t('table.players'),
    '/situation/first_round': t('table.firstRound'), '/variant': t('settle.which'),
    '/situation/stock_count': t('options.stock'), '/situation/team/melds': t('facts.opened'),
    '/situation/turn/drew': t('options.turn'),
  };
  if (!m.variant) throw new Problem(t('settle.chooseRules'), 'variant');
  if (m.variant === 'all') throw new Problem(t('options.oneVariant'), 'variant');
  if (!tm.hand.length) throw new Problem(t('options.handFirst'), 'field-hand');
  const situation = { first_round: m.firstRound };
  if (playersSupported().length > 1) situation.players = m.players;
  if (tm.top.length) Object.assign(situation, pileFacts(tm, labels));
  // Opened with no meld listed: the referee is told so, and says where the melds would matter.
  situation.team = teamFacts(tm, labels, false);
  situation.player = { hand: tm.hand.slice() };
  labelCards(labels, '/situation/player/hand', tm.hand, t('options.hand'));
  const stock = parseWhole(tm.stock, null);
  if (Number.isNaN(stock) || (stock !== null && stock < 0)) throw new Problem(t('options.stockError'), 'stock-count');
  if (stock !== null) situation.stock_count = stock;
  if (tm.turn !== 'unsure') situation.turn = { drew: tm.turn === 'after' ? 'stock' : null };
  return { situation, labels };
}

/**
 * "What may I do?": every legal move (POST /v1/options) in the situation its own form gives. From
 * another question the button opens that form (the hand is entered once, there); from it, it asks.
 */
function askOptions() {
  if (m.question !== 'options') {
    setQuestion('options');
    renderQuestionChoices();
    const target = m.options.hand.length ? byId('options-button') : byId('field-hand');
    if (target) target.scrollIntoView({ block: 'nearest', behavior: 'auto' });
    if (m.options.hand.length) { askOptions(); return; }
    focusPicker();
    return;
  }
  byId('facts-error').hidden = true;
  let built;
  try {
    built = buildOptionsRequest();
  } catch (e) {
    if (!(e instanceof Problem)) throw e;
    showProblem(e);
    return;
  }
  const body = { variant: m.variant, situation: built.situation };
  const house = houseRules();
  if (Object.keys(house).length) body.house_rules = house;
  ruling.options(body, built.labels, { question: m.question, facts: JSON.stringify(m), fields: FIELDS, form: questionForm.hintOf(m),
    fact: (pointer, value) => { tellRank(pointer, value); askOptions(); } });
}

/**
 * A question sent from another phone, or kept with the game (web/received.js): its facts take the form's
 * place and it is ruled -- only if the form then asks exactly that question (its request, house rules
 * included, the very one sent: nothing added, nothing lost). Else the form stays as it was: false.
 */
function askSent(d) {
  const got = questionForm.factsOf(d);
  const variant = d.ask === 'compare' ? 'all' : d.variant;
  if (!got || (variant !== 'all' && !cache.byId[variant])) return false;
  const before = JSON.stringify(m);
  Object.assign(m, { variant, question: got.question, score: got.score, firstRound: got.firstRound, [got.part]: got.facts });
  if (got.players) m.players = got.players;
  if (variant !== 'all' && !gameHere()) m.house[variant] = Object.assign({}, d.house_rules);
  let built = null;
  try { built = got.question === 'options' ? buildOptionsRequest() : buildRequest(); } catch (e) { if (!(e instanceof Problem)) throw e; }
  const house = (x) => (x && Object.keys(x).length ? x : undefined);
  // A player count where the rules allow only that one: the form does not ask it, and it says nothing more.
  const sent = Object.assign({}, d.situation);
  if (built && !('players' in built.situation) && playersSupported().length === 1 && sent.players === playersSupported()[0]) delete sent.players;
  if (!built || !questionForm.same({ situation: built.situation, action: built.action, house: house(houseRules()) },
    { situation: sent, action: d.action, house: house(d.house_rules) })) {
    Object.assign(m, JSON.parse(before));
    return false;
  }
  store('cr.variant', variant);
  save();
  renderVariantChoices();
  renderQuestionChoices();
  renderHouse();
  renderFacts();
  submit();
  return true;
}

// ==========================================================================================

function init() {
  // No variant is chosen for the player on a first visit: a ruling under the wrong rules is worse
  // than one more tap. The last choice (on either tab) is remembered.
  const saved = recall('cr.variant', null);
  m.variant = saved && (saved === 'all' || cache.byId[saved]) ? saved : null;
  renderVariantChoices();
  renderQuestionChoices();
  setVariant(m.variant);
  byId('facts').addEventListener('submit', submit);
  byId('options-button').addEventListener('click', askOptions);
}

function show() {
  // The other tab may have changed the shared variant.
  const saved = recall('cr.variant', null);
  if (saved && saved !== m.variant && cache.byId[saved]) {
    m.variant = saved;
    renderVariantChoices();
    setVariant(saved);
  }
  if (form) form.limits = limitsFor(m.variant);
  renderHouse(); // the game's house rules may have changed on the Score tab
}

/** The language changed: draw the words again (the facts stay). */
function relabel() { renderVariantChoices(); renderQuestionChoices(); renderHouse(); renderFacts(); ruling.relabel(); }

on('data-changed', () => view.dataChanged());

/** Rule data arrived: the card pickers are drawn again only if the deck's limits changed, so a form being
 *  filled in is not redrawn under the player's finger. */
function dataChanged() {
  if (!form) return;
  const limits = limitsFor(m.variant);
  if (form.limits && form.limits.decks === limits.decks && form.limits.jokers === limits.jokers) return;
  form.limits = limits;
  form.render();
}

export const view = { init, show, relabel, dataChanged, askSent };
