/* The game on this phone: teams, seats, dealer, rounds, house rules, and the service's scoring.
 *
 * Everything typed is saved at once (localStorage), the round being entered included. A round
 * is "checked" once POST /v1/score has scored the game up to it; a round saved without a
 * connection stays "not yet checked" and the whole game is sent again when the connection
 * returns. The page never adds up points itself: the totals shown are the service's.
 */
import { ApiError } from './api-error.js';
import { api, cache, limitsFor, value } from './api.js';
import { cardShort } from './cards.js';
import { parseWhole } from './controls.js';
import { recall, store } from './dom.js';
import { fmtNumber, t } from './i18n.js';
import { openPoints } from './openpoints.js';

const KEY = 'cr.game';
const PENALTY_PREFIX = 'score.penalty_'; // the catalogue's penalty parameters: score.penalty_<kind>

function teamCount(players) { return players <= 3 ? players : Math.floor(players / 2); }

function blankTeam() {
  return { mode: 'counts', natural: 0, mixed: 0, red3: 0, melded: '', hand: '', melds: [[]], handCards: [], penalties: {} };
}
// Who went out starts not said (#42): "nobody" is a fact of the round too, and it scores differently.
function blankRound(n) { return { teams: Array.from({ length: n }, blankTeam), wentOut: null, concealed: false }; }

/** An old saved game (names only) in the current shape. */
function upgrade(g) {
  if (!g || typeof g !== 'object' || !Array.isArray(g.rounds)) return null;
  if (g.v === 2) return g;
  const n = g.names ? g.names.length : teamCount(g.players || 4);
  return { v: 2, variant: g.variant, players: g.players || 4, teams: (g.names || []).map((name) => ({ name })),
    seats: Array(g.players || 4).fill(''), firstDealer: 0, rounds: g.rounds, houseRules: g.houseRules || {},
    result: g.result || null, checked: g.result ? g.rounds.length : 0, draft: blankRound(n), editing: null, problem: null };
}

// The result (long: every line with its citations) is kept apart, so saving a keystroke stays cheap.
let game = upgrade(recall(KEY, null));
if (game && !game.result) game.result = recall(`${KEY}.result`, null);
const listeners = [];

const S = {
  get game() { return game; },
  teamCount,
  blankRound,
  save() { store(KEY, game ? Object.assign({}, game, { result: null }) : null); },
  saveResult() { store(`${KEY}.result`, game ? game.result : null); },
  onChange(f) { listeners.push(f); },
  changed() { S.save(); listeners.forEach((f) => f()); },

  start(setup) {
    const n = teamCount(setup.players);
    game = { v: 2, variant: setup.variant, players: setup.players,
      teams: setup.teams.slice(0, n).map((name) => ({ name: (name || '').trim() })),
      seats: setup.seats.slice(0, setup.players).map((x) => (x || '').trim()),
      firstDealer: setup.firstDealer || 0, rounds: [], houseRules: Object.assign({}, setup.house), result: null, checked: 0,
      draft: blankRound(n), editing: null, problem: null };
    S.save();
  },
  clear() { game = null; S.save(); S.saveResult(); },
  /** A game handed over from another phone or a file (web/game-link.js): it takes this phone's place, to score again. */
  adopt(g) { game = g; S.save(); S.saveResult(); },

  /** A team's name for people: the one typed, or the language's default (Vi/Dom, Os/Dem, ...). */
  teamName(i) {
    const typed = game.teams[i] && game.teams[i].name;
    if (typed) return typed;
    if (teamCount(game.players) === game.players) return S.seatName(i);
    return t(`team.default.${i}`);
  },
  seatName(s) { return (game.seats && game.seats[s]) || t('seat.default', { n: s + 1 }); },
  seatTeam(s) { return s % teamCount(game.players); },
  /** Who deals round r (0-based): the deal passes to the next seat round the table. */
  dealerOf(r) { return (game.firstDealer + r) % game.players; },

  /** The service's answer for round r (0-based), if that round is checked. */
  roundResult(r) { return game.result && r < game.checked && game.result.rounds ? game.result.rounds[r] : null; },
  /** The totals after the last checked round, by team index. */
  totals() {
    const last = S.roundResult(game.checked - 1);
    return game.teams.map((_, i) => (last ? last.teams[i].total : 0));
  },
  pending() { return game.rounds.length - game.checked; },
  over() {
    if (!game.checked || S.pending()) return null;
    const last = S.roundResult(game.checked - 1);
    return last && last.game_over ? last : null;
  },
  target() {
    if (game.result && game.result.target) return game.result.target;
    const v = cache.byId[game.variant];
    return v ? (v.target_score[String(game.players)] || Object.values(v.target_score)[0]) : null;
  },

  /** Penalties a round can charge here (score.penalty_<kind> with points, e.g. da-ludo's -500s): {kind, what, points}. */
  penaltyKinds() {
    if (!cache.matrix) return [];
    return cache.matrix.rows.filter((r) => r.parameter.startsWith(PENALTY_PREFIX)).map((r) => {
      const house = (game.houseRules || {})[r.parameter];
      const points = typeof house === 'number' ? house : value(game.variant, r.parameter, null);
      return { kind: r.parameter.slice(PENALTY_PREFIX.length), what: r.description.replace(/\.$/, ''), points };
    }).filter((p) => typeof p.points === 'number');
  },

  // ---- changes ---------------------------------------------------------------------------

  saveDraft() {
    const rounds = game.rounds.slice();
    if (game.editing === null) rounds.push(game.draft);
    else rounds[game.editing] = game.draft;
    const from = game.editing === null ? game.rounds.length : game.editing;
    game.rounds = rounds;
    game.checked = Math.min(game.checked, from);
    game.draft = blankRound(game.teams.length);
    game.editing = null;
    S.save();
  },
  deleteRound(r) {
    game.rounds.splice(r, 1);
    game.checked = Math.min(game.checked, r);
    if (game.editing === r) { game.editing = null; game.draft = blankRound(game.teams.length); }
    S.save();
  },
  setHouseRule(name, value) {
    game.houseRules = Object.assign({}, game.houseRules, { [name]: value });
    game.checked = 0;
    S.save();
  },
  removeHouseRule(name) { delete game.houseRules[name]; game.checked = 0; S.save(); },

  // ---- the service -----------------------------------------------------------------------

  body(rounds) {
    if (rounds.some((round) => round.wentOut === null || round.wentOut === undefined)) throw new EntryError(t('entry.wentOut'), 'went-out');
    const body = { variant: game.variant, players: game.players,
      rounds: rounds.map((round) => ({ teams: game.teams.map((_, i) => teamPayload(round, i, S.teamName(i))) })) };
    if (Object.keys(game.houseRules || {}).length) body.house_rules = game.houseRules;
    return body;
  },

  /**
   * Send the whole game for scoring. Returns 'ok', 'offline' or 'problem' (then game.problem
   * holds the problem and the words for its pointers). Entry errors throw EntryError.
   */
  async sync() {
    if (!game || syncing) return 'busy';
    if (!game.rounds.length) { game.result = null; game.checked = 0; game.problem = null; S.save(); S.saveResult(); return 'ok'; }
    const rounds = game.rounds.slice();
    const body = S.body(rounds);
    syncing = true;
    try {
      const result = await api('POST', '/v1/score', body);
      if (game.rounds.length !== rounds.length) return 'busy'; // changed meanwhile: the caller syncs again
      game.result = result;
      game.checked = rounds.length;
      game.problem = null;
      S.save();
      S.saveResult();
      return 'ok';
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      if (e.offline) return 'offline';
      game.problem = { problem: e.problem, labels: labels(rounds) };
      S.save();
      return 'problem';
    } finally {
      syncing = false;
    }
  },
};
let syncing = false;

class EntryError extends Error {
  constructor(message, fieldId) { super(message); this.fieldId = fieldId; }
}

function teamPayload(round, i, name) {
  const tm = round.teams[i];
  const p = { name };
  if (tm.mode === 'cards') {
    p.melds = tm.melds.filter((x) => x.length);
    p.hand = tm.handCards.slice();
  } else {
    const melded = parseWhole(tm.melded, 0);
    const hand = parseWhole(tm.hand, 0);
    if (Number.isNaN(melded) || melded < 0) throw new EntryError(t('entry.melded', { team: name }), `melded-${i}`);
    if (Number.isNaN(hand) || hand < 0) throw new EntryError(t('entry.hand', { team: name }), `hand-${i}`);
    p.natural_canastas = tm.natural;
    p.mixed_canastas = tm.mixed;
    p.melded_points = melded;
    p.hand_points = hand;
  }
  p.red_threes = tm.red3;
  const penalties = penaltyCounts(tm).flatMap(([kind, n]) => Array.from({ length: n }, () => ({ kind })));
  if (penalties.length) p.penalties = penalties;
  p.went_out = round.wentOut === i;
  if (p.went_out) p.concealed = Boolean(round.concealed);
  return p;
}

/** A team's penalties as [kind, count], in one fixed order (the request's list and its words agree). */
function penaltyCounts(tm) {
  return Object.entries((tm && tm.penalties) || {}).filter(([, n]) => n > 0).sort((a, b) => (a[0] < b[0] ? -1 : 1));
}

/** Words for every pointer of a score request. */
function labels(rounds) {
  const out = { '/players': t('table.players'), '/variant': t('settle.which') };
  Object.keys(game.houseRules || {}).forEach((name) => { out[`/house_rules/${name}`] = openPoints.question(name); });
  rounds.forEach((round, r) => {
    const rn = t('round.n', { n: r + 1 });
    out[`/rounds/${r}`] = rn;
    out[`/rounds/${r}/teams`] = rn;
    game.teams.forEach((_, i) => {
      const name = S.teamName(i);
      const where = `/rounds/${r}/teams/${i}`;
      const who = `${rn}, ${name}`;
      out[where] = who;
      ['melded_points', 'hand_points', 'natural_canastas', 'mixed_canastas', 'red_threes', 'went_out', 'concealed']
        .forEach((f) => { out[`${where}/${f}`] = `${who}: ${t(`seg.${f}`)}`; });
      const tm = round.teams[i];
      let k = 0;
      const what = Object.fromEntries(S.penaltyKinds().map((p) => [p.kind, p.what]));
      penaltyCounts(tm).forEach(([kind, n]) => {
        for (let j = 0; j < n; j++) out[`${where}/penalties/${k++}`] = `${who}: ${what[kind] || t('item.other')}`;
      });
      if (tm && tm.mode === 'cards') {
        out[`${where}/hand`] = `${who}: ${t('seg.hand_points')}`;
        tm.handCards.forEach((c, k) => { out[`${where}/hand/${k}`] = `${who}: ${t('label.inHand', { card: cardShort(c) })}`; });
        tm.melds.filter((x) => x.length).forEach((meld, j) => {
          out[`${where}/melds/${j}`] = `${who}: ${t('facts.meld')} ${j + 1}`;
          meld.forEach((c, k) => { out[`${where}/melds/${j}/${k}`] = `${who}: ${cardShort(c)} (${t('facts.meld')} ${j + 1})`; });
        });
      }
    });
  });
  return out;
}

// ---- what no deck allows -------------------------------------------------------------------

/** The variant's deck as the matrix states it: card values, canasta size, how many of each. */
function deck(variant) {
  const v = (name, fallback) => value(variant, name, fallback);
  const limits = limitsFor(variant);
  const perRank = limits.decks * 4;
  const ranks = ['A', 'K', 'Q', 'J', '10', '9', '8', '7', '6', '5', '4', '2'];
  let worth = ranks.reduce((sum, r) => sum + perRank * v(`card_value.${r}`, r === 'A' || r === '2' ? 20 : 10), 0);
  worth += limits.jokers * v('card_value.joker', 50) + limits.decks * 2 * v('card_value.black_three', 5);
  const cards = perRank * ranks.length + limits.jokers + limits.decks * 2; // every card but the red threes
  return { value: worth, cards, canasta: v('canasta.min_cards', 7), redThrees: limits.decks * 2 };
}

/** Entries of a round that no deck allows: warnings, not blocks (the table may know better). */
function warnings(round) {
  if (!game) return [];
  const d = deck(game.variant);
  const out = [];
  let points = 0;
  let canastas = 0;
  let red = 0;
  round.teams.forEach((tm, i) => {
    const name = S.teamName(i);
    red += tm.red3;
    if (tm.mode !== 'counts') return;
    const melded = parseWhole(tm.melded, 0);
    const hand = parseWhole(tm.hand, 0);
    if (melded > d.value) out.push({ team: i, field: `melded-${i}`, text: t('warn.melded', { team: name, points: fmtNumber(melded), max: fmtNumber(d.value) }) });
    if ((tm.natural + tm.mixed) * d.canasta > d.cards) out.push({ team: i, field: `natural-${i}`, text: t('warn.canastas', { team: name, n: tm.natural + tm.mixed, cards: d.cards }) });
    if (!Number.isNaN(melded)) points += melded;
    if (!Number.isNaN(hand)) points += hand;
    canastas += tm.natural + tm.mixed;
  });
  if (!out.length && points > d.value) out.push({ team: null, text: t('warn.total', { points: fmtNumber(points), max: fmtNumber(d.value) }) });
  if (!out.length && canastas * d.canasta > d.cards) out.push({ team: null, text: t('warn.canastasAll', { n: canastas, cards: d.cards }) });
  if (red > d.redThrees) out.push({ team: null, text: t('warn.redThrees', { n: red, max: d.redThrees }) });
  return out;
}

export const score = Object.assign(S, { EntryError, warnings, labels, deck });
