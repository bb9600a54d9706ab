/* A question sent as a link (web/link.js), back into the Settle tab's form: the facts of the form that
 * build exactly that request. What the request does not say is left blank; the Settle tab checks that its
 * form builds the very request before it takes them (settle.js askSent), so nothing is added on the way.
 *
 * The question document's `form` says what the request cannot: that a player goes out concealed (the
 * request says only "not melded yet"), and the facts told the referee under a ruling with their words
 * (`said`: the question, its choices and the one picked), so the other phone's form shows them alike.
 */
import { blankFacts } from './store.js';

const PARTS = { take_pile: 'take', meld: 'meld', open: 'open', go_out: 'out', discard: 'discard', options: 'options' };

/** The team as the form holds it: its melds, where they are listed (the rest is said under a ruling). */
const team = (tm) => (tm && Array.isArray(tm.melds) && tm.melds.length ? { table: tm.melds } : {});
const score = (tm) => (tm && typeof tm.score === 'number' ? String(tm.score) : '');
const pile = (s) => {
  const p = s.pile_unnamed || {};
  return { top: (s.discard_pile || []).slice(0, 1), wild: p.wild === true, red3: p.red_three_first === true, black3: p.black_three === true };
};
const addition = (a) => ((a.add || [])[0] ? { add: a.add[0].cards, addTo: a.add[0].to } : {});
const laid = (a) => (a.melds || []).flat().length + (a.add || []).reduce((n, x) => n + x.cards.length, 0);
const count = (s) => (s.player && typeof s.player.hand_count === 'number' ? s.player.hand_count : null);

/** The question on the form: its name, its facts, and the few facts all questions share. Null when it is
 *  no question the form asks. */
function factsOf(d) {
  const s = d.situation;
  const a = d.action || {};
  const hint = d.form || {};
  const turn = s.turn || {};
  let question;
  let facts;
  if (d.ask === 'options') {
    question = 'options';
    facts = Object.assign(pile(s), team(s.team), { hand: (s.player || {}).hand || [],
      stock: typeof s.stock_count === 'number' ? String(s.stock_count) : '',
      turn: turn.drew === 'stock' ? 'after' : turn.drew === null ? 'before' : null });
  } else if (a.type === 'take_pile') {
    question = 'take_pile';
    facts = Object.assign(pile(s), team(s.team), { with: a.with || [], melds: a.melds || [[]] });
  } else if (a.type === 'meld') {
    const unopened = s.team && Array.isArray(s.team.melds) && !s.team.melds.length && !a.add;
    question = unopened ? 'open' : 'meld';
    facts = Object.assign(unopened ? {} : team(s.team), addition(a), { melds: a.melds,
      left: count(s) === null ? null : count(s) - laid(a) });
  } else if (a.type === 'go_out') {
    question = 'go_out';
    facts = Object.assign(hint.concealed ? { concealed: true } : team(s.team), addition(a),
      { melds: a.melds, discard: a.discard ? [a.discard] : [] });
  } else if (a.type === 'discard') {
    question = 'discard';
    facts = { card: [a.card], left: count(s) === null ? null : count(s) - 1 };
  } else return null;
  if (facts.melds && !facts.melds.length) facts.melds = [[]];
  facts.said = hint.said || {};
  const part = PARTS[question];
  return { question, part, facts: Object.assign(blankFacts()[part], facts), score: score(s.team), players: s.players || null };
}

/** What the request cannot say, for the form on the other phone (the document's `form`). */
function hintOf(m) {
  const part = m[PARTS[m.question]] || {};
  const out = {};
  if (m.question === 'go_out' && part.concealed) out.concealed = true;
  if (part.said && Object.keys(part.said).length) out.said = part.said;
  return Object.keys(out).length ? out : null;
}

/** The same JSON, whatever the order of its members. */
function same(x, y) {
  const canon = (v) => (Array.isArray(v) ? v.map(canon) : v && typeof v === 'object'
    ? Object.fromEntries(Object.keys(v).sort().filter((k) => v[k] !== undefined).map((k) => [k, canon(v[k])])) : v);
  return JSON.stringify(canon(x)) === JSON.stringify(canon(y));
}

export const questionForm = { factsOf, hintOf, same };
