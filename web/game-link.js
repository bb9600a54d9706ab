/* The game on this phone as a document of the link format (docs/links.md), and back: handed to another
 * phone by link or QR code (web/sending.js), saved as a file a person keeps, and opened from one.
 *
 * The document holds what was entered -- variant, players, names as typed, seats, first dealer, house
 * rules, every round as POST /v1/score takes it (without the names) -- never the service's totals: the
 * phone that opens it scores it again. A file also keeps the game's disputes; a link leaves them out, so
 * its QR code stays one a phone reads at arm's length.
 */
import { h } from './dom.js';
import { i18n, t } from './i18n.js';
import { links } from './link.js';
import { score as S } from './score-model.js';
import { sending } from './sending.js';
import { emit } from './store.js';

/** The game as a document. `withDisputes`: the file's form. */
function documentOf(game, withDisputes) {
  const rounds = S.body(game.rounds).rounds.map((r) => ({ teams: r.teams.map((tm) => {
    const out = Object.assign({}, tm);
    delete out.name;
    return out;
  }) }));
  const g = { variant: game.variant, players: game.players, teams: game.teams.map((tm) => tm.name || ''), seats: game.seats.slice(),
    first_dealer: game.firstDealer || 0, rounds };
  if (Object.keys(game.houseRules || {}).length) g.house_rules = game.houseRules;
  if (withDisputes && (game.disputes || []).length) g.disputes = game.disputes;
  return { kind: 'game', lang: i18n.lang, rules: sending.rulesOf([game.variant]), game: g };
}

const whole = (x) => x === undefined || (Number.isInteger(x) && x >= 0 && x <= 100000);
const cards = (x) => Array.isArray(x) && x.every((c) => typeof c === 'string' && c.length <= 3);

/** One team's round as the score pad keeps it, or null when it is not one. */
function teamOf(tm, round, i) {
  if (!['natural_canastas', 'mixed_canastas', 'melded_points', 'hand_points', 'red_threes'].every((k) => whole(tm[k]))) return null;
  const penalties = {};
  if (tm.penalties !== undefined && !(Array.isArray(tm.penalties) && tm.penalties.every((p) => p && typeof p.kind === 'string'))) return null;
  (tm.penalties || []).forEach((p) => { penalties[p.kind] = (penalties[p.kind] || 0) + 1; });
  const out = { mode: 'counts', natural: tm.natural_canastas || 0, mixed: tm.mixed_canastas || 0, red3: tm.red_threes || 0,
    melded: tm.melded_points === undefined ? '' : String(tm.melded_points), hand: tm.hand_points === undefined ? '' : String(tm.hand_points),
    melds: [[]], handCards: [], penalties };
  if (tm.melds !== undefined || tm.hand !== undefined) {
    const melds = tm.melds || [];
    if (!Array.isArray(melds) || !melds.every(cards) || !cards(tm.hand || [])) return null;
    Object.assign(out, { mode: 'cards', melds: melds.length ? melds : [[]], handCards: tm.hand || [] });
  }
  if (tm.went_out === true) { round.wentOut = i; round.concealed = tm.concealed === true; }
  return out;
}

/** The score pad's game from a document, or null when the document holds no game the pad can keep. */
function gameOf(d) {
  const g = d.game;
  const n = S.teamCount(g.players);
  const names = g.teams || [];
  if (names.length > n || (g.seats || []).length > g.players || (g.first_dealer || 0) >= g.players) return null;
  const rounds = [];
  for (const r of g.rounds || []) {
    if (r.teams.length !== n) return null;
    const round = { teams: [], wentOut: -1, concealed: false };
    for (let i = 0; i < n; i++) {
      const tm = teamOf(r.teams[i], round, i);
      if (!tm) return null;
      round.teams.push(tm);
    }
    rounds.push(round);
  }
  return { v: 2, variant: g.variant, players: g.players,
    teams: Array.from({ length: n }, (_, i) => ({ name: names[i] || '' })),
    seats: Array.from({ length: g.players }, (_, s) => (g.seats || [])[s] || ''), firstDealer: g.first_dealer || 0,
    rounds, houseRules: Object.assign({}, g.house_rules), result: null, checked: 0, draft: S.blankRound(n), editing: null,
    problem: null, disputes: (g.disputes || []).slice() };
}

/** The game as a file (a download the person keeps), written by web/share.js. */
async function download(game, button) {
  const sheet = await sending.writer(button);
  if (sheet) sheet.download(links.check(documentOf(game, true)), `canasta-${game.variant}-${new Date().toISOString().slice(0, 10)}.json`);
}

/** A file chosen to open: a document of the format (JSON) or a link; offered like a link is. */
async function opened(file) {
  const text = await file.text();
  try {
    emit('link-read', { document: text.trim().startsWith('{') ? links.check(JSON.parse(text)) : await links.decode(text) });
  } catch (e) {
    emit('link-read', { problem: e instanceof links.LinkError ? e.code : 'malformed' });
  }
}

/** "Open a saved game": a file picker. */
function importButton() {
  const input = h('input', { type: 'file', accept: '.json,application/json,text/plain', id: 'game-file', class: 'sr-only',
    on: { change: () => { if (input.files[0]) opened(input.files[0]); input.value = ''; } } });
  return h('div', { class: 'row game-import' }, input,
    h('label', { for: 'game-file', class: 'secondary button-like', id: 'game-import' }, t('game.import')));
}

/** Under the pad: hand the game over, keep it as a file, open another. */
function actions() {
  const handOver = h('button', { type: 'button', class: 'secondary', id: 'game-send', on: { click: () => sending.send(
    documentOf(S.game, false), t('send.title.game'), t('send.gameWhat'), handOver) } }, t('game.send'));
  const save = h('button', { type: 'button', class: 'secondary', id: 'game-export', on: { click: () => download(S.game, save) } }, t('game.export'));
  return h('div', { class: 'row game-link' }, handOver, save);
}

export const gameLink = { documentOf, gameOf, download, importButton, actions };
