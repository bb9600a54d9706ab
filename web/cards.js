/* Cards: codes for the API ("9H", "10S", "JK"), kinds for entry, and names in the reader's language.
 *
 * In Canasta the suit never matters except for threes (red threes are bonus cards, black
 * threes block the pile). So the page asks for a card's *kind*: a rank from four to ace,
 * a two, a red three, a black three or a joker, and picks free suits itself. Suits are
 * chosen so that no card is used more often than the variant's deck holds it.
 */
import { t } from './i18n.js';


const JOKER = 'JK';
const SUITS = [
  { code: 'S', sym: '\u2660', red: false },
  { code: 'H', sym: '\u2665', red: true },
  { code: 'D', sym: '\u2666', red: true },
  { code: 'C', sym: '\u2663', red: false },
];
const SUIT = Object.fromEntries(SUITS.map((s) => [s.code, s]));
// Kinds in the picker's order. R3/B3: red and black threes.
const KINDS = ['A', 'K', 'Q', 'J', '10', '9', '8', '7', '6', '5', '4', '2', 'R3', 'B3', JOKER];
const KIND_SUITS = { R3: ['H', 'D'], B3: ['S', 'C'] };

function rankOf(code) { return code === JOKER ? JOKER : code.slice(0, -1); }
function suitOf(code) { return code === JOKER ? null : code.slice(-1); }
function isRed(code) { return code !== JOKER && SUIT[suitOf(code)].red; }

function kindOf(code) {
  if (code === JOKER) return JOKER;
  const r = rankOf(code);
  if (r === '3') return isRed(code) ? 'R3' : 'B3';
  return r;
}

/** How many copies of one kind the deck holds. */
function kindCopies(kind, limits) {
  if (kind === JOKER) return limits.jokers;
  return limits.decks * (KIND_SUITS[kind] ? 2 : 4);
}

/** The kind as printed: "K", "10", "3♥" (red three), "3♠" (black three), "Joker". */
function kindShort(kind) {
  if (kind === JOKER) return t('card.joker.short');
  if (kind === 'R3') return '3\u2665';
  if (kind === 'B3') return '3\u2663';
  return kind;
}

/** "three kings", "a red three": n cards of one kind in words. */
function kindWords(kind, n) { return t('cards.count', { n, kind, one: t(`kind.${kind}.1`), many: t(`kind.${kind}.n`) }); }
function kindName(kind) { return t(`kind.${kind}.1`); }

/** A card as the player entered it: its rank only (the page never asks for suits, so it shows none),
 *  but a three keeps its suit, which says whether it is red or black. */
function cardShort(code) {
  if (code === JOKER) return t('card.joker.short');
  return rankOf(code) === '3' ? rankOf(code) + SUIT[suitOf(code)].sym : rankOf(code);
}
function cardName(code) { return kindName(kindOf(code)); }
function cardsText(cards) { return cards.map(cardShort).join(' '); }

function countCards(list) {
  const counts = new Map();
  for (const c of list) counts.set(c, (counts.get(c) || 0) + 1);
  return counts;
}

/** Copies of `kind` in use among `counts` (a Map of code -> count). */
function kindUsed(kind, counts) {
  if (kind === JOKER) return counts.get(JOKER) || 0;
  const rank = KIND_SUITS[kind] ? '3' : kind;
  return (KIND_SUITS[kind] || SUITS.map((s) => s.code)).reduce((n, s) => n + (counts.get(rank + s) || 0), 0);
}

/** n cards of `kind` from the copies still free (suits least used first); null if the deck has too few. */
function freeCards(kind, n, counts, limits) {
  if (kind === JOKER) {
    if ((counts.get(JOKER) || 0) + n > limits.jokers) return null;
    counts.set(JOKER, (counts.get(JOKER) || 0) + n);
    return Array(n).fill(JOKER);
  }
  const rank = KIND_SUITS[kind] ? '3' : kind;
  const suits = KIND_SUITS[kind] || SUITS.map((s) => s.code);
  const out = [];
  const local = new Map(counts);
  for (let i = 0; i < n; i++) {
    const options = suits.map((s) => rank + s).filter((c) => (local.get(c) || 0) < limits.decks);
    if (!options.length) return null;
    options.sort((a, b) => (local.get(a) || 0) - (local.get(b) || 0));
    out.push(options[0]);
    local.set(options[0], (local.get(options[0]) || 0) + 1);
  }
  out.forEach((c) => counts.set(c, (counts.get(c) || 0) + 1));
  return out;
}

/** The cards of a list grouped by kind, in the order the kinds first appear. */
function groups(cards) {
  const order = [];
  const byKind = new Map();
  cards.forEach((c) => {
    const k = kindOf(c);
    if (!byKind.has(k)) { byKind.set(k, []); order.push(k); }
    byKind.get(k).push(c);
  });
  return order.map((k) => ({ kind: k, cards: byKind.get(k) }));
}

export { JOKER, SUITS, KINDS, rankOf, suitOf, isRed, kindOf, kindCopies, kindShort, kindWords, kindName,
  cardShort, cardName, cardsText, countCards, kindUsed, freeCards, groups };
