/* Open points settled with a tap: where the rule text is silent, ask the table and rule again.
 *
 * The service lists such points in a ruling's `open_points` ({parameter, question, choices})
 * in the reader's language. Until it does, the page asks from `not_stated` (or a score's
 * rule-not-stated problem) with its own question for the parameter and choices from the
 * parameter's type: yes/no, the values an enum accepts, or a number (offering the values the
 * other texts give). The answer becomes a house rule, sent with every later ruling and score.
 */
import { paramInfo } from './api.js';
import { fieldError, numberField, parseWhole } from './controls.js';
import { h, nextId } from './dom.js';
import { fmtNumber, t } from './i18n.js';


function hasKey(key) { return t(key) !== key; }

/** The question for a parameter, in words. */
function question(name) {
  if (hasKey(`q.${name}`)) return t(`q.${name}`);
  const info = paramInfo(name);
  return t('q.generic', { what: info ? info.description.replace(/\.$/, '') : t('q.unknown') });
}

/** A house-rule value in words. */
function valueLabel(name, value) {
  if (typeof value === 'boolean') return t(value ? 'yes' : 'no');
  if (typeof value === 'number') return fmtNumber(value);
  if (typeof value === 'string') return hasKey(`enum.${value}`) ? t(`enum.${value}`) : t('q.other');
  return t('q.other');
}

/** Values a parameter takes, from its type (the matrix row says it), or null for "type a number". */
function choicesFor(name, exceptVariant) {
  const info = paramInfo(name);
  if (!info) return { choices: [], number: false };
  if (info.type === 'bool') return { choices: [true, false].map((v) => ({ value: v, label: valueLabel(name, v) })), number: false };
  if (info.type === 'enum') {
    const m = /one of:\s*(.+)$/.exec(info.accepts || '');
    const values = m ? m[1].split(/,\s*/).map((x) => x.trim()).filter(Boolean) : [];
    return { choices: values.map((v) => ({ value: v, label: valueLabel(name, v) })), number: false };
  }
  if (info.type === 'int' || info.type === 'int_or_null') {
    // The values the other texts state: a one-tap answer that copies a real rule.
    const seen = new Set();
    Object.entries(info.values).forEach(([vid, cell]) => {
      if (vid !== exceptVariant && typeof cell.value === 'number') seen.add(cell.value);
    });
    return { choices: [...seen].map((v) => ({ value: v, label: fmtNumber(v), other: true })), number: true };
  }
  return { choices: [], number: false };
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

function pointsFromNames(names, variant) {
  return names.map((name) => Object.assign({ parameter: name, question: question(name) }, choicesFor(name, variant)))
    .filter((p) => p.choices.length || p.number);
}

/** One question with its answers; `answer(parameter, value)` is called on a tap. */
function pointControl(p, answer) {
  const id = nextId('open');
  const fs = h('fieldset', { class: 'open-point', id: `open-${p.parameter.replace(/\W/g, '-')}` },
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
      answer(p.parameter, v);
    } } }, t('q.use')));
  }
  return fs;
}

/** The box of open points under a ruling or a score problem. */
function openPointsBox(points, answer) {
  const box = h('section', { class: 'open-points', 'aria-labelledby': 'open-title' },
    h('h3', { id: 'open-title' }, t('open.title')),
    h('p', { class: 'muted' }, t('open.lead')));
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
      h('span', { class: 'house-q' }, question(name)), ' ', h('strong', { class: 'house-a' }, valueLabel(name, rules[name])));
    const change = h('button', { type: 'button', class: 'link', on: { click: () => {
      const p = pointsFromNames([name], o.variant)[0];
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

export const openPoints = { pointsOf, pointsFromNames, openPointsBox, houseRulesBox, question, valueLabel };
