/* A question sent as a link (web/link.js), back into the Settle tab's form: the facts of the form that
 * build exactly that request. What the request does not say is left blank; the Settle tab checks that its
 * form builds the very request before it takes them (settle.js askSent), so nothing is added on the way.
 *
 * The question document's `form` says what the request cannot: how many of the team's canastas are mixed,
 * and that a player goes out concealed (the request says only "not melded yet").
 */
import { blankFacts } from './store.js';

const PARTS = { take_pile: 'take', meld: 'meld', open: 'open', go_out: 'out', discard: 'discard', options: 'options' };

/** The team as the form holds it: not opened, opened with its melds listed, or opened with what was said of it. */
function team(tm, hint, counted) {
  if (!tm) return null;
  if (Array.isArray(tm.melds) && tm.melds.length) return { opened: 'yes', table: tm.melds };
  if (Array.isArray(tm.melds) && !tm.opened) return { opened: 'no' };
  const out = { opened: 'yes', ranks: tm.ranks || {} };
  if (counted) {
    const mixed = (hint && hint.mixed) || 0;
    Object.assign(out, { natural: (tm.canastas || 0) - mixed, mixed });
  }
  return out;
}

const score = (tm) => (tm && typeof tm.score === 'number' ? String(tm.score) : '');
const pile = (s) => {
  const p = s.pile_unnamed || {};
  return { top: (s.discard_pile || []).slice(0, 1), wild: Boolean(p.wild), red3: Boolean(p.red_three_first), black3: Boolean(p.black_three) };
};
const addition = (a) => ((a.add || [])[0] ? { add: a.add[0].cards, addTo: a.add[0].to } : {});
const laid = (a) => (a.melds || []).flat().length + (a.add || []).reduce((n, x) => n + x.cards.length, 0);

/** The question on the form: its name, its facts, and the few facts all questions share. Null when it is
 *  no question the form asks. */
function factsOf(d) {
  const s = d.situation;
  const a = d.action || {};
  const hint = d.form || {};
  let question;
  let facts;
  if (d.ask === 'options') {
    question = 'options';
    facts = Object.assign(pile(s), team(s.team, hint, false), { hand: (s.player || {}).hand || [],
      stock: typeof s.stock_count === 'number' ? String(s.stock_count) : '',
      turn: !s.turn ? 'unsure' : s.turn.drew === 'stock' ? 'after' : 'before' });
  } else if (a.type === 'take_pile') {
    question = 'take_pile';
    facts = Object.assign(pile(s), team(s.team, hint, false), { with: a.with || [], melds: a.melds || [[]],
      drew: Boolean(s.turn && s.turn.drew === 'stock') });
  } else if (a.type === 'meld') {
    const unopened = s.team && Array.isArray(s.team.melds) && !s.team.melds.length && !a.add;
    question = unopened ? 'open' : 'meld';
    facts = Object.assign(unopened ? {} : team(s.team, hint, true), addition(a), { melds: a.melds,
      left: ((s.player || {}).hand_count || 0) - laid(a) });
  } else if (a.type === 'go_out') {
    question = 'go_out';
    facts = Object.assign(hint.concealed ? { concealed: true } : team(s.team, hint, true), addition(a),
      { melds: a.melds, discard: a.discard ? [a.discard] : [] });
  } else if (a.type === 'discard') {
    question = 'discard';
    const tm = s.team || {};
    facts = { card: [a.card], left: ((s.player || {}).hand_count || 1) - 1, natural: (tm.canastas || 0) - (hint.mixed || 0), mixed: hint.mixed || 0 };
  } else return null;
  if (facts.melds && !facts.melds.length) facts.melds = [[]];
  const part = PARTS[question];
  return { question, part, facts: Object.assign(blankFacts()[part], facts), score: score(s.team),
    firstRound: Boolean(s.first_round), players: s.players };
}

/** What the request cannot say, for the form on the other phone (the document's `form`). */
function hintOf(m) {
  const part = m[PARTS[m.question]] || {};
  const out = {};
  if (part.mixed) out.mixed = part.mixed;
  if (m.question === 'go_out' && part.concealed) out.concealed = true;
  return Object.keys(out).length ? out : null;
}

/** The same JSON, whatever the order of its members. */
function same(x, y) {
  const canon = (v) => (Array.isArray(v) ? v.map(canon) : v && typeof v === 'object'
    ? Object.fromEntries(Object.keys(v).sort().filter((k) => v[k] !== undefined).map((k) => [k, canon(v[k])])) : v);
  return JSON.stringify(canon(x)) === JSON.stringify(canon(y));
}

export const questionForm = { factsOf, hintOf, same };
