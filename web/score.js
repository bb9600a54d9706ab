/* Keep score: the game lives in localStorage; every change sends the whole game to POST /v1/score. */
(function () {
  'use strict';

  const A = window.CanastaReferee;
  const { h, clear, byId, api, CardForm, CardField, stepper, checkbox, numberField, segmented, problemBox,
    citationBlock, parseWhole, fmtNumber, signed, capitalise } = A;

  const KEY = 'cr.game';
  const ITEM_WORDS = {
    melded_cards: 'Cards on the table',
    natural_canastas: 'Natural canastas',
    mixed_canastas: 'Mixed canastas',
    red_threes: 'Red threes',
    going_out: 'Going out',
    concealed_going_out: 'Going out concealed',
    hand: 'Cards left in hand',
    no_canasta: 'No canasta: all points count as minus',
    penalty_hint: 'Penalty: hinting',
    penalty_unverifiable_count: 'Penalty: count that cannot be checked',
  };

  let game = A.recall(KEY, null); // {variant, players, names, rounds: [round model], houseRules, result}
  let editing = null; // index of the round being corrected, or null for a new round
  let draft = null; // the round model in the form
  let expanded = null; // index of the round whose lines are shown
  let form = null;
  let pendingNewGame = false;
  let notice = null; // one line to say what the last save did

  const root = () => byId('score-root');
  const save = () => A.store(KEY, game);
  const nonEmpty = (melds) => melds.filter((x) => x.length);

  function teamCount(players) { return players <= 3 ? players : Math.floor(players / 2); }

  function blankTeam() {
    return { mode: 'counts', natural: 0, mixed: 0, red3: 0, melded: '', hand: '', melds: [[]], handCards: [] };
  }
  function blankRound(n) { return { teams: Array.from({ length: n }, blankTeam), wentOut: -1, concealed: false }; }
  function copy(x) { return JSON.parse(JSON.stringify(x)); }

  // ==========================================================================================
  // A new game

  const setup = { variant: null, players: 4, names: ['Us', 'Them', 'Third'] };

  function renderSetup() {
    const box = clear(root());
    box.appendChild(h('p', { class: 'lead' }, 'Enter each round as counts or as cards. The referee adds it up by your rules; the game stays on this phone.'));
    const fs = h('fieldset', { class: 'block' }, h('legend', null, 'Which rules?'));
    const choices = h('div', { class: 'choices choices-variants' });
    if (!setup.variant) setup.variant = A.recall('cr.variant', null);
    if (!A.cache.byId[setup.variant]) setup.variant = A.cache.variants[0].id;
    A.cache.variants.forEach((v) => {
      const id = `score-variant-${v.id}`;
      const input = h('input', { type: 'radio', name: 'score-variant', id, value: v.id, checked: setup.variant === v.id,
        on: { change: () => { if (input.checked) { setup.variant = v.id; renderSetup(); } } } });
      const target = v.target_score[String(setup.players)] || Object.values(v.target_score)[0];
      choices.appendChild(h('label', { class: 'choice', for: id }, input, h('span', { class: 'choice-title' }, v.id),
        h('span', { class: 'choice-sub' }, `to ${fmtNumber(target)} \u00b7 ${v.players_supported.join('/')} players`)));
    });
    fs.appendChild(choices);
    box.appendChild(fs);
    const variant = A.cache.byId[setup.variant];
    if (!variant.players_supported.includes(setup.players)) setup.players = variant.players_supported.includes(4) ? 4 : variant.players_supported[0];
    const people = h('fieldset', { class: 'block' }, h('legend', null, 'Who plays?'));
    if (variant.players_supported.length > 1) {
      people.appendChild(segmented('Players', variant.players_supported.map((p) => [p, String(p)]), () => setup.players,
        (v) => { setup.players = v; renderSetup(); }));
    }
    const n = teamCount(setup.players);
    for (let i = 0; i < n; i++) {
      const id = `team-name-${i}`;
      const input = h('input', { type: 'text', id, class: 'text', value: setup.names[i] || `Team ${i + 1}`, maxlength: 40,
        autocomplete: 'off', on: { input: () => { setup.names[i] = input.value; } } });
      people.appendChild(h('div', { class: 'field' }, h('label', { for: id }, n === setup.players ? `Player ${i + 1}` : `Team ${i + 1}`), input));
    }
    box.appendChild(people);
    box.appendChild(h('div', { id: 'setup-error', class: 'inline-error', role: 'alert', hidden: true }));
    box.appendChild(h('button', { type: 'button', class: 'primary big', id: 'start-game', on: { click: startGame } }, 'Start the game'));
  }

  function startGame() {
    const n = teamCount(setup.players);
    const names = setup.names.slice(0, n).map((x, i) => (x || '').trim() || `Team ${i + 1}`);
    const err = byId('setup-error');
    if (new Set(names).size !== names.length) {
      err.textContent = 'Give every team a different name.';
      err.hidden = false;
      return;
    }
    game = { variant: setup.variant, players: setup.players, names, rounds: [], houseRules: {}, result: null };
    save();
    editing = null;
    draft = blankRound(n);
    render();
  }

  // ==========================================================================================
  // The game

  function render() {
    if (!game) { renderSetup(); return; }
    const box = clear(root());
    const v = A.cache.byId[game.variant];
    const result = game.result;
    const target = result ? result.target : (v && (v.target_score[String(game.players)] || Object.values(v.target_score)[0]));
    box.appendChild(h('p', { class: 'game-meta' }, h('strong', null, game.variant), ` \u00b7 ${game.players} players \u00b7 first to ${fmtNumber(target)}`));

    if (notice) { box.appendChild(h('p', { class: 'saved', role: 'status' }, notice)); notice = null; }
    if (result && result.game_over) box.appendChild(winnerBanner(result));
    if (game.rounds.length && result) box.appendChild(scoreTable(result));
    if (result && !result.game_over) box.appendChild(openingLine(result));

    const houses = Object.keys(game.houseRules || {});
    if (houses.length) {
      const list = h('ul', { class: 'house-list' });
      houses.forEach((name) => list.appendChild(h('li', null, `${name} = ${JSON.stringify(game.houseRules[name])} `,
        h('button', { type: 'button', class: 'link', on: { click: () => { delete game.houseRules[name]; recompute(game.rounds); } } }, 'remove'))));
      box.appendChild(h('div', { class: 'note-box' }, h('p', null, h('strong', null, 'House rules in this game')), list));
    }

    const over = result && result.game_over;
    if (editing !== null || !over) {
      if (!draft) draft = blankRound(game.names.length);
      box.appendChild(roundForm());
      form.render();
    }
    box.appendChild(h('div', { id: 'score-problem', 'aria-live': 'polite' }));
    box.appendChild(newGameButton());
  }

  function winnerBanner(result) {
    if (result.winner) {
      const team = result.teams.find((t) => t.name === result.winner);
      return h('div', { class: 'winner', role: 'status', id: 'winner' },
        h('p', { class: 'winner-word' }, `${result.winner} win${game.names.length === game.players ? 's' : ''}!`),
        h('p', null, `The game is over after round ${result.rounds.length}: ${result.winner} reached ${fmtNumber(team.total)} of ${fmtNumber(result.target)}.`));
    }
    const why = (result.interpretations || []).filter((i) => i.parameter.startsWith('game.'));
    return h('div', { class: 'winner undecided', role: 'status', id: 'winner' },
      h('p', { class: 'winner-word' }, 'The game is over'),
      h('p', null, 'The rule text names no winner for this finish.'),
      why.map((i) => h('p', { class: 'muted' }, i.note)));
  }

  function scoreTable(result) {
    const names = game.names;
    const table = h('table', { class: 'scores', id: 'score-table' });
    table.appendChild(h('caption', { class: 'sr-only' }, 'Points per round and running totals'));
    table.appendChild(h('thead', null, h('tr', null, h('th', { scope: 'col' }, 'Round'),
      names.map((n) => h('th', { scope: 'col' }, n)))));
    const body = h('tbody');
    result.rounds.forEach((round, r) => {
      const open = expanded === r;
      const tr = h('tr', { class: `round-row${open ? ' open' : ''}${editing === r ? ' editing' : ''}` });
      tr.appendChild(h('th', { scope: 'row' }, h('button', { type: 'button', class: 'round-toggle', 'aria-expanded': open ? 'true' : 'false',
        'aria-controls': `round-lines-${r}`, on: { click: () => { expanded = open ? null : r; render(); } } },
      `${r + 1}`, h('span', { class: 'sr-only' }, open ? ' hide the lines' : ' show the lines'), h('span', { 'aria-hidden': 'true', class: 'caret' }, open ? '\u25be' : '\u25b8'))));
      names.forEach((n, i) => {
        const t = round.teams.find((x) => x.name === n);
        tr.appendChild(h('td', { id: `cell-${r}-${i}` }, h('span', { class: `delta${t.round < 0 ? ' neg' : ''}` }, signed(t.round)),
          h('span', { class: 'running' }, fmtNumber(t.total))));
      });
      body.appendChild(tr);
      if (open) {
        const detail = h('td', { colspan: String(names.length + 1), id: `round-lines-${r}` });
        names.forEach((n) => {
          const t = round.teams.find((x) => x.name === n);
          detail.appendChild(h('h4', null, n));
          const dl = h('table', { class: 'lines' });
          t.lines.forEach((line) => {
            dl.appendChild(h('tr', null, h('th', { scope: 'row' }, `${ITEM_WORDS[line.item] || line.item.replace(/_/g, ' ')}${line.count !== null && line.count !== undefined && line.item !== 'going_out' && line.item !== 'no_canasta' ? ` \u00d7 ${line.count}` : ''}`),
              h('td', { class: line.points < 0 ? 'neg' : '' }, signed(line.points))));
          });
          dl.appendChild(h('tr', { class: 'sum' }, h('th', { scope: 'row' }, 'This round'), h('td', null, signed(t.round))));
          dl.appendChild(h('tr', { class: 'sum' }, h('th', { scope: 'row' }, 'Total'), h('td', null, fmtNumber(t.total))));
          detail.appendChild(dl);
          const cites = t.lines.filter((l) => l.citations && l.citations.length);
          if (cites.length) {
            const more = h('details', { class: 'more' }, h('summary', null, 'Where these points come from'));
            cites.forEach((l) => { more.appendChild(h('p', { class: 'muted' }, ITEM_WORDS[l.item] || l.item)); more.appendChild(citationBlock(l.citations[0])); });
            detail.appendChild(more);
          }
        });
        detail.appendChild(h('button', { type: 'button', class: 'secondary', id: `correct-${r}`, on: { click: () => startCorrection(r) } }, `Correct round ${r + 1}`));
        body.appendChild(h('tr', { class: 'round-lines' }, detail));
      }
    });
    table.appendChild(body);
    table.appendChild(h('tfoot', null, h('tr', null, h('th', { scope: 'row' }, 'Total'),
      names.map((n, i) => {
        const t = result.teams.find((x) => x.name === n);
        return h('td', { class: 'total', id: `total-${i}`, dataset: { team: n } }, fmtNumber(t.total));
      }))));
    return h('div', { class: 'table-wrap' }, table);
  }

  function openingLine(result) {
    const items = game.names.map((n) => {
      const t = result.teams.find((x) => x.name === n);
      const req = t.opening_requirement || {};
      let text;
      if (req.undetermined || req.points === null || req.points === undefined) text = req.canasta_required ? 'a canasta' : 'not stated';
      else text = `${fmtNumber(req.points)}${req.canasta_required ? ' and a canasta' : ''}`;
      return h('li', { id: `opening-${game.names.indexOf(n)}` }, h('strong', null, n), `: ${text}`);
    });
    return h('div', { class: 'opening' }, h('h3', null, 'To open next round'), h('ul', null, items));
  }

  function newGameButton() {
    const wrap = h('div', { class: 'newgame' });
    if (!pendingNewGame) {
      wrap.appendChild(h('button', { type: 'button', class: 'secondary', on: { click: () => { pendingNewGame = true; render(); } } }, 'New game'));
    } else {
      wrap.appendChild(h('p', null, 'Start over? This game\u2019s rounds will be cleared from this phone.'));
      wrap.appendChild(h('div', { class: 'row' },
        h('button', { type: 'button', class: 'danger', on: { click: () => { pendingNewGame = false; game = null; save(); editing = null; draft = null; expanded = null; renderSetup(); } } }, 'Yes, clear it'),
        h('button', { type: 'button', class: 'secondary', on: { click: () => { pendingNewGame = false; render(); } } }, 'Keep playing')));
    }
    return wrap;
  }

  // ==========================================================================================
  // The round form

  function startCorrection(r) {
    editing = r;
    draft = copy(game.rounds[r]);
    render();
    const f = byId('round-form');
    if (f) f.scrollIntoView({ block: 'start', behavior: A.motion() });
  }

  function roundForm() {
    const n = game.rounds.length;
    const title = editing === null ? `Round ${n + 1}` : `Correcting round ${editing + 1}`;
    const box = h('form', { class: `round-form${editing !== null ? ' editing' : ''}`, id: 'round-form', novalidate: true,
      'aria-labelledby': 'round-form-title', on: { submit: (e) => { e.preventDefault(); saveRound(); } } });
    box.appendChild(h('h3', { id: 'round-form-title' }, title));
    form = new CardForm(null);
    form.limits = A.limitsFor(game.variant);
    game.names.forEach((name, i) => box.appendChild(teamFields(name, i)));
    const out = h('fieldset', { class: 'block' }, h('legend', null, 'Going out'));
    out.appendChild(segmented('Who went out?', game.names.map((nm, i) => [i, nm]).concat([[-1, 'Nobody']]), () => draft.wentOut,
      (v) => { draft.wentOut = v; }));
    out.appendChild(checkbox('They went out concealed', () => draft.concealed, (v) => { draft.concealed = v; },
      { hint: 'In one go, with nothing melded before.' }));
    box.appendChild(out);
    box.appendChild(h('div', { id: 'round-error', class: 'inline-error', role: 'alert', hidden: true }));
    const buttons = h('div', { class: 'row' },
      h('button', { type: 'submit', class: 'primary big', id: 'save-round' }, editing === null ? `Save round ${n + 1}` : `Save the correction`));
    if (editing !== null) {
      buttons.appendChild(h('button', { type: 'button', class: 'secondary', on: { click: () => { editing = null; draft = blankRound(game.names.length); render(); } } }, 'Cancel'));
    }
    box.appendChild(buttons);
    form.active = null;
    return box; // render() draws the card fields once the form is in the page
  }

  function teamFields(name, i) {
    const t = draft.teams[i];
    const fs = h('fieldset', { class: 'block team-block', id: `team-${i}` }, h('legend', null, name));
    fs.appendChild(segmented('Enter as', [['counts', 'Counts'], ['cards', 'Cards']], () => t.mode, (v) => { t.mode = v; render(); }, { class: 'mode' }));
    if (t.mode === 'counts') {
      fs.appendChild(stepper('Natural canastas', () => t.natural, (v) => { t.natural = v; }, { max: 15 }));
      fs.appendChild(stepper('Mixed canastas', () => t.mixed, (v) => { t.mixed = v; }, { max: 15 }));
      fs.appendChild(stepper('Red threes', () => t.red3, (v) => { t.red3 = v; }, { max: 4 }));
      fs.appendChild(numberField('Points of the melded cards', () => t.melded, (v) => { t.melded = v; },
        { placeholder: '0', hint: 'Card values of everything on the table, bonuses not included.' }));
      fs.appendChild(numberField('Points left in hand', () => t.hand, (v) => { t.hand = v; },
        { placeholder: '0', hint: 'Card values of the cards caught in hand; the referee subtracts them.' }));
    } else {
      const melds = h('div', { class: 'meldlist' });
      if (!t.melds.length) t.melds = [[]];
      t.melds.forEach((meld, j) => {
        const f = form.add(new CardField(() => t.melds[j] || [], (cards) => { t.melds[j] = cards; },
          { label: `Meld ${j + 1}`, addLabel: 'Add its cards' }));
        melds.appendChild(f.el);
      });
      melds.appendChild(h('button', { type: 'button', class: 'secondary small', on: { click: () => {
        t.melds = nonEmpty(t.melds).concat([[]]);
        render();
      } } }, '+ Another meld'));
      fs.appendChild(melds);
      const hand = form.add(new CardField(() => t.handCards, (cards) => { t.handCards = cards; }, { label: 'Cards left in hand', addLabel: 'Add a card' }));
      fs.appendChild(hand.el);
      fs.appendChild(stepper('Red threes', () => t.red3, (v) => { t.red3 = v; }, { max: 4 }));
    }
    return fs;
  }

  class EntryError extends Error {}

  function teamPayload(round, i, name) {
    const t = round.teams[i];
    const p = { name };
    if (t.mode === 'cards') {
      p.melds = nonEmpty(t.melds);
      p.hand = t.handCards.slice();
    } else {
      const melded = parseWhole(t.melded, 0);
      const hand = parseWhole(t.hand, 0);
      if (Number.isNaN(melded) || melded < 0) throw new EntryError(`${name}: the points of the melded cards must be a whole number, 0 or more.`);
      if (Number.isNaN(hand) || hand < 0) throw new EntryError(`${name}: the points left in hand must be a whole number, 0 or more (the referee subtracts them).`);
      p.natural_canastas = t.natural;
      p.mixed_canastas = t.mixed;
      p.melded_points = melded;
      p.hand_points = hand;
    }
    p.red_threes = t.red3;
    p.went_out = round.wentOut === i;
    if (p.went_out) p.concealed = Boolean(round.concealed);
    return p;
  }

  function gameBody(rounds) {
    const body = { variant: game.variant, players: game.players,
      rounds: rounds.map((round) => ({ teams: game.names.map((name, i) => teamPayload(round, i, name)) })) };
    if (game.houseRules && Object.keys(game.houseRules).length) body.house_rules = game.houseRules;
    return body;
  }

  function labels(rounds) {
    const out = { '/players': 'the number of players', '/variant': 'the rules chosen' };
    rounds.forEach((round, r) => {
      out[`/rounds/${r}`] = `round ${r + 1}`;
      out[`/rounds/${r}/teams`] = `round ${r + 1}`;
      game.names.forEach((name, i) => {
        const where = `/rounds/${r}/teams/${i}`;
        out[where] = `round ${r + 1}, ${name}`;
        const t = round.teams[i];
        if (t && t.mode === 'cards') {
          out[`${where}/hand`] = `round ${r + 1}, ${name}: cards left in hand`;
          t.handCards.forEach((c, k) => { out[`${where}/hand/${k}`] = `round ${r + 1}, ${name}: ${A.cardShort(c)} left in hand`; });
          nonEmpty(t.melds).forEach((meld, j) => {
            out[`${where}/melds/${j}`] = `round ${r + 1}, ${name}: meld ${j + 1}`;
            meld.forEach((c, k) => { out[`${where}/melds/${j}/${k}`] = `round ${r + 1}, ${name}: ${A.cardShort(c)} in meld ${j + 1}`; });
          });
        }
      });
    });
    return out;
  }

  async function saveRound() {
    const err = byId('round-error');
    err.hidden = true;
    const rounds = game.rounds.slice();
    if (editing === null) rounds.push(draft); else rounds[editing] = draft;
    const ok = await recompute(rounds, (message) => { err.textContent = message; err.hidden = false; });
    if (ok) {
      const done = editing;
      if (done !== null) {
        notice = done === rounds.length - 1 ? `Round ${done + 1} corrected.`
          : `Round ${done + 1} corrected; the rounds after it were added up again.`;
      }
      editing = null;
      draft = blankRound(game.names.length);
      expanded = null;
      render();
      const target = done !== null ? byId(`cell-${done}-0`) : byId('score-table');
      if (target) target.scrollIntoView({ block: 'center', behavior: A.motion() });
    }
  }

  /** Score `rounds` as the whole game; on success make them the game. Returns whether it worked. */
  async function recompute(rounds, onEntryError) {
    const problemSlot = byId('score-problem');
    if (problemSlot) clear(problemSlot);
    let body;
    try {
      body = gameBody(rounds);
    } catch (e) {
      if (!(e instanceof EntryError)) throw e;
      if (onEntryError) onEntryError(e.message);
      return false;
    }
    if (!rounds.length) { game.rounds = []; game.result = null; save(); render(); return true; }
    try {
      const result = await api('POST', '/v1/score', body);
      game.rounds = rounds;
      game.result = result;
      save();
      if (!onEntryError) render();
      return true;
    } catch (e) {
      if (!(e instanceof A.ApiError)) throw e;
      const slot = byId('score-problem');
      clear(slot).appendChild(problemBox(e.problem, labels(rounds)));
      if (Array.isArray(e.problem.parameters) && e.problem.parameters.length) slot.appendChild(houseRuleForm(e.problem.parameters, rounds));
      slot.scrollIntoView({ block: 'center', behavior: A.motion() });
      return false;
    }
  }

  /** The text leaves a point open: let the table agree a value and score again. */
  function houseRuleForm(names, rounds) {
    const box = h('form', { class: 'note-box', novalidate: true });
    box.appendChild(h('p', null, h('strong', null, 'Agree a house rule and score again')));
    const inputs = {};
    names.forEach((name) => {
      const d = A.cache.resolved[game.variant];
      const p = d && d.parameters.find((x) => x.name === name);
      const id = `house-${name.replace(/\W/g, '-')}`;
      inputs[name] = h('input', { type: 'text', id, class: 'text', autocomplete: 'off', placeholder: p ? p.accepts : '' });
      box.appendChild(h('div', { class: 'field' }, h('label', { for: id }, p ? capitalise(p.description) : name, h('small', null, `${name}: ${p ? p.accepts : 'a value'}`)), inputs[name]));
    });
    const err = h('p', { class: 'inline-error', role: 'alert', hidden: true });
    box.appendChild(err);
    box.appendChild(h('button', { type: 'submit', class: 'primary' }, 'Use the house rule'));
    box.addEventListener('submit', async (e) => {
      e.preventDefault();
      const values = {};
      for (const name of names) {
        const raw = inputs[name].value.trim();
        if (!raw) { err.textContent = 'Fill in every value.'; err.hidden = false; return; }
        try { values[name] = JSON.parse(raw); } catch (x) { values[name] = raw; }
      }
      game.houseRules = Object.assign({}, game.houseRules, values);
      const ok = await recompute(rounds, (message) => { err.textContent = message; err.hidden = false; });
      if (ok) { editing = null; draft = blankRound(game.names.length); render(); }
    });
    return box;
  }

  // ==========================================================================================

  let started = false;
  function init() { }
  function show() {
    if (!started) {
      started = true;
      if (game && (!A.cache.byId[game.variant] || !Array.isArray(game.rounds))) game = null;
      if (game && !draft) draft = blankRound(game.names.length);
      if (game && game.rounds.length && !game.result) { render(); recompute(game.rounds); return; }
    }
    render();
  }

  A.views = A.views || {};
  A.views.score = { init, show };
}());
