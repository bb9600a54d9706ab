/* Open points settled with a tap: where the rule text is silent, ask the table and rule again.
 *
 * The service lists such points in a ruling's `open_points` ({parameter, question, choices})
 * in the reader's language. Until it does, the page asks from `not_stated` (or a score's
 * rule-not-stated problem) with its own question for the parameter and choices from the
 * parameter's type: yes/no, the values an enum accepts, or a number (offering the values the
 * other texts give). The answer becomes a house rule, sent with every later ruling and score.
 */
import { paramInfo, paramWords } from './api.js';
import { fieldError, numberField, parseWhole } from './controls.js';
import { byId, h, nextId } from './dom.js';
import { fmtNumber, t } from './i18n.js';


function hasKey(key) { return t(key) !== key; }

/** The question for a parameter, in words: the page's own where it has one, else the service's
 * ("whether twos are wild", from a variant's detail, kept on the phone for offline use). */
function question(name) {
  if (hasKey(`q.${name}`)) return t(`q.${name}`);
  const words = paramWords(name);
  if (words && /\?$/.test(words.question || '')) return words.question; // the service's own question
  if (words && words.question) return t('q.generic', { what: words.question });
  // Never the matrix's description (an internal sentence, in English): a point left open, in the reader's words.
  return t('q.generic', { what: t('q.unknown') });
}

const isBands = (v) => Array.isArray(v) && v.length > 0 && v.every((b) => b && typeof b === 'object' && 'min' in b);
const isByPlayers = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A house-rule value in words (`players`: the game's player count, for a value given per count). */
function valueLabel(name, value, players) {
  if (typeof value === 'boolean') return t(value ? 'yes' : 'no');
  if (typeof value === 'number') return fmtNumber(value);
  if (typeof value === 'string') return hasKey(`enum.${value}`) ? t(`enum.${value}`) : t('q.other');
  if (value === null) return t('house.noLimit');
  if (isBands(value)) {
    // Each band from its lowest score: "0: 50 · 1 500: 90 · 3 000: 120".
    return value.map((b) => `${fmtNumber(b.min)}: ${b.canasta_required ? (typeof b.points === 'number'
      ? t('opening.pointsAndCanasta', { n: fmtNumber(b.points) }) : t('opening.canasta')) : fmtNumber(b.points)}`).join(' \u00b7 ');
  }
  if (Array.isArray(value)) return value.length ? value.map((v) => valueLabel(name, v, players)).join(', ') : t('house.none');
  if (isByPlayers(value)) {
    const keys = Object.keys(value);
    if (players && String(players) in value) return fmtNumber(value[String(players)]);
    return keys.map((k) => `${t('players.n', { n: Number(k) })}: ${fmtNumber(value[k])}`).join(' \u00b7 ');
  }
  return t('q.other');
}

/** The value a table's answer stands for: a number per player count changes only the game's count. */
function valueFor(name, picked, variant, players) {
  const info = paramInfo(name);
  if (!info || info.type !== 'by_players') return picked;
  const own = info.values[variant] && isByPlayers(info.values[variant].value) ? info.values[variant].value : {};
  const n = isByPlayers(picked) ? picked[String(players)] : picked;
  return Object.assign({}, own, { [String(players || 4)]: n });
}

/** A table's possible answers, from the matrix row: yes/no, the other texts' values, or a typed number. */
function choicesFor(name, exceptVariant, players) {
  const info = paramInfo(name);
  if (!info) return { choices: [], number: false };
  if (info.type === 'bool') return { choices: [true, false].map((v) => ({ value: v, label: valueLabel(name, v) })), number: false };
  const own = info.values[exceptVariant] ? JSON.stringify(valueFor(name, info.values[exceptVariant].value, exceptVariant, players)) : null;
  const seen = new Map();
  Object.entries(info.values).forEach(([vid, cell]) => {
    if (vid === exceptVariant || cell.value === undefined || (cell.value === null && info.type !== 'int_or_null')) return;
    if (info.type === 'by_players' && !(isByPlayers(cell.value) && String(players || 4) in cell.value)) return;
    const value = valueFor(name, cell.value, exceptVariant, players);
    const key = JSON.stringify(value);
    if (key !== own && !seen.has(key)) seen.set(key, value);
  });
  const other = info.type !== 'enum'; // an enum's values are named answers, not copies of a number
  const choices = [...seen.values()].map((v) => ({ value: v, label: valueLabel(name, v, players), other }));
  const number = ['int', 'int_or_null', 'by_players'].includes(info.type);
  return { choices, number };
}

/** The open points of a ruling: the service's list, or the page's own from `not_stated`.
 * The page's own question is asked where it has one ("Are twos wild in your game?" Yes / No);
 * the service's answers and the verdict each gives come with it. */
function pointsOf(ruling) {
  if (Array.isArray(ruling.open_points) && ruling.open_points.length) {
    return ruling.open_points.map((p) => {
      const own = hasKey(`q.${p.parameter}`);
      return { parameter: p.parameter, question: own ? question(p.parameter) : p.question, server: !own,
        choices: (p.choices || []).map((c) => ({ value: c.value, verdict: c.verdict,
          label: own || typeof c.value === 'boolean' ? valueLabel(p.parameter, c.value) : c.label })),
        number: !(p.choices || []).length };
    });
  }
  return pointsFromNames(ruling.not_stated || [], ruling.variant);
}

function pointsFromNames(names, variant, players) {
  return names.map((name) => Object.assign({ parameter: name, question: question(name), make: (v) => valueFor(name, v, variant, players) },
    choicesFor(name, variant, players)))
    .filter((p) => p.choices.length || p.number);
}

/** One question with its answers; `answer(parameter, value)` is called on a tap. */
function pointControl(p, answer) {
  const id = nextId('open');
  const fs = h('fieldset', { class: 'open-point', id: p.id === undefined ? `open-${p.parameter.replace(/\W/g, '-')}` : p.id,
    dataset: p.pointer ? { pointer: p.pointer } : {} },
    h('legend', { dataset: p.server ? { server: '' } : {} }, p.question));
  const row = h('div', { class: 'row answers' });
  p.choices.forEach((c, i) => {
    row.appendChild(h('button', { type: 'button', class: 'secondary answer', dataset: { focus: `${id}-${i}` },
      on: { click: () => answer(p.parameter, c.value) } },
    h('span', { dataset: p.server ? { server: '' } : {} }, c.other ? t('q.likeOthers', { value: c.label }) : c.label),
    c.verdict ? h('span', { class: `pill ${c.verdict}` }, t(`verdict.${c.verdict}`)) : null));
  });
  fs.appendChild(row);
  if (p.number) {
    let typed = '';
    const field = numberField(t('q.number'), () => typed, (v) => { typed = v; }, { negative: true, id: `${id}-n` });
    fs.appendChild(field);
    fs.appendChild(h('button', { type: 'button', class: 'primary small', on: { click: () => {
      const v = parseWhole(typed, null);
      if (v === null || Number.isNaN(v)) { fieldError(`${id}-n`, t('q.numberError')); return; }
      answer(p.parameter, p.make ? p.make(v) : v);
    } } }, t('q.use')));
  }
  return fs;
}

/** The box of open points under a ruling or a score problem; `facts`: of the facts the referee asks instead. */
function openPointsBox(points, answer, facts) {
  const title = nextId('open-title');
  const box = h('section', { class: `open-points${facts ? ' conditions' : ''}`, 'aria-labelledby': title },
    h('h3', { id: title }, t(facts ? 'ruling.needs' : 'open.title')),
    facts ? null : h('p', { class: 'muted' }, t('open.lead')));
  points.forEach((p) => box.appendChild(pointControl(p, answer)));
  return box;
}

/** The table's house rules: each as its question and answer, changeable and removable. */
function houseRulesBox(rules, onSet, onRemove, opts) {
  const names = Object.keys(rules || {});
  if (!names.length) return null;
  const o = opts || {};
  const box = h('section', { class: 'house-rules note-box', id: o.id || null, 'aria-labelledby': `${o.id || 'house'}-title` },
    h('h3', { id: `${o.id || 'house'}-title` }, t('house.title')));
  const list = h('ul', { class: 'house-list' });
  names.forEach((name) => {
    const li = h('li', { class: 'house-rule', dataset: { parameter: name } },
      h('span', { class: 'house-q' }, question(name)), ' ', h('strong', { class: 'house-a' }, valueLabel(name, rules[name], o.players)));
    const change = h('button', { type: 'button', class: 'link', on: { click: () => {
      const p = pointsFromNames([name], o.variant, o.players)[0];
      if (!p) return;
      change.replaceWith(pointControl(p, (param, value) => onSet(param, value)));
    } } }, t('house.change'));
    li.appendChild(h('span', { class: 'house-actions' }, change,
      h('button', { type: 'button', class: 'link', on: { click: () => onRemove(name) } }, t('house.remove'))));
    list.appendChild(li);
  });
  box.appendChild(list);
  box.appendChild(h('p', { class: 'muted' }, t('house.lead')));
  return box;
}

/** A house rule chosen before play, as a list: what the text says first; `set(name, undefined)` goes back to it.
 * `typing` (name -> text) holds a number being typed, so the section drawn again shows it as it was. */
function presetField(name, variant, players, current, set, typing) {
  const id = `house-${name.replace(/\W/g, '-')}`;
  const info = paramInfo(name);
  const cell = info && info.values[variant];
  const p = choicesFor(name, variant, players);
  const stated = cell && cell.status !== 'not_stated' && cell.value !== undefined;
  const options = [['', stated ? t('house.asText', { value: valueLabel(name, valueFor(name, cell.value, variant, players), players) }) : t('house.notSettled')]];
  p.choices.forEach((c) => options.push([JSON.stringify(c.value), c.other ? t('q.likeOthers', { value: c.label }) : c.label]));
  const draft = typedNumber(typing, name, p);
  const picked = draft !== null ? '#' : current === undefined ? '' : JSON.stringify(current);
  if (picked && picked !== '#' && !options.some(([v]) => v === picked)) options.push([picked, valueLabel(name, current, players)]);
  if (p.number) options.push(['#', t('q.number')]);
  // A list whose answers are longer than a phone's width ("0: 50 · 1,500: 90 · 3,000: 120") would show
  // them cut off: those are asked as a column of choices that wrap instead.
  if (options.some(([, label]) => label.length > LIST_FITS)) return presetChoices(name, id, options, picked, p, variant, players, set, typing);
  const select = h('select', { id, class: 'house-select', dataset: { parameter: name } },
    options.map(([v, label]) => h('option', { value: v, selected: v === picked }, label)));
  const numberId = `${id}-n`;
  const field = presetNumber(name, numberId, draft, p, variant, players, set, typing);
  select.addEventListener('change', () => {
    if (field) field.hidden = select.value !== '#';
    if (select.value === '#') { startTyping(typing, name); byId(numberId).focus(); return; }
    if (typing) delete typing[name];
    set(name, select.value === '' ? undefined : JSON.parse(select.value));
  });
  return h('div', { class: 'field house-preset' }, h('label', { for: id }, question(name)), select, field);
}

/** The number being typed for `name` ('' when "a number" is picked and nothing typed), or null. */
function typedNumber(typing, name, p) {
  return p.number && typing && Object.prototype.hasOwnProperty.call(typing, name) ? typing[name] : null;
}

function startTyping(typing, name) {
  if (typing && !Object.prototype.hasOwnProperty.call(typing, name)) typing[name] = '';
}

/** The field a number is typed in (shown only while "a number" is picked): each whole number typed is the rule. */
function presetNumber(name, numberId, draft, p, variant, players, set, typing) {
  if (!p.number) return null;
  let typed = draft || '';
  const field = numberField(t('q.number'), () => typed, (v) => {
    typed = v;
    if (typing) typing[name] = v;
    const n = parseWhole(v, null);
    if (n !== null && !Number.isNaN(n)) set(name, valueFor(name, n, variant, players));
  }, { negative: true, id: numberId });
  field.hidden = draft === null;
  return field;
}

const LIST_FITS = 34; // characters of an answer a closed list shows whole at 390 px

/** A house rule chosen before play, as radio choices that wrap (for answers too long for a list). */
function presetChoices(name, id, options, picked, p, variant, players, set, typing) {
  const numberId = `${id}-n`;
  const field = presetNumber(name, numberId, typedNumber(typing, name, p), p, variant, players, set, typing);
  const fs = h('fieldset', { class: 'field house-preset house-choices', id, dataset: { parameter: name } }, h('legend', null, question(name)));
  options.forEach(([v, label], i) => {
    const inputId = `${id}-${i}`;
    const input = h('input', { type: 'radio', name: id, id: inputId, value: v, checked: v === picked, on: { change: () => {
      if (!input.checked) return;
      if (field) field.hidden = v !== '#';
      if (v === '#') { startTyping(typing, name); byId(numberId).focus(); return; }
      if (typing) delete typing[name];
      set(name, v === '' ? undefined : JSON.parse(v));
    } } });
    fs.appendChild(h('label', { class: 'choice house-choice', for: inputId }, input, h('span', { class: 'choice-title' }, label)));
  });
  if (field) fs.appendChild(field);
  return fs;
}

export const openPoints = { pointsOf, pointsFromNames, openPointsBox, houseRulesBox, presetField, question, valueLabel, valueFor };
