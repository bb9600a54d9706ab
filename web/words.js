/* Problems and citations in plain words.
 *
 * The service points at what is wrong with a JSON pointer ("/rounds/1/teams/0/melded_points").
 * A player never sees one: each view passes `labels`, words for the pointers of the request it
 * built ("round 2, Vi: points of the melded cards"); anything else falls back to words for the
 * pointer's parts, and at worst to "this entry". Text that comes from the service is marked
 * data-server (it is in the reader's language once the service localizes it).
 */
import { variantName } from './api.js';
import { SUITS } from './cards.js';
import { h } from './dom.js';
import { capitalise, t } from './i18n.js';


const SEGMENTS = ['situation', 'action', 'team', 'opponents', 'player', 'hand', 'melds', 'discard_pile', 'with',
  'add', 'cards', 'card', 'discard', 'rounds', 'teams', 'went_out', 'concealed', 'red_threes', 'melded_points',
  'hand_points', 'natural_canastas', 'mixed_canastas', 'name', 'score', 'house_rules', 'turn', 'first_round',
  'players', 'variant', 'drew', 'has_melded', 'stock_count', 'hand_count', 'cards_from_pile', 'penalties'];

function segmentWords(p) {
  if (/^\d+$/.test(p)) return t('pointer.nth', { n: Number(p) + 1 });
  return SEGMENTS.includes(p) ? t(`seg.${p}`) : null;
}

function humanPointer(pointer, labels) {
  if (labels) {
    if (labels[pointer]) return labels[pointer];
    // The longest labelled prefix: "/action/melds/0" labels "/action/melds/0/2" too.
    let best = null;
    for (const key of Object.keys(labels)) {
      if (key && pointer.startsWith(`${key}/`) && (!best || key.length > best.length)) best = key;
    }
    if (best) {
      const rest = pointer.slice(best.length + 1).split('/').map(segmentWords);
      if (rest.every(Boolean)) return [labels[best]].concat(rest).join(' \u203a ');
      return labels[best];
    }
  }
  if (!pointer) return t('pointer.whole');
  const parts = pointer.split('/').slice(1).map(segmentWords);
  return parts.every(Boolean) ? parts.join(' \u203a ') : t('pointer.whole');
}

/** A problem box: what went wrong, and for each field at fault where it is and why. */
function problemBox(problem, labels) {
  const box = h('div', { class: 'problem', role: 'alert' });
  const title = problem.type && /impossible-input|validation-failed/.test(problem.type)
    ? t('problem.cannotRule') : (problem.title || t('problem.generic'));
  box.appendChild(h('p', { class: 'problem-title', dataset: problem.type ? { server: '' } : {} }, title));
  const errors = Array.isArray(problem.errors) ? problem.errors : [];
  if (errors.length) {
    const list = h('ul', { class: 'problem-list' });
    errors.forEach((e) => {
      list.appendChild(h('li', null, h('strong', null, `${capitalise(humanPointer(e.pointer || '', labels))}: `),
        h('span', { dataset: { server: '' } }, serverWords(e.detail || ''))));
    });
    box.appendChild(list);
  } else if (problem.detail) {
    box.appendChild(h('p', { dataset: problem.type ? { server: '' } : {} }, serverWords(problem.detail)));
  }
  return box;
}

/** The service's sentence with its card codes as players write cards: "9S 9H JK 3H" -> "9 9 Joker 3♥".
 *  No suit the player never chose is shown (the page asks ranks only); a three keeps its colour. */
function serverWords(text) {
  if (typeof text !== 'string') return text;
  return text.replace(/(?<![\w/])(10|[2-9AKQJT])([SHDC])(?![\w/])/g, (m, rank, suit) => (rank === '3'
    ? `3${SUITS.find((x) => x.code === suit).sym}` : (rank === 'T' ? '10' : rank)))
    .replace(/(?<![\w/])(10|[2-9AKQJ])[\u2660\u2665\u2666\u2663](?![\w/])/g, (m, rank) => (rank === '3' ? m : rank))
    .replace(/(?<![\w/])JK(?![\w/])/g, t('card.joker.short'));
}

function sourceHref(c) { return `#source/${encodeURIComponent(c.variant)}/${c.start}/${c.end}`; }

const TABLE_ROW = /^\s*\|(.*)\|\s*$/;

/** A quote's words as a reader sees them: a table row of the text ("| 3 000 eller mer | 120 |") is
 *  shown as its cells side by side, its ruling line (|---|) left out; every word stays the text's own. */
function quoteNodes(quote) {
  const out = [];
  quote.split('\n').forEach((line, i) => {
    if (i) out.push('\n');
    const row = TABLE_ROW.exec(line);
    if (!row) { out.push(line); return; }
    const cells = row[1].split('|').map((x) => x.trim());
    if (cells.every((x) => /^:?-{2,}:?$/.test(x))) { out.pop(); return; }
    out.push(h('span', { class: 'qrow' }, cells.map((x) => h('span', { class: 'qcell' }, x))));
  });
  return out;
}

/** The cited sentence in its own language (never translated), its heading, and a link into the text. */
function citationBlock(c) {
  return h('figure', { class: 'cite' },
    h('blockquote', { lang: c.language }, quoteNodes(c.quote)),
    h('figcaption', null,
      h('span', { class: 'cite-where' }, variantName(c.variant),
        c.section ? [' \u00b7 ', h('q', { lang: c.language }, c.section)] : null),
      ' ',
      h('a', { class: 'cite-link', href: sourceHref(c) }, t('cite.show'))));
}

export { humanPointer, problemBox, citationBlock, sourceHref, serverWords };
