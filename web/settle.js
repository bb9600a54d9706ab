/* Settle a dispute: the facts a question needs, built into a request for POST /v1/adjudicate.
 *
 * The facts are kept as they are typed (localStorage), per question, so a follow-up question
 * changes only what differs and a reload loses nothing. The request says only what the family
 * entered: a card is sent only if it was picked, a fact only if it was tapped -- no control starts
 * with a value (#42). A fact the ruling turns on is asked by the referee under its answer (its
 * `conditions`: "Have you drawn this turn?"), and the answer tapped stays on the form with the
 * facts (`said`: the question, its choices and the one picked), changeable and removable. Every
 * pointer of the request is labelled in words (words.js).
 */
import { cache, languageName, limitsFor, variantsForReader } from './api.js';
import { JOKER, cardShort, cardsText, kindWords, rankOf } from './cards.js';
import { checkbox, fieldError, numberField, parseWhole, segmented } from './controls.js';
import { byId, clear, h, recall, showError, store } from './dom.js';
import { capitalise, t } from './i18n.js';
import { openPoints } from './openpoints.js';
import { CardField, CardForm } from './picker.js';
import { questionForm } from './question-form.js';
import { ruling } from './ruling.js';
import { score } from './score-model.js';
import { SETTLE_KEY, blankFacts, emit, on, settleFacts } from './store.js';
import { humanPointer } from './words.js';


const QUESTIONS = ['take_pile', 'meld', 'open', 'go_out', 'discard', 'options'];
// Where on the page each fact of a request is entered: a "fill in" the ruling shows leads there (ruling.js).
const FIELDS = {
  '/situation/team/score': 'team-score', '/situation/players': 'players-choice',
  '/situation/stock_count': 'stock-count', '/situation/player/hand': 'field-hand', '/situation/discard_pile': 'field-options-top',
  '/situation/team/melds': 'table-meld-0', '/situation/turn/drew': 'turn-choice', '/situation/player/hand_count': 'left-choice',
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
  if (!players.includes(m.players)) m.players = null; // not said: the referee asks where the count matters
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
  const said = saidFacts(part());
  if (said) root.appendChild(said);
  const common = h('fieldset', { class: 'block' }, h('legend', null, t('table.legend')));
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

/** The team: its melds on the table, if the family lists them (else whether it has opened, its canastas ...
 *  are asked by the referee where they matter), and its score. */
function teamBlock(tm, opts) {
  const o = opts || {};
  const fs = h('fieldset', { class: 'block' }, h('legend', null, t('facts.team')));
  if (o.table) {
    fs.appendChild(meldList(() => tm.table, (v) => setTable(tm, v), t('facts.tableMeld'), {
      hint: t('facts.tableMeldHint'), addLabel: t('facts.addItsCards'), moreLabel: t('facts.anotherTableMeld'), idPrefix: 'table-meld' }));
  }
  fs.appendChild(scoreField(o.scoreHint, o.needed));
  return fs;
}

/** The facts of the question on screen (its own form's part of the kept facts). */
function part() {
  return { take_pile: m.take, meld: m.meld, open: m.open, go_out: m.out, discard: m.discard, options: m.options }[m.question];
}

const slug = (pointer) => pointer.replace(/^\/situation\//, '').replace(/\W+/g, '-');

/** What the family told the referee under its answers ("Have you drawn this turn?" Yes): each stays on the
 *  form with its question and choices as the referee gave them, to change or take back ("Not sure"). */
function saidFacts(tm) {
  const said = Object.entries(tm.said || {});
  if (!said.length) return null;
  const fs = h('fieldset', { class: 'block said' }, h('legend', null, t('facts.said')));
  said.forEach(([pointer, x]) => fs.appendChild(segmented(x.q, x.c.map(([label], i) => [i, label]).concat([[-1, t('facts.unsure')]]),
    () => x.v, (v) => { if (v < 0) delete tm.said[pointer]; else x.v = v; save(); renderFacts(); },
    { name: `said-${slug(pointer)}`, id: `said-${slug(pointer)}` })));
  return fs;
}

/** A choice tapped under a ruling (one of its `conditions`): kept with the facts of the question on screen. */
function tell(condition, i) {
  const tm = part();
  tm.said = Object.assign({}, tm.said, { [condition.pointer]: {
    q: condition.question, c: condition.choices.map((c) => [c.label, c.patch]), v: i } });
  save();
  renderFacts();
}

/** The said facts into the situation: each choice's JSON merged into it (a JSON Merge Patch onto the request,
 *  as the service gives it), where the form does not say that fact itself (a box ticked since wins). */
function withSaid(situation, tm, labels) {
  const merge = (into, patch) => Object.keys(patch).forEach((k) => {
    const v = patch[k];
    if (v && typeof v === 'object' && !Array.isArray(v)) merge(into[k] && typeof into[k] === 'object' ? into[k] : (into[k] = {}), v);
    else if (!(k in into) && v !== null) into[k] = v;
  });
  Object.entries(tm.said || {}).forEach(([pointer, x]) => {
    if (!x.c[x.v]) return;
    merge(situation, x.c[x.v][1].situation || {});
    // Its question names the place where the form has none; where it has one, the form's words stay: the fact
    // answered, what the referee may still need there is the cards ("Has your team melded?" Yes: its melds).
    if (!(pointer in labels)) labels[pointer] = x.q;
  });
  // An empty object says nothing, and is not sent: the service reads `team: {}` as a team whose facts were begun
  // (it then asks for its melds' cards, not whether it has melded), so nothing said stays absent.
  const prune = (o) => Object.keys(o).forEach((k) => {
    const v = o[k];
    if (v && typeof v === 'object' && !Array.isArray(v)) { prune(v); if (!Object.keys(v).length) delete o[k]; }
  });
  prune(situation);
  return situation;
}

/** Cards added to a meld of the team's, onto one of the melds listed above (drawn again as they change). */
function additionBlock(tm) {
  const ranks = [...new Set(nonEmpty(tm.table).map(naturalRank).filter(Boolean))];
  const fs = h('fieldset', { class: 'block', id: 'addition', dataset: { ranks: ranks.join() } }, h('legend', null, t('facts.addition')));
  if (!ranks.length) {
    fs.appendChild(h('p', { class: 'muted' }, t('facts.additionFirst')));
    return fs;
  }
  if (!ranks.includes(tm.addTo)) tm.addTo = ranks[0];
  fs.appendChild(segmented(t('facts.onto'), ranks.map((r) => [r, kindWords(r, 2)]), () => tm.addTo,
    (v) => { tm.addTo = v; save(); }, { name: 'add-to' }));
  fs.appendChild(cardsField(() => tm.add, (v) => { tm.add = v; }, { label: t('facts.youAdd'), id: 'field-add' }));
  return fs;
}

/** The team's melds listed: the additions' choice of meld follows them. */
function setTable(tm, melds) {
  tm.table = melds;
  const block = byId('addition');
  const ranks = [...new Set(nonEmpty(melds).map(naturalRank).filter(Boolean))].join();
  if (block && block.dataset.ranks !== ranks) queueMicrotask(() => { block.replaceWith(additionBlock(tm)); form.render(); });
}

function naturalRank(meld) {
  const naturals = meld.filter((c) => c !== JOKER && rankOf(c) !== '2');
  return naturals.length ? rankOf(naturals[0]) : null;
}

/** What the family knows of the pile without naming its cards: each box says a fact when ticked, nothing when not. */
function pileTicks(tk, into) {
  into.appendChild(checkbox(t('take.wild'), () => tk.wild, (v) => { tk.wild = v; save(); }, { hint: t('take.wildHint'), id: 'pile-wild' }));
  into.appendChild(checkbox(t('take.red3'), () => tk.red3, (v) => { tk.red3 = v; save(); }, { id: 'pile-red3' }));
  into.appendChild(checkbox(t('take.black3'), () => tk.black3, (v) => { tk.black3 = v; save(); }, { id: 'pile-black3' }));
}

function factsTake() {
  const tk = m.take;
  const frag = document.createDocumentFragment();
  const pile = h('fieldset', { class: 'block' }, h('legend', null, t('take.pile')));
  pile.appendChild(cardsField(() => tk.top, (v) => { tk.top = v; save(); }, { label: t('take.top'), max: 1,
    id: 'field-top', addLabel: t('take.chooseTop') }));
  pileTicks(tk, pile);
  frag.appendChild(pile);

  const hand = h('fieldset', { class: 'block' }, h('legend', null, t('take.hand')));
  hand.appendChild(cardsField(() => tk.with, (v) => { tk.with = v; }, { label: t('take.with'),
    id: 'field-with', hint: t('take.withHint') }));
  const more = h('details', { class: 'more' }, h('summary', null, t('take.alsoMeld')));
  more.appendChild(meldList(() => tk.melds, (v) => { tk.melds = v; }, t('facts.meld'), { hint: t('take.alsoMeldHint') }));
  hand.appendChild(more);
  if (nonEmpty(tk.melds).length) more.open = true;
  frag.appendChild(hand);

  frag.appendChild(teamBlock(tk, { table: true }));
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
  frag.appendChild(additionBlock(tm));
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
  frag.appendChild(teamBlock(tm, { needed: true, scoreHint: t('open.scoreHint') }));
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
  frag.appendChild(teamBlock(tm, { table: !tm.concealed, needed: tm.concealed }));
  if (!tm.concealed) frag.appendChild(additionBlock(tm));
  form.extraCards = () => [];
  return frag;
}

function factsDiscard() {
  const tm = m.discard;
  const frag = document.createDocumentFragment();
  const fs = h('fieldset', { class: 'block' }, h('legend', null, t('discard.legend')));
  fs.appendChild(cardsField(() => tm.card, (v) => { tm.card = v; }, { label: t('discard.card'), max: 1, id: 'field-card' }));
  fs.appendChild(segmented(t('discard.last'), [[2, t('no')], [0, t('discard.lastYes')]], () => tm.left, (v) => { tm.left = v; save(); },
    { name: 'last-card', id: 'left-choice' }));
  frag.appendChild(fs);
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
  if (tm.top.length) pileTicks(tm, table);
  table.appendChild(meldList(() => tm.table, (v) => { tm.table = v; }, t('facts.tableMeld'), {
    hint: t('options.tableHint'), addLabel: t('facts.addItsCards'), moreLabel: t('facts.anotherTableMeld'), idPrefix: 'table-meld' }));
  table.appendChild(scoreField(null, false));
  table.appendChild(numberField(t('options.stock'), () => tm.stock, (v) => { tm.stock = v; save(); },
    { hint: t('options.stockHint'), id: 'stock-count' }));
  frag.appendChild(table);
  form.extraCards = () => [];
  return frag;
}


function leftSelect(tm) {
  return segmented(t('facts.left'), [[2, t('facts.left2')], [1, '1'], [0, t('facts.left0')]], () => tm.left,
    (v) => { tm.left = v; save(); }, { name: 'left', id: 'left-choice' });
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


/** The pile as the family knows it: the top card named, and what lies under it that the family ticked (a wild
 *  card, a black three, a red three first). The cards under it are never named for the player (#34). */
function pileFacts(tk, labels) {
  labels['/situation/discard_pile'] = t('take.pile');
  labels['/situation/discard_pile/0'] = t('label.pileTop', { card: cardShort(tk.top[0]) });
  const under = {};
  [['wild', 'wild', 'take.wild'], ['black3', 'black_three', 'take.black3'], ['red3', 'red_three_first', 'take.red3']].forEach(([own, name, key]) => {
    if (tk[own]) under[name] = true;
    labels[`/situation/pile_unnamed/${name}`] = t(key);
  });
  return Object.assign({ discard_pile: tk.top.slice() }, Object.keys(under).length ? { pile_unnamed: under } : {});
}

/** The team as the family gave it: its score, and its melds where they are listed. Whether it has opened, its
 *  canastas, its ranks ... only as said under a ruling (`said`). Nothing is made up. */
function teamFacts(tm, labels) {
  const team = {};
  const score = teamScore();
  if (score !== null) team.score = score;
  const listed = nonEmpty(tm.table || []);
  labels['/situation/team/melds'] = t('facts.tableMeld');
  if (listed.length) {
    team.melds = listed;
    listed.forEach((meld, i) => { labels[`/situation/team/melds/${i}`] = t('label.teamMeldOf', { cards: cardsText(meld) }); });
  }
  return team;
}

/** The situation every question starts from: the players as tapped (where the rules know several counts). */
function tableFacts() {
  return m.players && (playersSupported().length > 1 || m.variant === 'all') ? { players: m.players } : {};
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
    '/situation/team/score': t('facts.score'), '/situation/players': t('table.players'), '/variant': t('settle.which'),
  };
  if (!m.variant) throw new Problem(t('settle.chooseRules'), 'variant');
  const situation = tableFacts();
  let action;
  const q = m.question;
  if (q === 'take_pile') {
    const tk = m.take;
    if (!tk.top.length) throw new Problem(t('take.topFirst'), 'field-top');
    Object.assign(situation, pileFacts(tk, labels));
    const melds = nonEmpty(tk.melds);
    const hand = tk.with.concat(flat(melds));
    situation.team = teamFacts(tk, labels);
    // The take form asks for the cards shown, not the whole hand: the hand is given only with the melds laid in
    // the same take (the pile's cards in them are told apart from the hand's), never made complete otherwise.
    if (melds.length) situation.player = { hand };
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
    // "Is this enough to open?" says the team has not opened: that is the question asked.
    situation.team = q === 'meld' ? teamFacts(tm, labels) : Object.assign(teamFacts({}, labels), { melds: [] });
    if (typeof tm.left === 'number') situation.player = { hand_count: laid.length + tm.left };
    action = { type: 'meld', melds };
    labelMelds(labels, '/action/melds', melds, t('facts.newMeld'));
    if (adds.length) { action.add = adds; labelCards(labels, '/action/add/0/cards', tm.add, t('facts.youAdd')); }
  } else if (q === 'go_out') {
    const tm = m.out;
    const melds = nonEmpty(tm.melds);
    const adds = !tm.concealed && tm.add.length ? [{ to: tm.addTo, cards: tm.add }] : [];
    if (!melds.length && !adds.length && !tm.discard.length) throw new Problem(t('out.first'), 'out-meld-0');
    const hand = flat(melds).concat(flat(adds.map((a) => a.cards)), tm.discard);
    // Going out concealed (ticked): the player has not melded this round, nor has the team.
    situation.team = tm.concealed ? Object.assign(teamFacts({}, labels), { melds: [] }) : teamFacts(tm, labels);
    situation.player = tm.concealed ? { hand, has_melded: false } : { hand };
    action = { type: 'go_out', melds };
    labelMelds(labels, '/action/melds', melds, t('facts.newMeld'));
    labelCards(labels, '/situation/player/hand', hand, t('seg.hand'));
    if (adds.length) { action.add = adds; labelCards(labels, '/action/add/0/cards', tm.add, t('facts.youAdd')); }
    if (tm.discard.length) { action.discard = tm.discard[0]; labels['/action/discard'] = t('label.discard', { card: cardShort(tm.discard[0]) }); }
  } else {
    const tm = m.discard;
    if (!tm.card.length) throw new Problem(t('discard.first'), 'field-card');
    situation.team = teamFacts({}, labels);
    if (typeof tm.left === 'number') situation.player = { hand_count: tm.left + 1 };
    action = { type: 'discard', card: tm.card[0] };
    labels['/action/card'] = t('label.discard', { card: cardShort(tm.card[0]) });
  }
  withSaid(situation, part(), labels);
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
  // "Is this enough to open?" before any meld: what the score alone asks of an opening, from the referee.
  if (m.question === 'open' && !nonEmpty(m.open.melds).length && m.variant && m.variant !== 'all') {
    let points = null;
    try { points = teamScore(); } catch (e) { if (!(e instanceof Problem)) throw e; }
    if (points !== null) { ruling.need(m.variant, points, { question: 'open', facts: JSON.stringify(m) }); return; }
  }
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
    fact: (condition, i) => { tell(condition, i); submit(); },
  });
}

/** The situation of "What may I do?" from its own form: only what the player entered. */
function buildOptionsRequest() {
  const tm = m.options;
  const labels = {
    '/situation/team/score': t('facts.score'), '/situation/players': t('table.players'), '/variant': t('settle.which'),
    '/situation/stock_count': t('options.stock'), '/situation/turn/drew': t('options.turn'),
  };
  if (!m.variant) throw new Problem(t('settle.chooseRules'), 'variant');
  if (m.variant === 'all') throw new Problem(t('options.oneVariant'), 'variant');
  if (!tm.hand.length) throw new Problem(t('options.handFirst'), 'field-hand');
  const situation = tableFacts();
  if (tm.top.length) Object.assign(situation, pileFacts(tm, labels));
  situation.team = teamFacts(tm, labels);
  situation.player = { hand: tm.hand.slice() };
  labelCards(labels, '/situation/player/hand', tm.hand, t('options.hand'));
  const stock = parseWhole(tm.stock, null);
  if (Number.isNaN(stock) || (stock !== null && stock < 0)) throw new Problem(t('options.stockError'), 'stock-count');
  if (stock !== null) situation.stock_count = stock;
  if (tm.turn === 'before' || tm.turn === 'after') situation.turn = { drew: tm.turn === 'after' ? 'stock' : null };
  withSaid(situation, tm, labels);
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
    fact: (condition, i) => { tell(condition, i); askOptions(); } });
}

/**
 * A question sent from another phone, or kept with the game (web/received.js): its facts take the form's
 * place and it is ruled -- only if the form then asks exactly that question (its request, house rules
 * included, the very one sent: nothing added, nothing lost). Else the form stays as it was: false.
 */
/** Every value of a JSON object by its pointer (arrays are values). */
function leaves(v, at, out) {
  if (v && typeof v === 'object' && !Array.isArray(v)) Object.keys(v).forEach((k) => leaves(v[k], `${at}/${k}`, out));
  else out[at] = v;
  return out;
}

function askSent(d) {
  const got = questionForm.factsOf(d);
  const variant = d.ask === 'compare' ? 'all' : d.variant;
  if (!got || (variant !== 'all' && !cache.byId[variant])) return false;
  const before = JSON.stringify(m);
  Object.assign(m, { variant, question: got.question, score: got.score, players: got.players, [got.part]: got.facts });
  if (variant !== 'all' && !gameHere()) m.house[variant] = Object.assign({}, d.house_rules);
  const build = () => { try { return got.question === 'options' ? buildOptionsRequest() : buildRequest(); } catch (e) { if (!(e instanceof Problem)) throw e; return null; } };
  let built = build();
  const house = (x) => (x && Object.keys(x).length ? x : undefined);
  // A player count where the rules allow only that one: the form does not ask it, and it says nothing more.
  const sent = Object.assign({}, d.situation);
  if (built && !('players' in built.situation) && playersSupported().length === 1 && sent.players === playersSupported()[0]) delete sent.players;
  // A fact the form has no control for (an app's `team.opened`, a link without the words it was said in): kept as
  // said, in the page's words for its place.
  if (built) {
    const mine = leaves(built.situation, '/situation', {});
    Object.entries(leaves(sent, '/situation', {})).forEach(([pointer, value]) => {
      if (pointer in mine || pointer in got.facts.said) return;
      const patch = {};
      pointer.split('/').slice(1).reduce((at, k, i, all) => (at[k] = i === all.length - 1 ? value : {}), patch);
      got.facts.said[pointer] = { q: capitalise(humanPointer(pointer)),
        c: [[typeof value === 'boolean' ? t(value ? 'yes' : 'no') : String(value), patch]], v: 0 };
    });
    built = build();
  }
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
