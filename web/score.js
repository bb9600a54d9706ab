/* Keep score: set up a game (rules, teams, seats, first dealer), then the score pad.
 *
 * The pad shows the service's totals in large type, what each team still needs, who deals
 * next, each team's opening requirement, every round (open one for its lines and to correct
 * or delete it), the table's house rules, and a summary to share or print.
 */
import { cache, value, variantName, variantsForReader } from './api.js';
import { fieldError, segmented } from './controls.js';
import { disputes } from './disputes.js';
import { byId, clear, copy, h, keepFocus, motion, recall, showError, store } from './dom.js';
import { gameLink } from './game-link.js';
import { capitalise, fmtNumber, signed, t } from './i18n.js';
import { house } from './house.js';
import { openPoints } from './openpoints.js';
import { scoreForm } from './score-form.js';
import { score } from './score-model.js';
import { on, scoreView } from './store.js';
import { citationBlock, humanPointer, problemBox, serverWords } from './words.js';

const S = score;
const server = { server: '' };

const ui = scoreView; // what the pad shows besides the game (web/store.js)

const root = () => byId('score-root');

// ==========================================================================================
// A new game

const setup = ui.setup;

function renderSetup() {
  const box = clear(root());
  box.appendChild(h('p', { class: 'lead' }, t('setup.lead')));
  const fs = h('fieldset', { class: 'block', id: 'setup-rules' }, h('legend', null, t('setup.rules')));
  const choices = h('div', { class: 'choices choices-variants' });
  if (!setup.variant) {
    const last = recall('cr.variant', null);
    setup.variant = cache.byId[last] ? last : null; // the same default as the other tab; none on a first visit
  }
  variantsForReader().forEach((v) => {
    const id = `score-variant-${v.id}`;
    const input = h('input', { type: 'radio', name: 'score-variant', id, value: v.id, checked: setup.variant === v.id,
      on: { change: () => { if (input.checked) { setup.variant = v.id; setup.house = {}; store('cr.variant', v.id); renderSetup(); } } } });
    const target = v.target_score[String(setup.players)] || Object.values(v.target_score)[0];
    const p = v.players_supported;
    choices.appendChild(h('label', { class: 'choice', for: id }, input, h('span', { class: 'choice-title', dataset: server }, v.name),
      h('span', { class: 'choice-sub' }, `${t('setup.to', { n: fmtNumber(target) })} \u00b7 ${p.length > 1 ? t('players.range', { from: p[0], to: p[p.length - 1] }) : t('players.n', { n: p[0] })}`)));
  });
  fs.appendChild(choices);
  fs.appendChild(h('p', { id: 'setup-error', class: 'inline-error', role: 'alert', hidden: true }));
  box.appendChild(fs);
  const variant = cache.byId[setup.variant];
  const supported = variant ? variant.players_supported : [4];
  if (!supported.includes(setup.players)) setup.players = supported.includes(4) ? 4 : supported[0];
  const people = h('fieldset', { class: 'block' }, h('legend', null, t('setup.who')));
  if (supported.length > 1) {
    people.appendChild(segmented(t('table.players'), supported.map((p) => [p, String(p)]), () => setup.players,
      (v) => { setup.players = v; setup.house = {}; renderSetup(); }, { name: 'setup-players' }));
  }
  const n = S.teamCount(setup.players);
  const paired = n !== setup.players;
  const seatName = (s) => setup.seats[s] || t('seat.default', { n: s + 1 });
  const seatLabel = (s) => (paired ? t('setup.seatOf', { n: s + 1, team: setup.teams[s % n] || t(`team.default.${s % n}`) }) : t('setup.seat', { n: s + 1 }));
  // Names change the labels that show them in place: redrawing would take the field from under the finger.
  const relabel = () => {
    for (let s = 0; s < setup.players; s++) {
      const label = root().querySelector(`label[for="seat-name-${s}"]`);
      const option = root().querySelector(`label[for="first-dealer-${s}"] span`);
      if (label) label.textContent = seatLabel(s);
      if (option) option.textContent = seatName(s);
    }
  };
  if (paired) {
    for (let i = 0; i < n; i++) {
      people.appendChild(textField(`team-name-${i}`, t('setup.teamName', { n: i + 1 }), () => setup.teams[i], (v) => { setup.teams[i] = v; relabel(); },
        t(`team.default.${i}`)));
    }
  }
  people.appendChild(h('p', { class: 'muted' }, t(paired ? 'setup.seatsLead' : 'setup.playersLead')));
  for (let s = 0; s < setup.players; s++) {
    people.appendChild(textField(`seat-name-${s}`, seatLabel(s), () => setup.seats[s], (v) => { setup.seats[s] = v; relabel(); }, t('seat.default', { n: s + 1 })));
  }
  if (setup.firstDealer >= setup.players) setup.firstDealer = 0;
  people.appendChild(segmented(t('setup.firstDealer'), Array.from({ length: setup.players }, (_, s) => [s, seatName(s)]),
    () => setup.firstDealer, (v) => { setup.firstDealer = v; }, { name: 'first-dealer', id: 'first-dealer' }));
  box.appendChild(people);
  box.appendChild(h('div', { id: 'setup-house-slot' }, houseSetup()));
  box.appendChild(h('button', { type: 'button', class: 'primary big', id: 'start-game', on: { click: startGame } }, t('setup.start')));
  box.appendChild(gameLink.importButton());
}

/** The house rules of the game being set up (folded; redrawn alone, so the names typed stay). */
function houseSetup() {
  return house.setupSection(setup.variant, setup.players, setup.house, () => {
    const slot = byId('setup-house-slot');
    if (!slot || S.game) return;
    const wasOpen = byId('setup-house') && byId('setup-house').open;
    const focused = slot.contains(document.activeElement) ? document.activeElement.id : '';
    clear(slot).appendChild(houseSetup());
    if (wasOpen) byId('setup-house').open = true;
    if (focused && byId(focused)) byId(focused).focus(); // the player goes on typing where they were
  });
}

/** A name entry; empty means the language's default name (shown as the placeholder). */
function textField(id, label, get, set, placeholder) {
  const input = h('input', { type: 'text', id, class: 'text', value: get() || '', maxlength: 40, autocomplete: 'off',
    placeholder, on: { input: () => set(input.value) } });
  return h('div', { class: 'field' }, h('label', { for: id }, label), input);
}

function startGame() {
  if (!setup.variant) {
    showError(byId('setup-error'), t('settle.chooseRules'), byId('setup-rules').querySelector('input'));
    return;
  }
  const n = S.teamCount(setup.players);
  const paired = n !== setup.players;
  const names = paired ? setup.teams.slice(0, n).map((x, i) => (x || '').trim() || t(`team.default.${i}`))
    : setup.seats.slice(0, n).map((x, i) => (x || '').trim() || t('seat.default', { n: i + 1 }));
  if (new Set(names).size !== names.length) {
    showError(byId('setup-error'), t('setup.sameNames'), byId(paired ? 'team-name-1' : 'seat-name-1'));
    return;
  }
  store('cr.variant', setup.variant);
  S.start(setup);
  render();
  const title = byId('round-form-title');
  if (title) title.scrollIntoView({ block: 'start', behavior: motion() });
}

// ==========================================================================================
// The pad

/** The whole pad. After a scoring only refresh() runs, so the round form being typed in stays put. */
function render() {
  const game = S.game;
  if (!game) { renderSetup(); return; }
  const box = clear(root());
  box.appendChild(h('div', { id: 'score-top' }));
  if (formWanted()) {
    box.appendChild(scoreForm.roundForm(saveRound, () => { game.editing = null; game.draft = S.blankRound(game.teams.length); S.save(); render(); }));
    box.appendChild(h('div', { id: 'score-problem', 'aria-live': 'polite' }));
    scoreForm.drawCards();
  }
  box.appendChild(h('div', { id: 'score-actions' }));
  box.appendChild(h('div', { id: 'score-disputes' }));
  fillTop();
  fillActions();
  if (ui.roundProblem && byId('round-form')) showRoundProblem(ui.roundProblem);
}

function formWanted() { return S.game.editing !== null || !S.over(); }

/** Redraw what the service's answer changes (totals, rounds, notes), keeping the form and the focus. */
function refresh() {
  if (!S.game || !byId('score-top') || Boolean(byId('round-form')) !== formWanted()) { keepFocus(render); return; }
  keepFocus(() => { fillTop(); fillActions(); });
}

function fillTop() {
  const game = S.game;
  const box = clear(byId('score-top'));
  box.appendChild(h('p', { class: 'game-meta' }, h('strong', { dataset: server }, variantName(game.variant)),
    ` \u00b7 ${t('players.n', { n: game.players })} \u00b7 ${t('setup.to', { n: fmtNumber(S.target()) })}`));
  // The notice stays until the next change replaces it (a redraw after scoring must not drop it).
  if (ui.notice) box.appendChild(h('p', { class: 'saved', role: 'status', id: 'score-notice' }, ui.notice));
  if (S.pending()) box.appendChild(pendingNote());
  if (game.problem && !ui.roundProblem) box.appendChild(syncProblem(game.problem));
  const warned = serverWarnings();
  if (warned) box.appendChild(warned);
  const over = S.over();
  if (over) box.appendChild(endBanner(over));
  box.appendChild(totalsBoard(over));
  const below = !over ? openingQuestion() : null;
  if (below) box.appendChild(below);
  if (game.rounds.length) box.appendChild(scoreTable());
  const house = openPoints.houseRulesBox(game.houseRules, (name, value) => { S.setHouseRule(name, value); resync(); },
    (name) => { S.removeHouseRule(name); resync(); }, { id: 'game-house-rules', variant: game.variant, players: game.players });
  if (house) box.appendChild(house);
}

function fillActions() {
  clear(byId('score-actions')).appendChild(gameActions());
  const kept = disputes.list(); // the questions settled in this game (web/disputes.js)
  if (kept) clear(byId('score-disputes')).appendChild(kept); else clear(byId('score-disputes'));
}

/** Entries the service finds no deck allows (its `warnings`), each with where it is in words. */
function serverWarnings() {
  const game = S.game;
  const result = game.result;
  if (!result || !game.checked) return null;
  const all = (Array.isArray(result.warnings) ? result.warnings : [])
    .concat(...(result.rounds || []).slice(0, game.checked).map((r) => (Array.isArray(r.warnings) ? r.warnings : [])));
  if (!all.length) return null;
  const words = S.labels(game.rounds);
  return h('div', { class: 'note-box', id: 'score-warnings', role: 'status' },
    h('p', null, h('strong', null, t('warn.title'))),
    h('ul', null, all.map((w) => h('li', null, h('strong', null, `${capitalise(humanPointer(w.pointer || '', words))}: `),
      h('span', { dataset: server }, serverWords(w.text || w.detail || ''))))));
}

function pendingNote() {
  return h('div', { class: 'note-box pending', id: 'pending-note', role: 'status' },
    h('p', null, h('strong', null, t('pending.title', { n: S.pending() }))),
    h('p', { class: 'muted' }, t('pending.lead')),
    h('button', { type: 'button', class: 'secondary small', id: 'sync-now', on: { click: () => resync(true) } }, t('pending.retry')));
}

function totalsBoard(over) {
  const game = S.game;
  const totals = S.totals();
  const target = S.target();
  const last = S.roundResult(game.checked - 1);
  const board = h('section', { class: 'totals', id: 'totals', 'aria-labelledby': 'totals-title' }, h('h3', { id: 'totals-title', class: 'sr-only' }, t('totals.title')));
  game.teams.forEach((_, i) => {
    const need = Math.max(0, target - totals[i]);
    const team = last ? last.teams[i] : null;
    board.appendChild(h('div', { class: 'total-card' },
      h('p', { class: 'total-name' }, S.teamName(i)),
      h('p', { class: 'total', id: `total-${i}` }, fmtNumber(totals[i])),
      !over ? h('p', { class: 'need', id: `need-${i}` }, need > 0 ? t('totals.need', { n: fmtNumber(need) }) : t('totals.reached')) : null,
      !over ? h('p', { class: 'opening', id: `opening-${i}`, dataset: team && team.opening_requirement && (team.opening_requirement.text || team.opening_requirement.label) ? server : {} },
        openingText(team ? team.opening_requirement : null, totals[i])) : null));
  });
  if (!over) {
    board.appendChild(h('p', { class: 'next-dealer', id: 'next-dealer' },
      t('dealer.next', { name: S.seatName(S.dealerOf(game.rounds.length)), n: game.rounds.length + 1 })));
  }
  return board;
}

/** An opening requirement the text does not give (da-ludo below zero): its open point, asked under the totals. */
function openingQuestion() {
  const game = S.game;
  const last = S.roundResult(game.checked - 1);
  if (!last || !last.teams.some((tm) => tm.opening_requirement && tm.opening_requirement.undetermined)) return null;
  const names = (last.interpretations || game.result.interpretations || [])
    .filter((x) => x.status === 'not_stated' && x.parameter.startsWith('opening.') && !(x.parameter in game.houseRules))
    .map((x) => x.parameter);
  const points = openPoints.pointsFromNames([...new Set(names)], game.variant, game.players);
  if (!points.length) return null;
  const box = openPoints.openPointsBox(points, (name, value) => { S.setHouseRule(name, value); ui.notice = t('house.applied'); resync(); });
  box.id = 'opening-open';
  return box;
}

/** The next round's opening requirement in words (the service's own words once it sends them). */
function openingText(req, total) {
  if (!req) return total === 0 ? t('opening.first', { what: bandFor(0) }) : '';
  const said = [req.text, req.label].find((x) => typeof x === 'string' && x); // the service's words, once it sends them
  if (said) return said;
  if (req.undetermined || req.points === null || req.points === undefined) {
    return t('opening.next', { what: req.canasta_required ? t('opening.canasta') : t('opening.notStated') });
  }
  return t('opening.next', { what: req.canasta_required ? t('opening.pointsAndCanasta', { n: fmtNumber(req.points) }) : t('opening.points', { n: fmtNumber(req.points) }) });
}

function bandFor(total) {
  const bands = value(S.game.variant, 'opening.bands', null);
  const band = Array.isArray(bands) && bands.find((b) => total >= b.min && (b.max === null || b.max === undefined || total <= b.max));
  if (!band) return t('opening.notStated');
  return band.canasta_required ? t('opening.canasta') : t('opening.points', { n: fmtNumber(band.points) });
}

/** "Us won!" is no sentence: the default name of the first team (we, the phone's owners) says "We won!". */
function winsWords(name) { return name === t('team.default.0') ? t('end.weWon') : t('end.wins', { name }); }

function endBanner(over) {
  const game = S.game;
  if (over.winner) {
    const i = over.teams.findIndex((x) => x.name === over.winner);
    return h('div', { class: 'winner', role: 'status', id: 'winner' },
      h('p', { class: 'winner-word' }, winsWords(i >= 0 ? S.teamName(i) : over.winner)),
      h('p', null, t('end.after', { n: game.checked, total: fmtNumber(over.teams[Math.max(i, 0)].total), target: fmtNumber(S.target()) })));
  }
  // No winner named: the text is silent on this finish (a tie at the top, or several over the target).
  const open = (game.result.interpretations || []).filter((x) => x.parameter.startsWith('game.') && x.status === 'not_stated')
    .map((x) => x.parameter).filter((p) => !(p in game.houseRules));
  const box = h('div', { class: 'winner undecided', role: 'status', id: 'winner' },
    h('p', { class: 'winner-word' }, t('end.tie')), h('p', null, t('end.noWinner')));
  if (open.includes('game.tie') || !open.length) {
    box.appendChild(h('button', { type: 'button', class: 'primary', id: 'play-another', on: { click: () => {
      S.setHouseRule('game.tie', 'extra_round');
      ui.notice = t('end.anotherRound');
      resync();
    } } }, t('end.playAnother')));
  }
  const others = openPoints.pointsFromNames(open.filter((p) => p !== 'game.tie'), game.variant, game.players);
  if (others.length) box.appendChild(openPoints.openPointsBox(others, (name, value) => { S.setHouseRule(name, value); resync(); }));
  return box;
}

function scoreTable() {
  const game = S.game;
  const table = h('table', { class: 'scores', id: 'score-table' });
  table.appendChild(h('caption', { class: 'sr-only' }, t('table.caption')));
  table.appendChild(h('thead', null, h('tr', null, h('th', { scope: 'col' }, t('table.round')),
    game.teams.map((_, i) => h('th', { scope: 'col' }, S.teamName(i))))));
  const body = h('tbody');
  game.rounds.forEach((round, r) => {
    const res = S.roundResult(r);
    const open = ui.expanded === r;
    const tr = h('tr', { class: `round-row${open ? ' open' : ''}${game.editing === r ? ' editing' : ''}${res ? '' : ' pending'}`, id: `round-${r}` });
    tr.appendChild(h('th', { scope: 'row' }, h('button', { type: 'button', class: 'round-toggle', 'aria-expanded': open ? 'true' : 'false',
      'aria-controls': `round-lines-${r}`, 'aria-label': t(open ? 'table.hide' : 'table.show', { n: r + 1 }),
      on: { click: () => { ui.expanded = open ? null : r; ui.confirming = null; refresh(); } } },
    `${r + 1}`, h('span', { 'aria-hidden': 'true', class: 'caret' }, open ? '\u25be' : '\u25b8'))));
    game.teams.forEach((_, i) => {
      const name = S.teamName(i);
      if (!res) {
        tr.appendChild(h('td', { id: `cell-${r}-${i}`, class: 'unchecked' }, h('span', { class: 'sr-only' }, t('cell.pendingLabel', { n: r + 1, name })),
          h('span', { class: 'not-checked', 'aria-hidden': 'true' }, t('cell.pending'))));
        return;
      }
      const tm = res.teams[i];
      tr.appendChild(h('td', { id: `cell-${r}-${i}` },
        h('span', { class: 'sr-only' }, t('cell.label', { n: r + 1, name, round: signed(tm.round), total: fmtNumber(tm.total) })),
        h('span', { class: `delta${tm.round < 0 ? ' neg' : ''}`, 'aria-hidden': 'true' }, signed(tm.round)),
        h('span', { class: 'running', 'aria-hidden': 'true' }, fmtNumber(tm.total))));
    });
    body.appendChild(tr);
    if (open) body.appendChild(h('tr', { class: 'round-lines' }, roundDetail(r, res)));
  });
  table.appendChild(body);
  return h('div', { class: 'table-wrap' }, table);
}

function roundDetail(r, res) {
  const game = S.game;
  const detail = h('td', { colspan: String(game.teams.length + 1), id: `round-lines-${r}` });
  detail.appendChild(h('p', { class: 'muted' }, t('round.dealtBy', { name: S.seatName(S.dealerOf(r)) })));
  if (res) {
    game.teams.forEach((_, i) => {
      const tm = res.teams[i];
      detail.appendChild(h('h4', null, S.teamName(i)));
      const dl = h('table', { class: 'lines' });
      tm.lines.forEach((line) => {
        const count = line.count !== null && line.count !== undefined && !['going_out', 'no_canasta', 'melded_cards', 'hand'].includes(line.item) ? ` \u00d7 ${line.count}` : '';
        dl.appendChild(h('tr', null, h('th', { scope: 'row', dataset: line.label ? server : {} }, `${lineLabel(line)}${count}`),
          h('td', { class: line.points < 0 ? 'neg' : '' }, signed(line.points))));
      });
      dl.appendChild(h('tr', { class: 'sum' }, h('th', { scope: 'row' }, t('table.thisRound')), h('td', null, signed(tm.round))));
      dl.appendChild(h('tr', { class: 'sum' }, h('th', { scope: 'row' }, t('table.total')), h('td', null, fmtNumber(tm.total))));
      detail.appendChild(dl);
      const cites = tm.lines.filter((l) => l.citations && l.citations.length);
      if (cites.length) {
        const more = h('details', { class: 'more' }, h('summary', null, t('table.where')));
        cites.forEach((l) => { more.appendChild(h('p', { class: 'muted', dataset: l.label ? server : {} }, lineLabel(l))); more.appendChild(citationBlock(l.citations[0])); });
        detail.appendChild(more);
      }
    });
  } else {
    detail.appendChild(h('p', null, t('cell.pendingLong')));
  }
  const row = h('div', { class: 'row' },
    h('button', { type: 'button', class: 'secondary', id: `correct-${r}`, on: { click: () => startCorrection(r) } }, t('round.correct', { n: r + 1 })));
  if (ui.confirming && ui.confirming.delete === r) {
    detail.appendChild(row);
    detail.appendChild(confirmBox(t('round.deleteSure', { n: r + 1 }), t('round.deleteYes'), () => { S.deleteRound(r); ui.expanded = null; ui.notice = t('round.deleted', { n: r + 1 }); render(); resync(); }, `delete-${r}`));
  } else {
    row.appendChild(h('button', { type: 'button', class: 'danger-outline', id: `delete-${r}`, on: { click: () => { ui.confirming = { delete: r }; refresh(); focusId(`delete-${r}-yes`); } } }, t('round.delete', { n: r + 1 })));
    detail.appendChild(row);
  }
  return detail;
}

function lineLabel(line) { return line.label || (t(`item.${line.item}`) !== `item.${line.item}` ? t(`item.${line.item}`) : t('item.other')); }

function confirmBox(question, yes, onYes, id) {
  return h('div', { class: 'confirm', role: 'group', 'aria-labelledby': `${id}-q` },
    h('p', { id: `${id}-q` }, question),
    h('div', { class: 'row' },
      h('button', { type: 'button', class: 'danger', id: `${id}-yes`, on: { click: () => { ui.confirming = null; onYes(); } } }, yes),
      h('button', { type: 'button', class: 'secondary', id: `${id}-no`, on: { click: () => { ui.confirming = null; refresh(); } } }, t('keep'))));
}

function focusId(id) { const el = byId(id); if (el) el.focus({ preventScroll: false }); }

function gameActions() {
  const game = S.game;
  const wrap = h('section', { class: 'game-actions', 'aria-label': t('actions.label') });
  if (game.rounds.length) {
    if (ui.confirming === 'undo') {
      wrap.appendChild(confirmBox(t('undo.sure', { n: game.rounds.length }), t('undo.yes'), () => {
        S.deleteRound(game.rounds.length - 1); ui.notice = t('undo.done', { n: game.rounds.length + 1 }); render(); resync();
      }, 'undo'));
    } else {
      wrap.appendChild(h('button', { type: 'button', class: 'secondary', id: 'undo-round', on: { click: () => { ui.confirming = 'undo'; refresh(); focusId('undo-yes'); } } },
        t('undo.button', { n: game.rounds.length })));
    }
    wrap.appendChild(h('div', { class: 'row' },
      h('button', { type: 'button', class: 'secondary', id: 'share-game', on: { click: share } }, t('share.button')),
      h('button', { type: 'button', class: 'secondary', id: 'print-game', on: { click: () => window.print() } }, t('share.print'))));
    if (ui.sharing) wrap.appendChild(summaryBox());
  }
  wrap.appendChild(gameLink.actions()); // hand the game over, keep it as a file (web/game-link.js)
  if (ui.confirming === 'new') {
    wrap.appendChild(confirmBox(t('newgame.sure'), t('newgame.yes'), () => { S.clear(); ui.expanded = null; ui.roundProblem = null; renderSetup(); }, 'newgame'));
  } else {
    wrap.appendChild(h('button', { type: 'button', class: 'secondary', id: 'new-game', on: { click: () => { ui.confirming = 'new'; refresh(); focusId('newgame-yes'); } } }, t('newgame.button')));
  }
  return wrap;
}

// ==========================================================================================
// Summary to share or print

function summaryText() {
  const game = S.game;
  const lines = [`${t('brand')}: ${variantName(game.variant)}`];
  game.rounds.forEach((_, r) => {
    const res = S.roundResult(r);
    const cells = game.teams.map((__, i) => (res ? `${S.teamName(i)} ${signed(res.teams[i].round)} (${fmtNumber(res.teams[i].total)})` : `${S.teamName(i)} ${t('cell.pending')}`));
    lines.push(`${t('round.n', { n: r + 1 })}: ${cells.join(' \u00b7 ')}`);
  });
  const totals = S.totals();
  lines.push(`${t('table.total')}: ${game.teams.map((_, i) => `${S.teamName(i)} ${fmtNumber(totals[i])}`).join(' \u00b7 ')}`);
  const over = S.over();
  if (over && over.winner) lines.push(winsWords(S.teamName(over.teams.findIndex((x) => x.name === over.winner))));
  return lines.join('\n');
}

async function share() {
  const text = summaryText();
  if (navigator.share) {
    try { await navigator.share({ title: t('brand'), text }); return; } catch (e) { /* cancelled or refused: show it instead */ }
  }
  ui.sharing = true;
  refresh();
  focusId('summary-text');
}

function summaryBox() {
  const text = summaryText();
  const area = h('textarea', { id: 'summary-text', class: 'summary', readonly: true, rows: String(Math.min(12, text.split('\n').length + 1)), 'aria-label': t('share.summary') });
  area.value = text;
  const status = h('p', { class: 'muted', role: 'status' });
  return h('div', { class: 'summary-box' }, h('h3', null, t('share.summary')), area,
    h('div', { class: 'row' },
      h('button', { type: 'button', class: 'secondary', id: 'copy-summary', on: { click: async () => {
        try { await navigator.clipboard.writeText(text); status.textContent = t('share.copied'); } catch (e) { area.select(); status.textContent = t('share.selectCopy'); }
      } } }, t('share.copy')),
      h('button', { type: 'button', class: 'link', on: { click: () => { ui.sharing = false; refresh(); } } }, t('close'))),
    status);
}

// ==========================================================================================
// Saving and scoring

function startCorrection(r) {
  const game = S.game;
  ui.notice = null;
  game.editing = r;
  game.draft = copy(game.rounds[r]);
  ui.roundProblem = null;
  S.save();
  render();
  const f = byId('round-form');
  if (f) f.scrollIntoView({ block: 'start', behavior: motion() });
}

async function saveRound() {
  const game = S.game;
  ui.roundProblem = null;
  ui.notice = null;
  const err = byId('round-error');
  err.hidden = true;
  document.querySelectorAll('#round-form .field-error').forEach((x) => { x.hidden = true; });
  try {
    S.body([game.draft]);
  } catch (e) {
    if (!(e instanceof S.EntryError)) throw e;
    if (!fieldError(e.fieldId, e.message)) showError(err, e.message);
    return;
  }
  const before = { rounds: copy(game.rounds), draft: copy(game.draft), editing: game.editing, checked: game.checked };
  const n = game.editing === null ? game.rounds.length + 1 : game.editing + 1;
  const corrected = game.editing !== null;
  S.saveDraft();
  render(); // the next round's form at once; the service's totals follow
  let status = await S.sync();
  if (status === 'busy') { await resync(); status = S.pending() ? 'offline' : 'ok'; }
  if (status === 'problem') {
    // Entered with a connection and refused: the round goes back into the form, with why beside it.
    ui.roundProblem = game.problem;
    game.problem = null;
    Object.assign(game, before);
    S.save();
    render();
    return;
  }
  ui.notice = status === 'offline' ? t('saved.offline', { n }) : corrected ? t('saved.corrected', { n }) : t('saved.ok', { n });
  ui.expanded = null;
  refresh();
  const target = byId('totals');
  if (target) target.scrollIntoView({ block: 'start', behavior: motion() });
}

/** A refused round, shown above its save button; a point the text leaves open is asked as a question. */
function showRoundProblem(p) {
  const slot = byId('score-problem');
  if (!slot) return;
  clear(slot).appendChild(problemBox(p.problem, p.labels));
  const names = Array.isArray(p.problem.parameters) ? p.problem.parameters : [];
  const points = openPoints.pointsFromNames(names, S.game.variant, S.game.players);
  if (points.length) {
    slot.appendChild(openPoints.openPointsBox(points, (name, value) => { S.setHouseRule(name, value); ui.roundProblem = null; saveRound(); }));
  }
  byId('save-round').before(slot);
  const first = slot.querySelector('.open-point button, .problem');
  if (first) { if (!first.matches('button')) first.setAttribute('tabindex', '-1'); first.focus({ preventScroll: true }); }
  slot.scrollIntoView({ block: 'center', behavior: motion() });
}

/** A problem found when rounds saved offline were scored later: say which round to correct. */
function syncProblem(p) {
  const box = h('div', { class: 'sync-problem', id: 'sync-problem' }, problemBox(p.problem, p.labels));
  const m = /^\/rounds\/(\d+)/.exec(((p.problem.errors || [])[0] || {}).pointer || '');
  if (m) box.appendChild(h('button', { type: 'button', class: 'secondary', on: { click: () => startCorrection(Number(m[1])) } }, t('round.correct', { n: Number(m[1]) + 1 })));
  const points = openPoints.pointsFromNames(p.problem.parameters || [], S.game.variant, S.game.players);
  if (points.length) box.appendChild(openPoints.openPointsBox(points, (name, value) => { S.setHouseRule(name, value); resync(); }));
  return box;
}

let resyncing = false;
/** Score the game again (after a change, or when the connection returns) and redraw. */
async function resync(userAsked) {
  refresh();
  if (!S.game || resyncing) return;
  resyncing = true;
  let status;
  try {
    // 'busy': another scoring is under way, or the rounds changed meanwhile: wait and send again.
    for (let i = 0; i < 20; i++) {
      status = await S.sync();
      if (status !== 'busy' || !S.game || !S.pending()) break;
      await new Promise((resolve) => { setTimeout(resolve, 250); });
    }
  } finally { resyncing = false; }
  if (status === 'offline' && userAsked) ui.notice = t('pending.stillOffline');
  if (isShown()) refresh();
}

function isShown() { return !byId('view-score').hidden; }

let started = false;
function show() {
  if (!started) {
    started = true;
    const game = S.game;
    if (game && !cache.byId[game.variant]) S.clear();
    if (S.game && S.pending()) { resync(); return; }
  }
  // A house rule set on the Settle tab re-scores the game under it.
  if (S.game && S.pending() && !S.game.problem) { resync(); return; }
  render();
}

/** The connection is back (or the page came to the front): score what waits. */
function connectionBack() { if (S.game && S.pending() && !S.game.problem) resync(); }

on('connection-back', connectionBack);
on('score-render', () => render());
on('data-changed', () => view.dataChanged());

/** Rule data arrived: the pad's words, or the setup's house rules (they need the matrix), are drawn again. */
function dataChanged() {
  if (!started || !isShown()) return;
  if (S.game) { refresh(); return; }
  const slot = byId('setup-house-slot');
  if (slot && !slot.contains(document.activeElement)) clear(slot).appendChild(houseSetup());
}

export const view = { init() {}, show, render, relabel: () => { if (started) render(); }, connectionBack, dataChanged };
