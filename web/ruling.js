/* A ruling and a comparison, shown: the verdict in one word, why (with the text's own sentences),
 * the open points as questions to answer with a tap, and the same question under every variant.
 */
import { ApiError } from './api-error.js';
import { api, variantName } from './api.js';
import { busy } from './busy.js';
import { byId, clear, h, motion } from './dom.js';
import { capitalise, fmtNumber, t } from './i18n.js';
import { openPoints } from './openpoints.js';
import { emit, on } from './store.js';
import { citationBlock, humanPointer, problemBox, serverWords } from './words.js';

const server = { server: '' };

let last = null; // {variant, body, labels, ctx}

const FOCUS = {
  take_pile: ['pile.', 'first_round.no_pile', 'opening.'],
  meld: ['meld.', 'opening.', 'go_out.keep_card', 'black_three', 'red_three'],
  open: ['opening.', 'first_round.no_opening', 'meld.'],
  go_out: ['go_out.', 'opening.', 'black_three', 'meld.'],
  discard: ['go_out.', 'red_three', 'turn.'],
};

/**
 * A sentence of the service that names a parameter by its code ("does not settle wild.twos")
 * is not for a player: the open point is asked in words instead, so that sentence is left out.
 */
function forPlayers(ruling, text) {
  const codes = (ruling.not_stated || []).concat((ruling.interpretations || []).map((i) => i.parameter));
  return codes.some((c) => text.includes(c)) ? null : serverWords(text);
}

function verdictWord(ruling) {
  if (ruling.verdict === 'undetermined' && ruling.missing && ruling.missing.length && !ruling.not_stated.length) return t('verdict.missing');
  return t(`verdict.${ruling.verdict}`);
}

/** The checks that decide the verdict: failures, open points, or (when legal) the ones the question is about. */
function decidingReasons(ruling, question) {
  if (ruling.verdict === 'illegal') return ruling.reasons.filter((r) => r.passed === false);
  if (conditionsOf(ruling).length) return []; // turning on facts: its lines say what each way gives, and why
  if (ruling.verdict === 'undetermined') return ruling.reasons.filter((r) => r.passed === null);
  const focus = FOCUS[question] || [];
  const hits = ruling.reasons.filter((r) => focus.some((p) => r.rule.startsWith(p)));
  return (hits.length ? hits : ruling.reasons.filter((r) => r.rule !== 'turn.draw_first')).slice(0, 2);
}

/**
 * The facts changed after the answer on screen was given: mark it out of date (and not when they
 * are changed back). `facts` is the settle view's state as JSON, as it was sent with the question.
 */
function factsChanged(facts) {
  const out = byId('ruling');
  if (!out || !last || !out.querySelector('.ruling-body, .compare-body')) return;
  const stale = facts !== last.ctx.facts;
  out.classList.toggle('stale', stale);
  let note = out.querySelector('.stale-note');
  if (stale && !note) {
    note = h('p', { class: 'stale-note', role: 'status' }, t('ruling.stale'));
    out.prepend(note);
  } else if (!stale && note) note.remove();
}

/** A new language: the answer on screen is asked again in it (the facts it answered are kept); an out-of-date one is only relabelled. */
function relabel() {
  const out = byId('ruling');
  if (!last || !out || !out.querySelector('.ruling-body, .compare-body')) return;
  if (out.classList.contains('stale')) { out.querySelector('.stale-note').textContent = t('ruling.stale'); return; }
  if (last.ctx.kind === 'options') options(last.body, last.labels, last.ctx);
  else if (last.ctx.kind === 'need') need(last.variant, last.ctx.points, last.ctx);
  else ask(last.variant, last.body, last.labels, last.ctx);
}

async function ask(variant, body, labels, ctx) {
  last = { variant, body, labels, ctx };
  byId('ruling').classList.remove('stale');
  const out = byId('ruling');
  const done = busy(byId('rule-button'), out, 'ruling.asking');
  try {
    if (variant === 'all') {
      const result = await api('POST', '/v1/compare', compareBody(body));
      clear(out).appendChild(renderCompare(result, labels, ctx));
      answered('compare', compareBody(body), result, ctx, out);
    } else {
      const ruling = await api('POST', '/v1/adjudicate', Object.assign({ variant }, body));
      clear(out).appendChild(renderRuling(ruling, labels, ctx));
      answered('ruling', Object.assign({ variant }, body), ruling, ctx, out);
    }
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    clear(out).appendChild(e.offline ? offlineBox() : problemBox(e.problem, labels));
  } finally {
    done();
  }
  focusHead(out, '.verdict, .compare-head, .problem');
}

/** An answer is on screen: its Send (web/sending.js) and, while a game is open, its place in the game's
 *  disputes (web/disputes.js) follow from this. `quote`: the sentence that decides a ruling. */
function answered(kind, body, result, ctx, box) {
  const deciding = kind === 'ruling' && decidingReasons(result, ctx.question).find((r) => r.citations.length);
  emit('answered', { kind, body, result, ctx, box, quote: deciding ? deciding.citations[0] : null });
}

/** Said under an answer the engine on the phone gave (no signal): same engine, same words, made here. */
function onPhoneNote() { return h('p', { class: 'on-phone' }, t('ruling.onPhone')); }

function offlineBox() {
  return h('div', { class: 'problem offline', role: 'alert' }, h('p', { class: 'problem-title' }, t('ruling.offlineTitle')),
    h('p', null, t('ruling.offline')));
}

function focusHead(box, selector) {
  const head = box.querySelector(selector);
  if (!head) return;
  head.setAttribute('tabindex', '-1');
  head.focus({ preventScroll: true });
  head.scrollIntoView({ block: 'start', behavior: motion() });
}

function renderRuling(ruling, labels, ctx) {
  const wrap = h('div', { class: 'ruling-body' });
  const deciding = decidingReasons(ruling, ctx.question);
  const facts = conditionsOf(ruling);
  wrap.appendChild(h('div', { class: `verdict ${ruling.verdict}`, role: 'status', dataset: { verdict: ruling.verdict } },
    facts.length ? conditionLines(facts) : h('p', { class: 'verdict-word' }, verdictWord(ruling)),
    h('p', { class: 'verdict-sub' }, t(`q.${ctx.question}`), ' \u00b7 ', h('strong', { dataset: server }, variantName(ruling.variant)))));

  if (ruling.onPhone) wrap.appendChild(onPhoneNote());
  // The facts the verdict turns on, each a question answered with a tap ("Have you drawn this turn?"), asked
  // under the lines they decide; what no tap can give (cards) is filled in on the form.
  const asked = ctx.fact ? facts : [];
  if (asked.length) {
    wrap.appendChild(openPoints.openPointsBox(asked.map((c) => ({ id: ctx.kind === 'options' ? null : `fact-${slug(c.pointer)}`,
      parameter: c.pointer, pointer: c.pointer, question: c.question, server: true,
      choices: c.choices.map((x, i) => ({ value: i, verdict: x.verdict, label: x.label })) })),
    (pointer, i) => ctx.fact(asked.find((c) => c.pointer === pointer), i), true));
  }
  const points = openPoints.pointsOf(ruling);
  if (points.length && ctx.answer) wrap.appendChild(openPoints.openPointsBox(points, ctx.answer));

  const why = h('div', { class: 'why' });
  const shown = new Set();
  deciding.forEach((r) => {
    const said = forPlayers(ruling, r.explanation);
    if (said) why.appendChild(h('p', { class: 'why-text', dataset: server }, said));
    const cites = r.citations.filter((c) => !shown.has(`${c.variant}:${c.start}`));
    cites.forEach((c) => shown.add(`${c.variant}:${c.start}`));
    cites.slice(0, 2).forEach((c) => why.appendChild(citationBlock(c)));
    if (cites.length > 2) {
      const more = h('details', { class: 'more' }, h('summary', null, t('ruling.moreSentences', { n: cites.length - 2 })));
      cites.slice(2).forEach((c) => more.appendChild(citationBlock(c)));
      why.appendChild(more);
    }
  });
  if (!deciding.length && !facts.length && forPlayers(ruling, ruling.summary)) why.appendChild(h('p', { class: 'why-text', dataset: server }, ruling.summary));
  houseRulesUsed(ruling, deciding).forEach((hr) => why.appendChild(h('p', { class: 'muted house-note' },
    t('ruling.houseRule', { q: openPoints.question(hr.parameter), a: openPoints.valueLabel(hr.parameter, hr.value) }))));
  wrap.appendChild(why);

  const rest = (ruling.missing || []).filter((p) => !asked.some((c) => c.pointer === p));
  if (ruling.verdict === 'undetermined' && rest.length) {
    wrap.appendChild(h('div', { class: 'note-box missing' }, h('p', null, h('strong', null, t('ruling.needs'))),
      h('ul', null, rest.map((p) => missingItem(p, labels, ctx))),
      h('p', { class: 'muted' }, t(ctx.kind === 'options' ? 'ruling.fillInOptions' : 'ruling.fillIn'))));
  }
  if (ruling.consequences && ruling.consequences.length) {
    wrap.appendChild(h('div', { class: 'next' }, h('h3', null, t('ruling.next')),
      h('ul', null, ruling.consequences.map((c) => h('li', { dataset: server }, serverWords(c))))));
  }

  wrap.appendChild(h('div', { class: 'actionbar inline' },
    h('button', { type: 'button', class: 'primary', id: 'compare-button', on: { click: compareAll } }, t('ruling.compare'))));
  wrap.appendChild(h('div', { id: 'compare', class: 'compare', 'aria-live': 'polite' }));

  const all = h('details', { class: 'more checks' }, h('summary', null, t('ruling.allChecks', { n: ruling.reasons.length })));
  const list = h('ul', { class: 'check-list' });
  ruling.reasons.forEach((r) => {
    const mark = r.passed === true ? ['ok', '\u2713', 'check.passed'] : r.passed === false ? ['bad', '\u2717', 'check.failed'] : ['open', '?', 'check.open'];
    const li = h('li', { class: `check-item ${mark[0]}`, dataset: { rule: r.rule } },
      h('span', { class: 'mark', role: 'img', 'aria-label': t(mark[2]) }, mark[1]),
      h('div', null, h('p', { dataset: server }, forPlayers(ruling, r.explanation) || t('check.openPoint'))));
    if (r.citations.length) {
      const c = h('details', { class: 'more' }, h('summary', null, t('ruling.textSays', { n: r.citations.length })));
      r.citations.forEach((x) => c.appendChild(citationBlock(x)));
      li.lastChild.appendChild(c);
    }
    list.appendChild(li);
  });
  all.appendChild(list);
  wrap.appendChild(all);

  const interps = (ruling.interpretations || []).filter((i) => !(ruling.not_stated || []).includes(i.parameter) && i.status === 'interpreted');
  if (interps.length) {
    const box = h('details', { class: 'more' }, h('summary', null, t('ruling.readings', { n: interps.length })));
    interps.forEach((i) => {
      box.appendChild(h('div', { class: 'interp' },
        i.note ? h('p', { class: 'muted', dataset: server }, i.note) : null,
        (i.citations || []).slice(0, 1).map(citationBlock)));
    });
    wrap.appendChild(box);
  }
  return wrap;
}

/** The house rules the ruling stands on, each once: those of its deciding checks; where it is not decided yet
 *  (it hangs on facts or on points of the text), those of every check, since the ways it can go all rest on them. */
function houseRulesUsed(ruling, deciding) {
  const from = ruling.verdict === 'undetermined' ? ruling.reasons : deciding;
  const seen = new Map();
  from.forEach((r) => (r.house_rules || []).forEach((hr) => { if (!seen.has(hr.parameter)) seen.set(hr.parameter, hr); }));
  return [...seen.values()];
}

const slug = (pointer) => pointer.replace(/^\/situation\//, '').replace(/\W+/g, '-');

/** The facts a ruling turns on, as the referee asks them: each its pointer, question and choices (label,
 *  verdict, the JSON to send: `situation`), ruled under each. */
function conditionsOf(ruling) { return ruling.verdict === 'undetermined' ? ruling.conditions || [] : []; }

/** The answer where it turns on facts: a line per way it can go, each verdict with its conditions as the
 *  referee words them ("Allowed once you have drawn, after the first round"), and why where it is not allowed. */
function ways(conditions, above) {
  return conditions[0].choices.flatMap((x) => {
    const at = above.concat([[conditions[0].kind, x.condition]]);
    if (x.conditions && x.conditions.length) return ways(x.conditions, at);
    return [{ verdict: x.verdict, kinds: at.map(([kind]) => kind).join(' '), said: at.map(([, said]) => said).join(', '), why: x.explanations || [] }];
  });
}

function conditionLines(conditions) {
  return ways(conditions, []).map((w) => h('p', { class: `verdict-if ${w.verdict}`, dataset: { verdict: w.verdict, kinds: w.kinds } },
    h('strong', null, t(`verdict.${w.verdict}`)), ' ', h('span', { dataset: server }, w.said),
    w.verdict === 'legal' || !w.why.length ? null : h('span', { class: 'verdict-if-why', dataset: server }, ` \u2013 ${serverWords(w.why.join(' '))}`)));
}

/** Where on the page a missing fact is entered: the view's map of pointers to fields (its longest prefix). */
function fieldFor(pointer, fields) {
  let best = null;
  Object.keys(fields || {}).forEach((key) => {
    if ((pointer === key || pointer.startsWith(`${key}/`)) && (!best || key.length > best.length)) best = key;
  });
  return best ? fields[best] : null;
}

/** A fact the referee needs, with a button that takes the player to the field where it is entered. */
function missingItem(pointer, labels, ctx) {
  const id = fieldFor(pointer, ctx.fields);
  const go = () => {
    const el = byId(id);
    if (!el) return;
    el.scrollIntoView({ block: 'center', behavior: motion() });
    const target = el.matches('input, button') ? el : el.querySelector('input, button');
    if (target) target.focus({ preventScroll: true });
  };
  return h('li', { dataset: { pointer, field: id || '' } }, capitalise(humanPointer(pointer, labels)),
    id ? [' ', h('button', { type: 'button', class: 'link fill-in', on: { click: go } }, t('ruling.fillThis'))] : null);
}

async function compareAll() {
  if (!last) return;
  const box = byId('compare');
  const done = busy(byId('compare-button'), box, 'ruling.comparing');
  try {
    const result = await api('POST', '/v1/compare', compareBody(last.body));
    clear(box).appendChild(renderCompare(result, last.labels, Object.assign({}, last.ctx, { house: last.body.house_rules })));
    answered('compare', compareBody(last.body), result, Object.assign({}, last.ctx, { form: null }), box);
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    clear(box).appendChild(e.offline ? offlineBox() : problemBox(e.problem, last.labels));
  } finally {
    done();
  }
  focusHead(box, '.compare-head, .problem');
}

/** The compare request: the same facts, and the house rules the table plays by (they apply to every text). */
function compareBody(body) {
  const out = { situation: body.situation, action: body.action };
  if (body.house_rules && Object.keys(body.house_rules).length) out.house_rules = body.house_rules;
  return out;
}

/** What Compare read: the texts as written, or with the table's house rules (named in words). */
function houseLine(house) {
  const names = Object.keys(house || {});
  if (!names.length) return h('p', { class: 'muted compare-house' }, t('compare.asWritten'));
  return h('p', { class: 'muted compare-house' }, t('compare.withHouse', {
    what: names.map((n) => `${openPoints.question(n)} ${openPoints.valueLabel(n, house[n])}`).join(' \u00b7 ') }));
}

function renderCompare(result, labels, ctx) {
  const wrap = h('div', { class: 'compare-body' });
  // The referee's own headline, true to its groups ("agree" only where verdicts and conditions agree), then a
  // line per variant: its verdict and why it differs (the referee's `why`; else its deciding reason).
  wrap.appendChild(h('h3', { class: 'compare-head', dataset: server }, serverWords(result.headline || '')));
  if (result.onPhone) wrap.appendChild(onPhoneNote());
  wrap.appendChild(houseLine(ctx.house));
  const reasonOf = (entry) => {
    if (!entry.ruling) return '';
    if (entry.why) return entry.why;
    const first = decidingReasons(entry.ruling, ctx.question)[0];
    return forPlayers(entry.ruling, first ? first.explanation : entry.ruling.summary) || t('check.openPoint');
  };
  wrap.appendChild(h('ul', { class: 'compare-lines' }, result.results.map((entry) => h('li', { dataset: { variant: entry.variant } },
    h('strong', { dataset: server }, variantName(entry.variant)), ' ',
    h('span', { class: `pill ${entry.ruling ? entry.ruling.verdict : 'problem'}` }, entry.ruling ? verdictWord(entry.ruling) : t('compare.cannot')),
    ' ', h('span', { class: 'compare-line-why', dataset: server }, serverWords(reasonOf(entry)))))));
  const grid = h('div', { class: 'compare-grid' });
  result.results.forEach((entry) => {
    const card = h('article', { class: 'compare-card', dataset: { variant: entry.variant }, 'aria-label': t('compare.cardLabel', { name: variantName(entry.variant) }) });
    card.appendChild(h('h4', { dataset: server }, variantName(entry.variant)));
    if (entry.ruling) {
      const r = entry.ruling;
      card.classList.add(r.verdict);
      card.appendChild(h('p', { class: 'compare-verdict' }, verdictWord(r)));
      const first = decidingReasons(r, ctx.question)[0];
      const cite = first && first.citations[0];
      if (cite) card.appendChild(citationBlock(cite));
    } else if (entry.problem) {
      card.classList.add('problem-card');
      card.appendChild(h('p', { class: 'compare-verdict' }, t('compare.cannot')));
      const p = entry.problem;
      const errs = (p.errors || []).map((e) => `${capitalise(humanPointer(e.pointer || '', labels))}: ${e.detail}`);
      card.appendChild(h('p', { class: 'compare-why', dataset: server }, serverWords(errs.length ? errs.join(' ') : (p.detail || p.title))));
    }
    grid.appendChild(card);
  });
  wrap.appendChild(grid);

  const diffs = result.differences || [];
  if (diffs.length) {
    const box = h('details', { class: 'more differences', open: !result.agree },
      h('summary', null, t(result.agree ? 'compare.reachDifferently' : 'compare.whyDiffer', { n: diffs.length })));
    diffs.forEach((d) => {
      const item = h('div', { class: 'difference' });
      // A `why` made of parameter codes ("meld.max_wilds: da-ludo null ...") is not for players: the rows below say it.
      const codes = (d.parameters || []).concat(d.differing_parameters || []);
      if (d.why && !codes.some((c) => d.why.includes(c))) item.appendChild(h('p', { class: 'diff-why', dataset: server }, serverWords(d.why)));
      const rows = h('ul', { class: 'diff-rows' });
      (d.variants || []).forEach((x) => {
        const outcome = x.outcome || (x.counted ? 'passed' : 'failed');
        const li = h('li', { class: 'diff-row' },
          h('p', null, h('strong', { dataset: server }, variantName(x.variant)), ' ', h('span', { class: 'pill' }, t(`outcome.${outcome.replace(/\s+/g, '_')}`))),
          x.explanation && !(d.differing_parameters || []).some((c) => x.explanation.includes(c)) ? h('p', { dataset: server }, serverWords(x.explanation)) : null);
        if (x.citations && x.citations.length) li.appendChild(citationBlock(x.citations[0]));
        rows.appendChild(li);
      });
      item.appendChild(rows);
      box.appendChild(item);
    });
    wrap.appendChild(box);
  }
  return wrap;
}

/** "What may I do?": the service's groups of legal moves, each move a button that shows its ruling. */
async function options(body, labels, ctx) {
  last = { variant: body.variant, body, labels, ctx: Object.assign({ kind: 'options' }, ctx) };
  ctx = last.ctx;
  const out = byId('ruling');
  out.classList.remove('stale');
  const done = busy(byId('options-button'), out, 'options.asking');
  try {
    const result = await api('POST', '/v1/options', body);
    clear(out).appendChild(renderOptions(result, labels, ctx));
    answered('options', body, result, ctx, out);
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    clear(out).appendChild(e.offline ? offlineBox() : problemBox(e.problem, labels));
  } finally {
    done();
  }
  focusHead(out, '.compare-head, .problem');
}

// What most players ask first: may I take the pile, may I go out; then the rest of the turn.
const GROUP_ORDER = ['take_pile', 'go_out', 'draw', 'meld', 'discard'];
const FIRST_FEW = 3;

/** A move's family: moves that lay the same kinds of card the same way fold under the first of them
 *  (the service lists its best proposals first). Taking the pile: the cards shown with the top card. */
function familyOf(o) {
  const kinds = (cards) => (cards || []).map((c) => (c === 'JK' || /^2/.test(c) ? 'W' : c.slice(0, -1))).sort().join(',');
  const a = o.action || {};
  if (o.kind === 'take_pile') return `take:${kinds(a.with)}`;
  if (a.type === 'meld' || a.type === 'go_out') {
    const ranks = (a.melds || []).map((mm) => kinds(mm).split(',').filter((k) => k !== 'W')[0] || 'W').sort();
    const adds = (a.add || []).map((x) => `+${x.to}`).sort();
    return `${a.type}:${ranks.concat(adds).join(',')}`;
  }
  return o.key;
}

function fold(options) {
  const families = new Map();
  options.forEach((o) => {
    const k = familyOf(o);
    if (!families.has(k)) families.set(k, []);
    families.get(k).push(o);
  });
  return [...families.values()];
}

function renderOptions(result, labels, ctx) {
  const wrap = h('div', { class: 'compare-body options-body' });
  wrap.appendChild(h('h3', { class: 'compare-head' }, t('options.title', { name: variantName(result.variant) })));
  if (result.onPhone) wrap.appendChild(onPhoneNote());
  if (result.opening_requirement && result.opening_requirement.text) {
    wrap.appendChild(h('p', { class: 'opening', dataset: server }, result.opening_requirement.text));
  }
  const rank = (g) => { const i = GROUP_ORDER.indexOf(g.kind); return i < 0 ? GROUP_ORDER.length : i; };
  result.groups.slice().sort((a, b) => rank(a) - rank(b)).forEach((g) => {
    const section = h('section', { class: 'options-group', dataset: { kind: g.kind } }, h('h3', { dataset: server }, g.heading));
    if (g.options.length) {
      const families = fold(g.options);
      const list = h('ul', { class: 'options-list' });
      const hidden = [];
      families.forEach((family, i) => {
        const li = h('li', { class: 'option-family' }, optionButton(family[0], labels, ctx));
        if (family.length > 1) {
          moreButton(t('options.more', { n: family.length - 1 }),
            h('ul', { class: 'fold-list' }, family.slice(1).map((o) => h('li', null, optionButton(o, labels, ctx))))).forEach((x) => li.appendChild(x));
        }
        if (i >= FIRST_FEW) { li.hidden = true; hidden.push(li); }
        list.appendChild(li);
      });
      section.appendChild(list);
      if (hidden.length) {
        const more = h('button', { type: 'button', class: 'link options-more', on: { click: () => {
          hidden.forEach((li) => { li.hidden = false; });
          more.remove();
          const first = hidden[0].querySelector('button');
          if (first) first.focus();
        } } }, t('options.groupMore', { n: hidden.length }));
        section.appendChild(more);
      }
    } else {
      const why = g.blocked ? serverWords(g.blocked.summary) : t('options.none');
      section.appendChild(h('p', { class: 'options-none', dataset: g.blocked ? server : {} }, why));
    }
    // What the referee could not list without a fact (a wild card onto the team's melds, not listed): said under
    // the group with a way to give it, never left out in silence.
    if (g.missing && g.missing.length) {
      section.appendChild(h('div', { class: 'note-box missing group-missing' }, h('p', null, t('options.groupNeeds')),
        h('ul', null, g.missing.map((p) => missingItem(p, labels, ctx))), h('p', { class: 'muted' }, t('ruling.fillInOptions'))));
    }
    wrap.appendChild(section);
  });
  return wrap;
}

/** "n more like this": a button that shows (and hides) the folded moves under the first. */
function moreButton(label, list) {
  list.hidden = true;
  const button = h('button', { type: 'button', class: 'link options-more', 'aria-expanded': 'false', on: { click: () => {
    const open = button.getAttribute('aria-expanded') !== 'true';
    button.setAttribute('aria-expanded', String(open));
    list.hidden = !open;
  } } }, label);
  return [button, list];
}

/** A move's verdict in a word; one that turns on facts, the way it is allowed ("Allowed · if your team has a
 *  meld of sevens", the service's condition) where there is one. */
function optionVerdict(o) {
  const facts = o.ruling ? conditionsOf(o.ruling) : [];
  const way = facts.length ? ways(facts, []).find((w) => w.verdict === 'legal') : null;
  const verdict = way ? 'legal' : o.verdict;
  return [h('span', { class: `pill ${verdict}`, dataset: { verdict } }, t(`verdict.${verdict}`)),
    way ? h('span', { class: 'option-if', dataset: server }, o.condition || way.said) : null];
}

function optionButton(o, labels, ctx) {
  const panel = h('div', { class: 'option-why', hidden: true });
  const button = h('button', { type: 'button', class: 'option-button', 'aria-expanded': 'false', dataset: { key: o.key } },
    h('span', { dataset: server }, serverWords(o.description)), optionVerdict(o));
  button.addEventListener('click', () => {
    const open = button.getAttribute('aria-expanded') !== 'true';
    button.setAttribute('aria-expanded', String(open));
    if (open && !panel.firstChild) panel.appendChild(renderRuling(o.ruling, labels, Object.assign({}, ctx, { answer: null, kind: 'options' })));
    panel.hidden = !open;
  });
  return h('div', null, button, panel);
}

/** "Is this enough to open?" from the score alone (no meld yet): what the referee says the score asks of an
 *  opening (`opening_requirement` of POST /v1/options for a team with that score, not opened). */
async function need(variant, points, ctx) {
  last = { variant, body: null, labels: {}, ctx: Object.assign({ kind: 'need', points }, ctx) };
  const out = byId('ruling');
  out.classList.remove('stale');
  const done = busy(byId('rule-button'), out, 'ruling.asking');
  try {
    const said = (await api('POST', '/v1/options', { variant, situation: { team: { score: points, melds: [] } } })).opening_requirement;
    clear(out).appendChild(h('div', { class: 'ruling-body' }, h('div', { class: 'verdict need', role: 'status' },
      h('p', { class: 'verdict-if' }, h('strong', null, t('open.atScore', { n: fmtNumber(points) })), ' ',
        h('span', { dataset: server }, said ? said.text : '')),
      said && said.note ? h('p', { class: 'muted', dataset: server }, said.note) : null,
      h('p', { class: 'verdict-sub' }, t('q.open'), ' \u00b7 ', h('strong', { dataset: server }, variantName(variant))))));
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    clear(out).appendChild(e.offline ? offlineBox() : problemBox(e.problem, {}));
  } finally {
    done();
  }
  focusHead(out, '.verdict, .problem');
}

on('facts-changed', factsChanged);

export const ruling = { ask, relabel, options, need };
