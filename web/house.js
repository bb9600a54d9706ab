/* House rules chosen at setup: the points the variant's text leaves open (its not_stated cells in
 * the matrix) and choices tables often make. Values, words and `overridable` are the service's. */
import { cache, overridable, variantDetail } from './api.js';
import { h } from './dom.js';
import { t } from './i18n.js';
import { openPoints } from './openpoints.js';

// Choices a table often makes itself (names only: their values and words come from the service).
const TABLE_CHOICES = ['game.target', 'opening.bands', 'opening.negative', 'meld.max_wilds', 'score.going_out',
  'score.concealed_extra', 'score.natural_canasta', 'score.mixed_canasta', 'score.red_three'];

const mayOverride = (variant, name) => overridable(variant, name) !== false;

// What the player is typing as a number (name -> the text; '' once "a number" is picked and nothing typed yet),
// kept with the rules it is for: a redraw (the variant's words arriving) keeps the choice, the field and the text.
const typingOf = new WeakMap();

/** The parameters the variant's text leaves open (a house rule settles them). */
function openNames(variant) {
  if (!cache.matrix) return [];
  return cache.matrix.rows.filter((r) => r.values[variant] && r.values[variant].status === 'not_stated' && mayOverride(variant, r.parameter))
    .map((r) => r.parameter);
}

/** Common table choices the variant states (its open points are asked above them). */
function tableNames(variant) {
  const open = new Set(openNames(variant));
  return TABLE_CHOICES.filter((name) => cache.rowOf && cache.rowOf[name] && !open.has(name) && mayOverride(variant, name));
}

/**
 * The setup's house-rule section, folded: `rules` (name -> value) is changed in place by `set`;
 * `redraw` draws the section again once the variant's words arrive (a number being typed stays as it was).
 */
function setupSection(variant, players, rules, redraw) {
  const chosen = Object.keys(rules).length;
  if (!typingOf.has(rules)) typingOf.set(rules, {});
  const typing = typingOf.get(rules);
  const box = h('details', { class: 'more house-setup', id: 'setup-house', open: chosen > 0 },
    h('summary', null, chosen ? t('house.setupChosen', { n: chosen }) : t('house.setup')));
  if (!variant || !cache.matrix) {
    box.appendChild(h('p', { class: 'muted' }, variant ? t('house.loading') : t('house.chooseFirst')));
    return box;
  }
  if (!cache.overridable[variant]) variantDetail(variant).then(redraw, () => { /* offline and not kept: the matrix's words stay */ });
  const set = (name, value) => {
    if (value === undefined) delete rules[name];
    else rules[name] = value;
    box.querySelector('summary').textContent = Object.keys(rules).length ? t('house.setupChosen', { n: Object.keys(rules).length }) : t('house.setup');
  };
  box.appendChild(h('p', { class: 'muted' }, t('house.setupLead')));
  const group = (title, names, id) => {
    if (!names.length) return;
    box.appendChild(h('h3', { class: 'house-group', id }, title));
    names.forEach((name) => box.appendChild(openPoints.presetField(name, variant, players, rules[name], set, typing)));
  };
  // Only points a table can answer here (an enum no text gives a value of is asked when it arises).
  const answerable = (names) => names.filter((name) => openPoints.pointsFromNames([name], variant, players).length);
  group(t('house.openGroup'), answerable(openNames(variant)), 'house-open');
  group(t('house.tableGroup'), answerable(tableNames(variant)), 'house-table');
  return box;
}

export const house = { openNames, tableNames, setupSection };
