/* The round being entered: counts or cards per team, who went out. Saved as it is typed. */
import { limitsFor } from './api.js';
import { checkbox, numberField, segmented, stepper } from './controls.js';
import { byId, clear, h } from './dom.js';
import { signed, t } from './i18n.js';
import { CardField, CardForm } from './picker.js';
import { score } from './score-model.js';
import { emit } from './store.js';

const S = score;

let form = null;

function draftChanged() { S.save(); showWarnings(); }

/** The form for a new round, or for correcting round `game.editing`. `onSave` sends it. */
function roundForm(onSave, onCancel) {
  const game = S.game;
  const draft = game.draft;
  const n = game.rounds.length;
  const editing = game.editing;
  const title = editing === null ? t('round.n', { n: n + 1 }) : t('round.correcting', { n: editing + 1 });
  const box = h('form', { class: `round-form${editing !== null ? ' editing' : ''}`, id: 'round-form', novalidate: true,
    'aria-labelledby': 'round-form-title', on: { submit: (e) => { e.preventDefault(); onSave(); } } });
  box.appendChild(h('h3', { id: 'round-form-title' }, title));
  const r = editing === null ? n : editing;
  box.appendChild(h('p', { class: 'muted dealer-of-round' }, t('round.dealtBy', { name: S.seatName(S.dealerOf(r)) })));
  form = new CardForm(draftChanged);
  form.limits = limitsFor(game.variant);
  game.teams.forEach((_, i) => box.appendChild(teamFields(draft, i)));
  const out = h('fieldset', { class: 'block' }, h('legend', null, t('round.goingOut')));
  out.appendChild(segmented(t('round.whoOut'), game.teams.map((_, i) => [i, S.teamName(i)]).concat([[-1, t('round.nobody')]]),
    () => draft.wentOut, (v) => { draft.wentOut = v; draftChanged(); }, { name: 'went-out', id: 'went-out' }));
  out.appendChild(checkbox(t('round.concealed'), () => draft.concealed, (v) => { draft.concealed = v; draftChanged(); },
    { hint: t('round.concealedHint'), id: 'went-out-concealed' }));
  box.appendChild(out);
  box.appendChild(h('div', { id: 'round-warnings', class: 'warnings', role: 'status' }));
  box.appendChild(h('div', { id: 'round-error', class: 'inline-error', role: 'alert', tabindex: '-1', hidden: true }));
  const buttons = h('div', { class: 'row' },
    h('button', { type: 'submit', class: 'primary big', id: 'save-round' }, editing === null ? t('round.save', { n: n + 1 }) : t('round.saveCorrection')));
  if (editing !== null) buttons.appendChild(h('button', { type: 'button', class: 'secondary', id: 'cancel-correction', on: { click: onCancel } }, t('cancel')));
  box.appendChild(buttons);
  form.active = null;
  return box; // drawCards() fills the card fields once the form is in the page
}

function drawCards() { if (form) form.render(); showWarnings(); }

function teamFields(draft, i) {
  const tm = draft.teams[i];
  const game = S.game;
  const members = game.seats.map((_, s) => s).filter((s) => S.seatTeam(s) === i && S.teamCount(game.players) !== game.players);
  const fs = h('fieldset', { class: 'block team-block', id: `team-${i}` }, h('legend', null, S.teamName(i),
    members.length ? h('small', { class: 'members' }, members.map((s) => S.seatName(s)).join(' & ')) : null));
  fs.appendChild(segmented(t('round.enterAs'), [['counts', t('round.counts')], ['cards', t('round.cards')]], () => tm.mode,
    (v) => { tm.mode = v; draftChanged(); emit('score-render'); }, { class: 'mode', name: `mode-${i}` }));
  if (tm.mode === 'counts') {
    fs.appendChild(stepper(t('facts.naturalCanastas'), () => tm.natural, (v) => { tm.natural = v; draftChanged(); }, { max: 15, id: `natural-${i}` }));
    fs.appendChild(stepper(t('facts.mixedCanastas'), () => tm.mixed, (v) => { tm.mixed = v; draftChanged(); }, { max: 15, id: `mixed-${i}` }));
    fs.appendChild(stepper(t('round.redThrees'), () => tm.red3, (v) => { tm.red3 = v; draftChanged(); }, { max: 4, id: `red3-${i}` }));
    fs.appendChild(numberField(t('round.melded'), () => tm.melded, (v) => { tm.melded = v; draftChanged(); },
      { placeholder: '0', hint: t('round.meldedHint'), id: `melded-${i}` }));
    fs.appendChild(numberField(t('round.hand'), () => tm.hand, (v) => { tm.hand = v; draftChanged(); },
      { placeholder: '0', hint: t('round.handHint'), id: `hand-${i}` }));
  } else {
    const melds = h('div', { class: 'meldlist' });
    if (!tm.melds.length) tm.melds = [[]];
    tm.melds.forEach((meld, j) => {
      const f = form.add(new CardField(() => tm.melds[j] || [], (cards) => { tm.melds[j] = cards; },
        { label: `${t('facts.meld')} ${j + 1}`, addLabel: t('facts.addItsCards'), id: `team-${i}-meld-${j}` }));
      melds.appendChild(f.el);
    });
    melds.appendChild(h('button', { type: 'button', class: 'secondary small', on: { click: () => {
      tm.melds = tm.melds.filter((x) => x.length).concat([[]]);
      draftChanged();
      emit('score-render');
    } } }, t('facts.anotherMeld')));
    fs.appendChild(melds);
    fs.appendChild(form.add(new CardField(() => tm.handCards, (cards) => { tm.handCards = cards; }, { label: t('round.handCards'), id: `team-${i}-hand` })).el);
    fs.appendChild(stepper(t('round.redThrees'), () => tm.red3, (v) => { tm.red3 = v; draftChanged(); }, { max: 4, id: `red3-${i}` }));
  }
  S.penaltyKinds().forEach(({ kind, what, points }) => {
    if (!tm.penalties) tm.penalties = {};
    fs.appendChild(stepper(t('round.penalty', { what, points: signed(points) }), () => tm.penalties[kind] || 0,
      (v) => { tm.penalties[kind] = v; draftChanged(); }, { max: 20, id: `penalty-${kind}-${i}` }));
  });
  fs.appendChild(h('div', { class: 'team-warnings', id: `warn-${i}` }));
  return fs;
}

/** Warnings beside the team they concern; the rest under the form. They never block saving. */
function showWarnings() {
  const game = S.game;
  if (!game || !byId('round-warnings')) return;
  const list = S.warnings(game.draft);
  game.teams.forEach((_, i) => {
    const slot = byId(`warn-${i}`);
    if (!slot) return;
    clear(slot);
    list.filter((w) => w.team === i).forEach((w) => slot.appendChild(h('p', { class: 'warning' }, w.text)));
  });
  const rest = clear(byId('round-warnings'));
  list.filter((w) => w.team === null).forEach((w) => rest.appendChild(h('p', { class: 'warning' }, w.text)));
}

export const scoreForm = { roundForm, drawCards };
