/* The disputes settled while a game is open, kept with the game on this phone (newest first under the
 * score pad): the question, its verdict, the deciding sentence, the house rules in force and when. Each
 * can be opened again -- ruled again then, never read back from here -- and sent. They go with the game:
 * kept across reloads and offline, in the game's file, and cleared with it.
 */
import { variantName } from './api.js';
import { h } from './dom.js';
import { i18n, t } from './i18n.js';
import { openPoints } from './openpoints.js';
import { questionForm } from './question-form.js';
import { score as S } from './score-model.js';
import { sending } from './sending.js';
import { emit, on } from './store.js';
import { citationBlock } from './words.js';

/** A ruling or a comparison was given: kept with the open game (the same question again updates its record). */
function keep(a) {
  const game = S.game;
  if (!game || a.kind === 'options') return;
  const question = sending.questionOf(a.kind, a.body, a.ctx.form);
  delete question.lang;
  delete question.rules;
  const results = a.kind === 'compare' ? a.result.results.filter((r) => r.ruling) : [];
  const verdict = a.kind === 'ruling' ? a.result.verdict : a.result.agree && results.length ? results[0].ruling.verdict : 'differ';
  const record = { at: new Date().toISOString(), q: a.ctx.question, question, verdict, quote: a.quote || null };
  const list = game.disputes || (game.disputes = []);
  const again = list.findIndex((x) => questionForm.same(x.question, question)); // opened again, or asked in another language
  if (again >= 0) list[again] = Object.assign(record, { at: list[again].at });
  else list.push(record);
  S.save();
}

function when(at) {
  try { return new Date(at).toLocaleString(i18n.lang === 'nb' ? 'nb-NO' : i18n.lang, { dateStyle: 'short', timeStyle: 'short' }); } catch (e) { return at; }
}

function item(d, i) {
  const house = d.question.house_rules || {};
  const head = d.question.variant ? variantName(d.question.variant) : t('variant.all');
  const send = h('button', { type: 'button', class: 'secondary small', id: `dispute-send-${i}`, on: { click: () => sending.send(
    Object.assign({}, d.question, { lang: i18n.lang, rules: sending.rulesOf(d.question.variant ? [d.question.variant] : []) }),
    t('send.title.ruling'), t(`q.${d.q}`), send) } }, t('send.button'));
  return h('li', { class: 'dispute', dataset: { verdict: d.verdict } },
    h('p', { class: 'dispute-head' }, h('span', { class: `pill ${d.verdict}` }, d.verdict === 'differ' ? t('compare.disagree') : t(`verdict.${d.verdict}`)),
      ' ', h('strong', null, t(`q.${d.q}`)), ` \u00b7 ${head} \u00b7 `, h('time', { datetime: d.at }, when(d.at))),
    d.quote ? citationBlock(d.quote) : null,
    Object.keys(house).length ? h('p', { class: 'muted' }, Object.keys(house).map((n) => t('ruling.houseRule', {
      q: openPoints.question(n), a: openPoints.valueLabel(n, house[n]) })).join(' \u00b7 ')) : null,
    h('div', { class: 'row' }, h('button', { type: 'button', class: 'secondary small', id: `dispute-open-${i}`,
      on: { click: () => emit('ask-sent', d.question) } }, t('disputes.open')), send));
}

/** The list under the pad (nothing while the game has none). */
function list() {
  const all = (S.game && S.game.disputes) || [];
  if (!all.length) return null;
  return h('section', { class: 'disputes', id: 'disputes', 'aria-labelledby': 'disputes-title' },
    h('h3', { id: 'disputes-title' }, t('disputes.title', { n: all.length })),
    h('ol', { reversed: true }, all.map((d, i) => item(d, i)).reverse()));
}

on('answered', keep);

export const disputes = { list };
