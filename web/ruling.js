/* A ruling and a comparison, shown: the verdict in one word, why (with the text's own sentences),
 * the open points as questions to answer with a tap, and the same question under every variant.
 */
import { ApiError } from './api-error.js';
import { api, variantName } from './api.js';
import { busy } from './busy.js';
import { byId, clear, h, motion } from './dom.js';
import { capitalise, t } from './i18n.js';
import { openPoints } from './openpoints.js';
import { on } from './store.js';
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
  else ask(last.variant, last.body, last.labels, last.ctx);
}

async function ask(variant, body, labels, ctx) {
  last = { variant, body, labels, ctx };
  byId('ruling').classList.remove('stale');
  const out = byId('ruling');
  clear(out).appendChild(h('p', { class: 'busy' }, t('ruling.asking')));
  const done = busy(byId('rule-button'));
  try {
    if (variant === 'all') {
      const result = await api('POST', '/v1/compare', { situation: body.situation, action: body.action });
      clear(out).appendChild(renderCompare(result, labels, ctx));
    } else {
      const ruling = await api('POST', '/v1/adjudicate', Object.assign({ variant }, body));
      clear(out).appendChild(renderRuling(ruling, labels, ctx));
    }
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    clear(out).appendChild(e.offline ? offlineBox() : problemBox(e.problem, labels));
  } finally {
    done();
  }
  focusHead(out, '.verdict, .compare-head, .problem');
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
  wrap.appendChild(h('div', { class: `verdict ${ruling.verdict}`, role: 'status', dataset: { verdict: ruling.verdict } },
    h('p', { class: 'verdict-word' }, verdictWord(ruling)),
    h('p', { class: 'verdict-sub' }, t(`q.${ctx.question}`), ' \u00b7 ', h('strong', { dataset: server }, variantName(ruling.variant)))));

  if (ruling.onPhone) wrap.appendChild(onPhoneNote());
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
    (r.house_rules || []).forEach((hr) => why.appendChild(h('p', { class: 'muted house-note' },
      t('ruling.houseRule', { q: openPoints.question(hr.parameter), a: openPoints.valueLabel(hr.parameter, hr.value) }))));
  });
  if (!deciding.length && forPlayers(ruling, ruling.summary)) why.appendChild(h('p', { class: 'why-text', dataset: server }, ruling.summary));
  wrap.appendChild(why);

  if (ruling.missing && ruling.missing.length) {
    wrap.appendChild(h('div', { class: 'note-box' }, h('p', null, h('strong', null, t('ruling.needs'))),
      h('ul', null, ruling.missing.map((p) => h('li', null, capitalise(humanPointer(p, labels))))),
      h('p', { class: 'muted' }, t('ruling.fillIn'))));
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

async function compareAll() {
  if (!last) return;
  const box = byId('compare');
  clear(box).appendChild(h('p', { class: 'busy' }, t('ruling.comparing')));
  try {
    const result = await api('POST', '/v1/compare', { situation: last.body.situation, action: last.body.action });
    clear(box).appendChild(renderCompare(result, last.labels, last.ctx));
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    clear(box).appendChild(e.offline ? offlineBox() : problemBox(e.problem, last.labels));
  }
  focusHead(box, '.compare-head, .problem');
}

function renderCompare(result, labels, ctx) {
  const wrap = h('div', { class: 'compare-body' });
  const rulings = result.results.filter((r) => r.ruling);
  let headline;
  if (!rulings.length) headline = t('compare.none');
  else if (result.agree) headline = t('compare.agree', { n: rulings.length, all: rulings.length === result.results.length, verdict: t(`verdict.${rulings[0].ruling.verdict}`) });
  else headline = t('compare.disagree');
  wrap.appendChild(h('h3', { class: 'compare-head' }, headline));
  if (result.onPhone) wrap.appendChild(onPhoneNote());
  if (result.groups && result.groups.length > 1) {
    wrap.appendChild(h('ul', { class: 'groups' }, result.groups.map((g) => h('li', null,
      h('span', { class: `pill ${g.verdict}` }, t(`verdict.${g.verdict}`)), ' ',
      h('span', { dataset: server }, g.variants.map(variantName).join(', '))))));
  }
  // When every variant gives the same reason, say it once above the cards.
  const reasonOf = (entry) => {
    if (!entry.ruling) return null;
    const first = decidingReasons(entry.ruling, ctx.question)[0];
    return forPlayers(entry.ruling, first ? first.explanation : entry.ruling.summary) || t('check.openPoint');
  };
  const reasons = result.results.map(reasonOf);
  const shared = reasons.length > 1 && reasons.every((r) => r !== null && r === reasons[0]) ? reasons[0] : null;
  if (shared) wrap.appendChild(h('p', { class: 'why-text shared-why', dataset: server }, shared));
  const grid = h('div', { class: 'compare-grid' });
  result.results.forEach((entry) => {
    const card = h('article', { class: 'compare-card', dataset: { variant: entry.variant }, 'aria-label': t('compare.cardLabel', { name: variantName(entry.variant) }) });
    card.appendChild(h('h4', { dataset: server }, variantName(entry.variant)));
    if (entry.ruling) {
      const r = entry.ruling;
      card.classList.add(r.verdict);
      card.appendChild(h('p', { class: 'compare-verdict' }, verdictWord(r)));
      const first = decidingReasons(r, ctx.question)[0];
      if (!shared) card.appendChild(h('p', { class: 'compare-why', dataset: server }, forPlayers(r, first ? first.explanation : r.summary) || t('check.openPoint')));
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
  const out = byId('ruling');
  out.classList.remove('stale');
  clear(out).appendChild(h('p', { class: 'busy' }, t('options.asking')));
  const done = busy(byId('options-button'));
  try {
    const result = await api('POST', '/v1/options', body);
    clear(out).appendChild(renderOptions(result, labels, ctx));
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    clear(out).appendChild(e.offline ? offlineBox() : problemBox(e.problem, labels));
  } finally {
    done();
  }
  focusHead(out, '.compare-head, .problem');
}

function renderOptions(result, labels, ctx) {
  const wrap = h('div', { class: 'compare-body options-body' });
  wrap.appendChild(h('h3', { class: 'compare-head' }, t('options.title', { name: variantName(result.variant) })));
  if (result.onPhone) wrap.appendChild(onPhoneNote());
  if (result.opening_requirement && result.opening_requirement.text) {
    wrap.appendChild(h('p', { class: 'opening', dataset: server }, result.opening_requirement.text));
  }
  result.groups.forEach((g) => {
    const section = h('section', { class: 'options-group', dataset: { kind: g.kind } }, h('h3', { dataset: server }, g.heading));
    if (g.options.length) {
      section.appendChild(h('ul', { class: 'options-list' }, g.options.map((o) => h('li', null, optionButton(o, labels, ctx)))));
    } else {
      const why = g.blocked ? g.blocked.summary : t('options.none');
      section.appendChild(h('p', { class: 'options-none', dataset: g.blocked ? server : {} }, why));
    }
    wrap.appendChild(section);
  });
  return wrap;
}

function optionButton(o, labels, ctx) {
  const panel = h('div', { class: 'option-why', hidden: true });
  const button = h('button', { type: 'button', class: 'option-button', 'aria-expanded': 'false', dataset: { key: o.key } },
    h('span', { dataset: server }, o.description), h('span', { class: `pill ${o.verdict}` }, t(`verdict.${o.verdict}`)));
  button.addEventListener('click', () => {
    const open = button.getAttribute('aria-expanded') !== 'true';
    button.setAttribute('aria-expanded', String(open));
    if (open && !panel.firstChild) panel.appendChild(renderRuling(o.ruling, labels, Object.assign({}, ctx, { answer: null })));
    panel.hidden = !open;
  });
  return h('div', null, button, panel);
}

on('facts-changed', factsChanged);

export const ruling = { ask, relabel, options };
