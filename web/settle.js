/* Settle a dispute: the facts a question needs, a ruling, and the same question under every variant. */
(function () {
  'use strict';

  const A = window.CanastaReferee;
  const { h, clear, byId, api, CardForm, CardField, stepper, checkbox, numberField, segmented,
    cardName, cardShort, rankOf, countCards, freeCopies, citationBlock, problemBox, humanPointer,
    parseWhole, capitalise, JOKER, RANK_PLURAL } = A;

  const QUESTIONS = [
    { id: 'take_pile', label: 'May I take the pile?' },
    { id: 'meld', label: 'Is this meld legal?' },
    { id: 'open', label: 'Is this enough to open?' },
    { id: 'go_out', label: 'May I go out?' },
    { id: 'discard', label: 'May I discard this?' },
  ];

  const VERDICT_WORDS = {
    legal: 'Allowed',
    illegal: 'Not allowed',
    undetermined: 'Not settled',
  };

  // The facts, per question; kept while the player switches questions.
  const m = {
    variant: null,
    question: 'take_pile',
    players: 4,
    score: '',
    firstRound: false,
    take: { top: [], wild: false, red3: false, black3: false, with: [], opened: 'yes', drew: false, melds: [[]] },
    meld: { melds: [[]], add: [], addTo: '', opened: 'yes', natural: 0, mixed: 0, table: [[]], left: 2 },
    open: { melds: [[]], left: 2 },
    out: { melds: [[]], add: [], addTo: '', discard: [], natural: 0, mixed: 0, table: [[]], concealed: false },
    discard: { card: [], left: 2, natural: 0, mixed: 0 },
  };

  let form = null;
  let last = null; // the last request sent: {body, labels}

  const nonEmpty = (melds) => melds.filter((x) => x.length);
  const flat = (melds) => melds.reduce((a, x) => a.concat(x), []);

  // ==========================================================================================
  // Choosing the variant and the question

  function renderVariantChoices() {
    const box = clear(byId('variant-choices'));
    const options = A.cache.variants.map((v) => [v.id, v.id, shortName(v)]);
    options.push(['all', 'All of them', 'side by side']);
    options.forEach(([id, title, sub]) => {
      const inputId = `variant-${id}`;
      const input = h('input', { type: 'radio', name: 'variant', id: inputId, value: id, checked: m.variant === id,
        on: { change: () => { if (input.checked) setVariant(id); } } });
      box.appendChild(h('label', { class: 'choice', for: inputId }, input,
        h('span', { class: 'choice-title' }, title), h('span', { class: 'choice-sub' }, sub)));
    });
  }

  function shortName(v) {
    const lang = { sv: 'Swedish', no: 'Norwegian', da: 'Danish' }[v.language] || v.language;
    const p = v.players_supported;
    return p.length > 1 ? `${lang} \u00b7 ${p[0]}\u2013${p[p.length - 1]} players` : lang;
  }

  function setVariant(id) {
    m.variant = id;
    if (id) A.store('cr.variant', id);
    const players = playersSupported();
    if (!players.includes(m.players)) m.players = players.includes(4) ? 4 : players[0];
    if (form) form.limits = A.limitsFor(id);
    renderFacts();
  }

  function playersSupported() {
    if (m.variant === 'all' || !A.cache.byId[m.variant]) {
      const all = new Set();
      A.cache.variants.forEach((v) => v.players_supported.forEach((p) => all.add(p)));
      return [...all].sort();
    }
    return A.cache.byId[m.variant].players_supported;
  }

  function renderQuestionChoices() {
    const box = clear(byId('question-choices'));
    QUESTIONS.forEach((q) => {
      const inputId = `question-${q.id}`;
      const input = h('input', { type: 'radio', name: 'question', id: inputId, value: q.id, checked: m.question === q.id,
        on: { change: () => { if (input.checked) { m.question = q.id; renderFacts(); } } } });
      box.appendChild(h('label', { class: 'choice', for: inputId }, input, h('span', { class: 'choice-title' }, q.label)));
    });
  }

  // ==========================================================================================
  // The facts form

  function renderFacts() {
    const root = clear(byId('facts'));
    form = new CardForm(null);
    form.limits = A.limitsFor(m.variant);
    const builders = { take_pile: factsTake, meld: factsMeld, open: factsOpen, go_out: factsOut, discard: factsDiscard };
    root.appendChild(builders[m.question]());
    const common = h('fieldset', { class: 'block' }, h('legend', null, 'The table'));
    if (m.question !== 'discard') {
      common.appendChild(checkbox('Still the first round', () => m.firstRound, (v) => { m.firstRound = v; },
        { hint: 'The starting player has not had a second turn yet.' }));
    }
    const players = playersSupported();
    if (players.length > 1) {
      common.appendChild(segmented('Players at the table', players.map((p) => [p, String(p)]), () => m.players,
        (v) => { m.players = v; }));
    }
    if (common.childNodes.length > 1) root.appendChild(common);
    root.appendChild(h('div', { id: 'facts-error', class: 'inline-error', role: 'alert', hidden: true }));
    // Start with the first field that still wants cards open.
    form.active = form.fields.find((f) => f.attached() && f.cards().length < f.max) || null;
    form.render();
  }

  function cardsField(get, set, opts) {
    const f = form.add(new CardField(get, set, opts));
    return f.el;
  }

  /** Several melds, each its own card field; "Another meld" adds one. */
  function meldList(get, set, label, opts) {
    const o = opts || {};
    const wrap = h('div', { class: 'meldlist' });
    let melds = get();
    if (!melds.length) { melds = [[]]; set(melds); }
    melds.forEach((meld, i) => {
      wrap.appendChild(cardsField(() => get()[i] || [], (cards) => {
        const all = get().slice();
        all[i] = cards;
        set(all);
      }, { label: melds.length > 1 ? `${label} ${i + 1}` : label, hint: i === 0 ? o.hint : null, addLabel: o.addLabel }));
    });
    wrap.appendChild(h('button', { type: 'button', class: 'secondary small', on: { click: () => {
      const kept = nonEmpty(get());
      kept.push([]);
      set(kept);
      renderFacts();
      const fields = form.fields.filter((f) => f.attached());
      const target = fields.find((f) => f.label === `${label} ${kept.length}`);
      if (target) { form.open(target); target.el.scrollIntoView({ block: 'nearest' }); }
    } } }, o.moreLabel || '+ Another meld'));
    return wrap;
  }

  function scoreField(hint) {
    return numberField('Your team\u2019s score', () => m.score, (v) => { m.score = v; },
      { negative: true, placeholder: 'e.g. 1500', hint: hint || 'The total before this round. Needed when your team has not melded yet.' });
  }

  /** Has the team melded; its canastas and other melds (for going out, additions, the last card). */
  function teamBlock(t, opts) {
    const o = opts || {};
    const fs = h('fieldset', { class: 'block' }, h('legend', null, 'Your team'));
    if (!o.forceUnopened) {
      fs.appendChild(segmented('Has your team melded this round?', [['no', 'Not yet'], ['yes', 'Yes']],
        () => t.opened || 'yes', (v) => { t.opened = v; renderFacts(); }));
    }
    if (!o.forceUnopened && (t.opened || 'yes') === 'yes') {
      fs.appendChild(stepper('Natural canastas on the table', () => t.natural, (v) => { t.natural = v; }, { max: 10 }));
      fs.appendChild(stepper('Mixed canastas on the table', () => t.mixed, (v) => { t.mixed = v; }, { max: 10 }));
      if (o.table) {
        fs.appendChild(meldList(() => t.table, (v) => { t.table = v; }, 'Other meld on the table', {
          hint: 'Only the ones that matter, e.g. the meld you add to.', addLabel: 'Add its cards', moreLabel: '+ Another meld on the table' }));
      }
    }
    fs.appendChild(scoreField(o.scoreHint));
    return fs;
  }

  function additionBlock(t) {
    const fs = h('fieldset', { class: 'block' }, h('legend', null, 'Adding to a meld on the table (optional)'));
    const ranks = [...new Set(nonEmpty(t.table).map((meld) => naturalRank(meld)).filter(Boolean))];
    if (!ranks.length) {
      fs.appendChild(h('p', { class: 'muted' }, 'To add cards to a meld, first enter that meld under \u201cYour team\u201d.'));
      return fs;
    }
    if (!ranks.includes(t.addTo)) t.addTo = ranks[0];
    fs.appendChild(segmented('Onto the meld of', ranks.map((r) => [r, RANK_PLURAL[r] || r]), () => t.addTo,
      (v) => { t.addTo = v; }));
    fs.appendChild(cardsField(() => t.add, (v) => { t.add = v; }, { label: 'Cards you add', addLabel: 'Add a card' }));
    return fs;
  }

  function naturalRank(meld) {
    const naturals = meld.filter((c) => c !== JOKER && rankOf(c) !== '2');
    return naturals.length ? rankOf(naturals[0]) : null;
  }

  function factsTake() {
    const t = m.take;
    const frag = document.createDocumentFragment();
    const pile = h('fieldset', { class: 'block' }, h('legend', null, 'The discard pile'));
    pile.appendChild(cardsField(() => t.top, (v) => { t.top = v; renderFacts(); }, { label: 'Top card', max: 1,
      id: 'field-top', addLabel: 'Choose the top card' }));
    pile.appendChild(checkbox('A wild card lies in the pile', () => t.wild, (v) => { t.wild = v; form.render(); },
      { hint: 'A joker (or a two) was discarded into it.' }));
    pile.appendChild(checkbox('A red three started the pile', () => t.red3, (v) => { t.red3 = v; form.render(); }));
    pile.appendChild(checkbox('A black three lies in the pile', () => t.black3, (v) => { t.black3 = v; form.render(); }));
    frag.appendChild(pile);

    const hand = h('fieldset', { class: 'block' }, h('legend', null, 'From your hand'));
    hand.appendChild(cardsField(() => t.with, (v) => { t.with = v; }, { label: 'Cards you show with the top card',
      id: 'field-with', hint: 'None if the top card goes onto your team\u2019s meld.', addLabel: 'Add a card' }));
    const more = h('details', { class: 'more' }, h('summary', null, 'Also lay down other melds with it'));
    more.appendChild(meldList(() => t.melds, (v) => { t.melds = v; }, 'Meld', { hint: 'From your hand, to reach the opening count.' }));
    hand.appendChild(more);
    if (nonEmpty(t.melds).length) more.open = true;
    frag.appendChild(hand);

    const team = h('fieldset', { class: 'block' }, h('legend', null, 'Your team'));
    const top = t.top[0];
    const topRank = top && top !== JOKER && !['2', '3'].includes(rankOf(top)) ? rankOf(top) : null;
    const opts = [['no', 'Not yet'], ['yes', 'Yes']];
    if (topRank) opts.push(['rank', `Yes, with ${RANK_PLURAL[topRank]}`]);
    if (t.opened === 'rank' && !topRank) t.opened = 'yes';
    team.appendChild(segmented('Has your team melded this round?', opts, () => t.opened,
      (v) => { t.opened = v; form.render(); }, { class: opts.length > 2 ? 'three' : '' }));
    team.appendChild(scoreField());
    team.appendChild(checkbox('I already drew from the stock this turn', () => t.drew, (v) => { t.drew = v; }));
    frag.appendChild(team);
    form.extraCards = () => pileExtras(t, userCardsTake(t)).cards;
    return frag;
  }

  function factsMeld() {
    const t = m.meld;
    const frag = document.createDocumentFragment();
    const fs = h('fieldset', { class: 'block' }, h('legend', null, 'What you lay down'));
    fs.appendChild(meldList(() => t.melds, (v) => { t.melds = v; }, 'New meld', { addLabel: 'Add its cards' }));
    fs.appendChild(leftSelect(t));
    frag.appendChild(fs);
    frag.appendChild(teamBlock(t, { table: true }));
    if ((t.opened || 'yes') === 'yes') frag.appendChild(additionBlock(t));
    form.extraCards = () => [];
    return frag;
  }

  function factsOpen() {
    const t = m.open;
    const frag = document.createDocumentFragment();
    const fs = h('fieldset', { class: 'block' }, h('legend', null, 'Your opening melds'));
    fs.appendChild(meldList(() => t.melds, (v) => { t.melds = v; }, 'Meld', { addLabel: 'Add its cards',
      hint: 'Every meld you lay down together for the opening.' }));
    fs.appendChild(leftSelect(t));
    frag.appendChild(fs);
    frag.appendChild(teamBlock(t, { forceUnopened: true, scoreHint: 'The total before this round: it sets how much the opening needs.' }));
    form.extraCards = () => [];
    return frag;
  }

  function factsOut() {
    const t = m.out;
    const frag = document.createDocumentFragment();
    const fs = h('fieldset', { class: 'block' }, h('legend', null, 'How you go out'));
    fs.appendChild(meldList(() => t.melds, (v) => { t.melds = v; }, 'New meld', { addLabel: 'Add its cards',
      hint: 'Every card left in your hand goes into a meld or the discard.' }));
    fs.appendChild(cardsField(() => t.discard, (v) => { t.discard = v; }, { label: 'Last card discarded (if any)', max: 1,
      addLabel: 'Choose the discard' }));
    fs.appendChild(checkbox('Going out concealed', () => t.concealed, (v) => { t.concealed = v; renderFacts(); },
      { hint: 'Nobody on your team has melded this round.' }));
    frag.appendChild(fs);
    if (t.concealed) {
      const team = h('fieldset', { class: 'block' }, h('legend', null, 'Your team'));
      team.appendChild(scoreField());
      frag.appendChild(team);
    } else {
      frag.appendChild(teamBlock(t, { table: true }));
      if ((t.opened || 'yes') === 'yes') frag.appendChild(additionBlock(t));
    }
    form.extraCards = () => [];
    return frag;
  }

  function factsDiscard() {
    const t = m.discard;
    const frag = document.createDocumentFragment();
    const fs = h('fieldset', { class: 'block' }, h('legend', null, 'The discard'));
    fs.appendChild(cardsField(() => t.card, (v) => { t.card = v; }, { label: 'Card to discard', max: 1, addLabel: 'Choose the card' }));
    fs.appendChild(segmented('Is it your last card?', [[2, 'No'], [0, 'Yes, my last card']], () => t.left, (v) => { t.left = v; }));
    frag.appendChild(fs);
    const team = h('fieldset', { class: 'block' }, h('legend', null, 'Your team'));
    team.appendChild(stepper('Natural canastas on the table', () => t.natural, (v) => { t.natural = v; }, { max: 10 }));
    team.appendChild(stepper('Mixed canastas on the table', () => t.mixed, (v) => { t.mixed = v; }, { max: 10 }));
    frag.appendChild(team);
    form.extraCards = () => [];
    return frag;
  }

  function leftSelect(t) {
    return segmented('Cards left in your hand afterwards', [[2, '2 or more'], [1, '1'], [0, 'None']], () => t.left,
      (v) => { t.left = v; });
  }

  // ==========================================================================================
  // From the facts to a request: {variant, situation, action}, and words for every pointer in it

  class Problem extends Error {}

  function teamScore() {
    const score = parseWhole(m.score, null);
    if (Number.isNaN(score)) throw new Problem('Your team\u2019s score must be a whole number, like 1500 or -200.');
    return score;
  }

  function userCardsTake(t) { return [...t.top, ...t.with, ...flat(t.melds)]; }

  /** The pile under the top card: the wild card, red and black threes the player ticked, and one plain card. */
  function pileExtras(t, userCards) {
    const lim = A.limitsFor(m.variant);
    const counts = countCards(userCards);
    const below = [];
    const labels = [];
    const top = t.top[0];
    if (t.red3) {
      const c = freeCopies('3', 1, counts, lim.decks, ['H', 'D']);
      if (c) { below.push(c[0]); labels.push('the red three that started the pile'); }
    }
    const avoid = new Set(userCards.map(rankOf));
    const fillerRank = ['6', '7', '8', '5', '4', 'Q'].find((r) => !avoid.has(r) && r !== (top && rankOf(top)));
    const filler = fillerRank ? freeCopies(fillerRank, 1, counts, lim.decks) : null;
    if (filler) { below.push(filler[0]); labels.push('a card lower in the pile'); }
    if (t.black3) {
      const c = freeCopies('3', 1, counts, lim.decks, ['C', 'S']);
      if (c) { below.push(c[0]); labels.push('the black three in the pile'); }
    }
    if (t.wild) {
      if ((counts.get(JOKER) || 0) < lim.jokers) {
        below.push(JOKER);
        counts.set(JOKER, (counts.get(JOKER) || 0) + 1);
      } else {
        const two = freeCopies('2', 1, counts, lim.decks);
        if (two) below.push(two[0]);
      }
      labels.push('the wild card in the pile');
    }
    return { cards: below, labels };
  }

  /** Cards the page adds for facts given as words: a meld, canastas. Never reuses a copy in play. */
  function synthesiser(userCards, reserved) {
    const lim = A.limitsFor(m.variant);
    const counts = countCards(userCards.concat(reserved || []));
    const usedRanks = new Set(userCards.map(rankOf));
    const pick = () => {
      const r = ['K', 'Q', 'J', '10', '8', '7', '6', '5', '4', 'A', '9'].find((x) => !usedRanks.has(x)
        && ['S', 'H', 'D', 'C'].every((s) => !(counts.get(x + s))));
      if (r) usedRanks.add(r);
      return r;
    };
    return {
      meldOf(rank, n) { return freeCopies(rank, n, counts, lim.decks); },
      plainMeld() { const r = pick(); return r ? freeCopies(r, 3, counts, lim.decks) : null; },
      canasta(natural) {
        const r = pick();
        if (!r) return null;
        if (natural) return freeCopies(r, 7, counts, lim.decks);
        const cards = freeCopies(r, 6, counts, lim.decks);
        if ((counts.get(JOKER) || 0) < lim.jokers) {
          counts.set(JOKER, (counts.get(JOKER) || 0) + 1);
          return cards.concat([JOKER]);
        }
        const two = freeCopies('2', 1, counts, lim.decks);
        return two ? cards.concat(two) : null;
      },
    };
  }

  function tableMelds(t, userCards, labels, base) {
    const syn = synthesiser(userCards);
    const melds = [];
    nonEmpty(t.table || []).forEach((meld) => {
      labels[`${base}/${melds.length}`] = `your team\u2019s meld of ${cardsText(meld)}`;
      melds.push(meld);
    });
    for (let i = 0; i < (t.natural || 0); i++) {
      const c = syn.canasta(true);
      if (!c) throw new Problem('There are not enough cards left in the deck for that many canastas.');
      labels[`${base}/${melds.length}`] = `natural canasta ${i + 1} of your team (filled in by the page)`;
      melds.push(c);
    }
    for (let i = 0; i < (t.mixed || 0); i++) {
      const c = syn.canasta(false);
      if (!c) throw new Problem('There are not enough cards left in the deck for that many canastas.');
      labels[`${base}/${melds.length}`] = `mixed canasta ${i + 1} of your team (filled in by the page)`;
      melds.push(c);
    }
    if (!melds.length) {
      const plain = syn.plainMeld();
      if (plain) {
        labels[`${base}/0`] = 'your team\u2019s meld on the table (filled in by the page)';
        melds.push(plain);
      }
    }
    return melds;
  }

  function cardsText(cards) { return cards.map(cardShort).join(' '); }

  function labelCards(labels, base, cards, what) {
    labels[base] = what;
    cards.forEach((c, i) => { labels[`${base}/${i}`] = `${what}: ${cardShort(c)} (${cardName(c)})`; });
  }

  function labelMelds(labels, base, melds, what) {
    labels[base] = what;
    melds.forEach((meld, j) => labelCards(labels, `${base}/${j}`, meld, `${what} ${j + 1}`));
  }

  function buildRequest() {
    const labels = {
      '/situation/team/score': 'your team\u2019s score',
      '/situation/players': 'the number of players',
      '/situation/first_round': 'whether it is still the first round',
    };
    if (!m.variant) throw new Problem('Choose which rules you play by (at the top of the page).');
    const situation = { first_round: m.firstRound };
    if (playersSupported().length > 1 || m.variant === 'all') situation.players = m.players;
    let action;
    const q = m.question;
    if (q === 'take_pile') {
      const t = m.take;
      if (!t.top.length) throw new Problem('Choose the top card of the pile first.');
      const extras = pileExtras(t, userCardsTake(t));
      const pile = extras.cards.concat(t.top);
      extras.labels.forEach((l, i) => { labels[`/situation/discard_pile/${i}`] = l; });
      labels[`/situation/discard_pile/${pile.length - 1}`] = `the top card of the pile (${cardShort(t.top[0])})`;
      labels['/situation/discard_pile'] = 'the discard pile';
      const melds = nonEmpty(t.melds);
      const hand = t.with.concat(flat(melds));
      let team = [];
      if (t.opened === 'yes') {
        team = tableMelds({}, userCardsTake(t).concat(extras.cards), labels, '/situation/team/melds');
      } else if (t.opened === 'rank') {
        const syn = synthesiser(userCardsTake(t), extras.cards);
        const meld = syn.meldOf(rankOf(t.top[0]), 3);
        if (!meld) throw new Problem(`There are not enough ${RANK_PLURAL[rankOf(t.top[0])]} left for your team\u2019s meld.`);
        team = [meld];
        labels['/situation/team/melds/0'] = `your team\u2019s meld of ${RANK_PLURAL[rankOf(t.top[0])]} (filled in by the page)`;
      }
      situation.discard_pile = pile;
      situation.team = { score: teamScore(), melds: team };
      situation.player = { hand };
      situation.turn = { drew: t.drew ? 'stock' : null, cards_from_pile: [] };
      labelCards(labels, '/action/with', t.with, 'the cards you show');
      labelCards(labels, '/situation/player/hand', hand, 'your hand');
      action = { type: 'take_pile', with: t.with };
      if (melds.length) { action.melds = melds; labelMelds(labels, '/action/melds', melds, 'meld'); }
    } else if (q === 'meld' || q === 'open') {
      const t = q === 'meld' ? m.meld : m.open;
      const melds = nonEmpty(t.melds);
      const adds = q === 'meld' && t.add.length ? [{ to: t.addTo, cards: t.add }] : [];
      if (!melds.length && !adds.length) throw new Problem('Enter the cards of at least one meld.');
      const laid = flat(melds).concat(flat(adds.map((a) => a.cards)));
      const opened = q === 'meld' && (t.opened || 'yes') === 'yes';
      const team = opened ? tableMelds(t, laid, labels, '/situation/team/melds') : [];
      situation.team = { score: teamScore(), melds: team };
      situation.player = { hand_count: laid.length + Number(t.left) };
      situation.turn = { drew: 'stock', cards_from_pile: [] };
      action = { type: 'meld', melds };
      labelMelds(labels, '/action/melds', melds, 'new meld');
      if (adds.length) { action.add = adds; labelCards(labels, '/action/add/0/cards', t.add, 'the cards you add'); }
    } else if (q === 'go_out') {
      const t = m.out;
      const melds = nonEmpty(t.melds);
      const adds = !t.concealed && t.add.length ? [{ to: t.addTo, cards: t.add }] : [];
      if (!melds.length && !adds.length && !t.discard.length) throw new Problem('Enter the melds you go out with.');
      const hand = flat(melds).concat(flat(adds.map((a) => a.cards)), t.discard);
      const team = t.concealed ? [] : tableMelds(t, hand, labels, '/situation/team/melds');
      situation.team = { score: teamScore(), melds: team };
      situation.player = { hand, has_melded: !t.concealed };
      situation.turn = { drew: 'stock', cards_from_pile: [] };
      action = { type: 'go_out', melds };
      labelMelds(labels, '/action/melds', melds, 'new meld');
      labelCards(labels, '/situation/player/hand', hand, 'your hand');
      if (adds.length) { action.add = adds; labelCards(labels, '/action/add/0/cards', t.add, 'the cards you add'); }
      if (t.discard.length) { action.discard = t.discard[0]; labels['/action/discard'] = `the discard (${cardShort(t.discard[0])})`; }
    } else {
      const t = m.discard;
      if (!t.card.length) throw new Problem('Choose the card you want to discard.');
      const team = tableMelds(t, t.card, labels, '/situation/team/melds');
      situation.team = { score: teamScore(), melds: team };
      situation.player = { hand_count: Number(t.left) + 1 };
      situation.turn = { drew: 'stock', cards_from_pile: [] };
      action = { type: 'discard', card: t.card[0] };
      labels['/action/card'] = `the card to discard (${cardShort(t.card[0])})`;
    }
    return { situation, action, labels };
  }

  // ==========================================================================================
  // Asking the referee

  async function submit(ev) {
    if (ev) ev.preventDefault();
    const out = byId('ruling');
    const err = byId('facts-error');
    err.hidden = true;
    let built;
    try {
      built = buildRequest();
    } catch (e) {
      if (!(e instanceof Problem)) throw e;
      err.textContent = e.message;
      err.hidden = false;
      err.scrollIntoView({ block: 'center', behavior: A.motion() });
      if (!m.variant) byId('variant-choices').querySelector('input').focus({ preventScroll: true });
      return;
    }
    last = built;
    clear(out);
    out.appendChild(h('p', { class: 'busy' }, 'Asking the referee\u2026'));
    try {
      if (m.variant === 'all') {
        const result = await api('POST', '/v1/compare', { situation: built.situation, action: built.action });
        clear(out).appendChild(renderCompare(result, built.labels));
      } else {
        const ruling = await api('POST', '/v1/adjudicate', { variant: m.variant, situation: built.situation, action: built.action });
        clear(out).appendChild(renderRuling(ruling, built.labels));
      }
    } catch (e) {
      if (!(e instanceof A.ApiError)) throw e;
      clear(out).appendChild(problemBox(e.problem, built.labels));
    }
    const head = out.querySelector('.verdict, .compare-head, .problem');
    if (head) {
      head.setAttribute('tabindex', '-1');
      head.focus({ preventScroll: true });
      head.scrollIntoView({ block: 'start', behavior: A.motion() });
    }
  }

  async function compareAll() {
    if (!last) return;
    const box = byId('compare');
    clear(box).appendChild(h('p', { class: 'busy' }, 'Ruling under every variant\u2026'));
    try {
      const result = await api('POST', '/v1/compare', { situation: last.situation, action: last.action });
      clear(box).appendChild(renderCompare(result, last.labels));
    } catch (e) {
      if (!(e instanceof A.ApiError)) throw e;
      clear(box).appendChild(problemBox(e.problem, last.labels));
    }
    const head = box.querySelector('.compare-head, .problem');
    if (head) {
      head.setAttribute('tabindex', '-1');
      head.focus({ preventScroll: true });
      head.scrollIntoView({ block: 'start', behavior: A.motion() });
    }
  }

  // ==========================================================================================
  // Showing a ruling

  const FOCUS = {
    take_pile: ['pile.', 'first_round.no_pile', 'opening.'],
    meld: ['meld.', 'opening.', 'go_out.keep_card', 'black_three', 'red_three'],
    open: ['opening.', 'first_round.no_opening', 'meld.'],
    go_out: ['go_out.', 'opening.', 'black_three', 'meld.'],
    discard: ['go_out.', 'red_three', 'turn.'],
  };

  function verdictWord(ruling) {
    if (ruling.verdict === 'undetermined' && ruling.missing && ruling.missing.length && !ruling.not_stated.length) return 'More facts needed';
    return VERDICT_WORDS[ruling.verdict] || ruling.verdict;
  }

  /** The checks that decide the verdict: failures, open points, or (when legal) the ones the question is about. */
  function decidingReasons(ruling) {
    if (ruling.verdict === 'illegal') return ruling.reasons.filter((r) => r.passed === false);
    if (ruling.verdict === 'undetermined') return ruling.reasons.filter((r) => r.passed === null);
    const focus = FOCUS[m.question] || [];
    const hits = ruling.reasons.filter((r) => focus.some((p) => r.rule.startsWith(p)));
    const pick = hits.length ? hits : ruling.reasons.filter((r) => r.rule !== 'turn.draw_first');
    return pick.slice(0, 2);
  }

  function paramDescription(variantId, name) {
    const d = A.cache.resolved[variantId];
    const p = d && d.parameters.find((x) => x.name === name);
    return p ? p.description.replace(/\.$/, '') : name;
  }

  function renderRuling(ruling, labels) {
    const v = A.cache.byId[ruling.variant];
    const wrap = h('div', { class: 'ruling-body' });
    const deciding = decidingReasons(ruling);
    const head = h('div', { class: `verdict ${ruling.verdict}`, role: 'status' },
      h('p', { class: 'verdict-word' }, verdictWord(ruling)),
      h('p', { class: 'verdict-sub' }, `${QUESTIONS.find((q) => q.id === m.question).label} Under `,
        h('strong', null, ruling.variant), h('span', { class: 'verdict-code' }, ` \u00b7 verdict: ${ruling.verdict}`)),
      v ? h('p', { class: 'verdict-name', lang: v.language }, v.name) : null);
    wrap.appendChild(head);

    const why = h('div', { class: 'why' });
    const shown = new Set();
    deciding.forEach((r) => {
      why.appendChild(h('p', { class: 'why-text' }, r.explanation));
      const cites = r.citations.filter((c) => !shown.has(`${c.variant}:${c.start}`));
      cites.forEach((c) => shown.add(`${c.variant}:${c.start}`));
      cites.slice(0, 2).forEach((c) => why.appendChild(citationBlock(c)));
      if (cites.length > 2) {
        const more = h('details', { class: 'more' }, h('summary', null, `${cites.length - 2} more sentence${cites.length > 3 ? 's' : ''} from the text`));
        cites.slice(2).forEach((c) => more.appendChild(citationBlock(c)));
        why.appendChild(more);
      }
      if (r.house_rules) r.house_rules.forEach((hr) => why.appendChild(h('p', { class: 'muted' }, `House rule: ${hr.parameter} = ${JSON.stringify(hr.value)}`)));
    });
    if (!deciding.length) why.appendChild(h('p', { class: 'why-text' }, ruling.summary));
    wrap.appendChild(why);

    if (ruling.missing && ruling.missing.length) {
      wrap.appendChild(h('div', { class: 'note-box' }, h('p', null, h('strong', null, 'The referee needs to know: ')),
        h('ul', null, ruling.missing.map((p) => h('li', null, capitalise(humanPointer(p, labels))))),
        h('p', { class: 'muted' }, 'Fill it in above and tap \u201cRule on it\u201d again.')));
    }
    if (ruling.not_stated && ruling.not_stated.length) {
      wrap.appendChild(h('div', { class: 'note-box' }, h('p', null, h('strong', null, `The ${ruling.variant} text does not settle: `)),
        h('ul', null, ruling.not_stated.map((name) => {
          const interp = (ruling.interpretations || []).find((i) => i.parameter === name);
          return h('li', null, `${paramDescription(ruling.variant, name)} (${name}).`, interp && interp.note ? h('small', { class: 'block-note' }, interp.note) : null);
        })),
        h('p', { class: 'muted' }, 'Agree a house rule at the table for this point.')));
    }
    if (ruling.consequences && ruling.consequences.length) {
      wrap.appendChild(h('div', { class: 'next' }, h('h3', null, 'What happens next'),
        h('ul', null, ruling.consequences.map((c) => h('li', null, c)))));
    }

    wrap.appendChild(h('div', { class: 'actionbar inline' },
      h('button', { type: 'button', class: 'primary', id: 'compare-button', on: { click: compareAll } }, 'Compare under every variant')));
    wrap.appendChild(h('div', { id: 'compare', class: 'compare', 'aria-live': 'polite' }));

    const all = h('details', { class: 'more checks' }, h('summary', null, `Every check the referee made (${ruling.reasons.length})`));
    const list = h('ul', { class: 'check-list' });
    ruling.reasons.forEach((r) => {
      const mark = r.passed === true ? ['ok', '\u2713', 'passed'] : r.passed === false ? ['bad', '\u2717', 'failed'] : ['open', '?', 'not settled'];
      const li = h('li', { class: `check-item ${mark[0]}` },
        h('span', { class: 'mark', role: 'img', 'aria-label': mark[2] }, mark[1]),
        h('div', null, h('p', null, r.explanation), h('p', { class: 'rule-id' }, r.rule)));
      if (r.citations.length) {
        const c = h('details', { class: 'more' }, h('summary', null, `What the text says (${r.citations.length})`));
        r.citations.forEach((x) => c.appendChild(citationBlock(x)));
        li.lastChild.appendChild(c);
      }
      list.appendChild(li);
    });
    all.appendChild(list);
    wrap.appendChild(all);

    const interps = (ruling.interpretations || []).filter((i) => !(ruling.not_stated || []).includes(i.parameter));
    if (interps.length) {
      const box = h('details', { class: 'more' }, h('summary', null, `Where the text needed reading (${interps.length})`));
      interps.forEach((i) => {
        box.appendChild(h('div', { class: 'interp' },
          h('p', null, h('strong', null, paramDescription(ruling.variant, i.parameter)), ' ', h('span', { class: `status ${i.status}` }, statusWord(i.status))),
          i.note ? h('p', { class: 'muted' }, i.note) : null,
          (i.citations || []).slice(0, 1).map(citationBlock)));
      });
      wrap.appendChild(box);
    }
    return wrap;
  }

  function statusWord(status) {
    return { stated: 'stated', interpreted: 'interpreted', not_stated: 'not stated', house_rule: 'house rule' }[status] || status;
  }

  // ==========================================================================================
  // The same question under every variant

  function renderCompare(result, labels) {
    const wrap = h('div', { class: 'compare-body' });
    const rulings = result.results.filter((r) => r.ruling);
    let headline;
    if (!rulings.length) headline = 'No variant can rule on this entry';
    else if (result.agree) headline = `All ${rulings.length === result.results.length ? rulings.length : `${rulings.length} that can rule`} agree: ${VERDICT_WORDS[rulings[0].ruling.verdict]}`;
    else headline = 'The variants disagree';
    wrap.appendChild(h('h3', { class: 'compare-head' }, headline));
    if (result.groups && result.groups.length > 1) {
      wrap.appendChild(h('ul', { class: 'groups' }, result.groups.map((g) => h('li', null,
        h('span', { class: `pill ${g.verdict}` }, VERDICT_WORDS[g.verdict] || g.verdict), ' ', g.variants.join(', ')))));
    }
    // When every variant gives the same reason, say it once above the cards.
    const reasonOf = (entry) => {
      if (!entry.ruling) return null;
      const first = decidingReasons(entry.ruling)[0];
      return first ? first.explanation : entry.ruling.summary;
    };
    const reasons = result.results.map(reasonOf);
    const shared = reasons.length > 1 && reasons.every((r) => r !== null && r === reasons[0]) ? reasons[0] : null;
    if (shared) wrap.appendChild(h('p', { class: 'why-text shared-why' }, shared));
    const grid = h('div', { class: 'compare-grid' });
    result.results.forEach((entry) => {
      const v = A.cache.byId[entry.variant];
      const card = h('article', { class: 'compare-card', 'aria-label': `Ruling under ${entry.variant}` });
      card.appendChild(h('h4', null, entry.variant, v ? h('small', { lang: v.language }, v.name) : null));
      if (entry.ruling) {
        const r = entry.ruling;
        card.classList.add(r.verdict);
        card.appendChild(h('p', { class: 'compare-verdict' }, verdictWord(r)));
        const first = decidingReasons(r)[0];
        if (!shared) card.appendChild(h('p', { class: 'compare-why' }, first ? first.explanation : r.summary));
        const cite = first && first.citations[0];
        if (cite) card.appendChild(citationBlock(cite));
      } else if (entry.problem) {
        card.classList.add('problem-card');
        card.appendChild(h('p', { class: 'compare-verdict' }, 'Cannot rule'));
        const p = entry.problem;
        const errs = (p.errors || []).map((e) => `${capitalise(humanPointer(e.pointer || '', labels))}: ${e.detail}`);
        card.appendChild(h('p', { class: 'compare-why' }, errs.length ? errs.join(' ') : (p.detail || p.title)));
      }
      grid.appendChild(card);
    });
    wrap.appendChild(grid);

    const diffs = result.differences || [];
    if (diffs.length) {
      const box = h('details', { class: 'more differences', open: !result.agree },
        h('summary', null, result.agree ? `Where the texts reach it differently (${diffs.length})` : `Why they differ (${diffs.length})`));
      diffs.forEach((d) => {
        const item = h('div', { class: 'difference' });
        item.appendChild(h('h4', null, d.checks || d.rule || d.item));
        if (d.why) item.appendChild(h('p', { class: 'muted' }, d.why));
        const rows = h('ul', { class: 'diff-rows' });
        (d.variants || []).forEach((x) => {
          const outcome = x.outcome || (x.counted ? 'counted' : 'not counted');
          const li = h('li', { class: `diff-row ${String(outcome).replace(/\s+/g, '-')}` },
            h('p', null, h('strong', null, x.variant), ' ', h('span', { class: 'pill' }, outcome)),
            x.explanation ? h('p', null, x.explanation) : null);
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

  // ==========================================================================================

  function init() {
    // No variant is chosen for the player on a first visit: a ruling under the wrong rules is worse
    // than one more tap. The last choice is remembered.
    const saved = A.recall('cr.variant', null);
    m.variant = saved && (saved === 'all' || A.cache.byId[saved]) ? saved : null;
    renderVariantChoices();
    renderQuestionChoices();
    setVariant(m.variant);
    byId('facts').addEventListener('submit', submit);
  }

  A.views = A.views || {};
  A.views.settle = { init, show() {} };
  A.settle = { model: m, renderCompare, renderRuling, QUESTIONS };
}());
