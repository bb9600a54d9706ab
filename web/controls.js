/* Small form controls: stepper, check box, number entry, segmented radios. Touch targets 44 px or more. */
import { byId, h, nextId, showError } from './dom.js';
import { t } from './i18n.js';


function stepper(label, get, set, opts) {
  const o = opts || {};
  const id = o.id || nextId('step');
  const min = o.min === undefined ? 0 : o.min;
  const max = o.max === undefined ? 99 : o.max;
  const out = h('output', { class: 'step-value', id: `${id}-v`, 'aria-live': 'polite' }, String(get()));
  const update = (d) => {
    const v = Math.max(min, Math.min(max, get() + d));
    set(v);
    out.textContent = String(v);
    minus.disabled = v <= min;
    plus.disabled = v >= max;
  };
  const minus = h('button', { type: 'button', class: 'step', 'aria-label': t('step.fewer', { label }), dataset: { focus: `${id}-minus` }, on: { click: () => update(-1) } }, '\u2212');
  const plus = h('button', { type: 'button', class: 'step', 'aria-label': t('step.more', { label }), dataset: { focus: `${id}-plus` }, on: { click: () => update(1) } }, '+');
  minus.disabled = get() <= min;
  plus.disabled = get() >= max;
  return h('div', { class: 'stepper-row', role: 'group', 'aria-labelledby': `${id}-l`, id },
    h('span', { class: 'step-label', id: `${id}-l` }, label), h('div', { class: 'stepper' }, minus, out, plus));
}

function checkbox(label, get, set, opts) {
  const o = opts || {};
  const id = o.id || nextId('chk');
  const input = h('input', { type: 'checkbox', id, checked: get(), on: { change: () => set(input.checked) } });
  return h('label', { class: `check${o.class ? ` ${o.class}` : ''}`, for: id }, input, h('span', null, label,
    o.hint ? h('small', null, o.hint) : null));
}

/**
 * A whole number on the numeric keypad. Phones' numeric keypads have no minus key, so a
 * field that may be negative gets a ± button beside it. `needed` marks a field the question
 * cannot do without. An error about the field is shown right under it (see fieldError).
 */
function numberField(label, get, set, opts) {
  const o = opts || {};
  const id = o.id || nextId('num');
  const input = h('input', {
    type: 'text', inputmode: 'numeric', id, class: 'num', pattern: '[0-9]*', autocomplete: 'off', enterkeyhint: 'done',
    value: get() === '' || get() === null || get() === undefined ? '' : String(get()).replace(/^-/, ''),
    placeholder: o.placeholder || '', 'aria-describedby': `${id}-error${o.hint ? ` ${id}-hint` : ''}`,
    'aria-required': o.needed ? 'true' : null,
    on: { input: () => commit() },
  });
  let negative = String(get() || '').trim().startsWith('-');
  const sign = o.negative ? h('button', { type: 'button', class: 'sign', 'aria-pressed': negative ? 'true' : 'false',
    'aria-label': t('num.minus'), dataset: { focus: `${id}-sign` },
    on: { click: () => { negative = !negative; sign.setAttribute('aria-pressed', negative ? 'true' : 'false'); sign.textContent = signWords(negative); commit(); } } },
  signWords(negative)) : null;
  function commit() {
    const raw = input.value.trim(); // kept as typed; parseWhole judges it when the form is sent
    set(raw === '' ? '' : `${negative ? '-' : ''}${raw}`);
  }
  const labelEl = h('label', { for: id }, label,
    o.needed ? h('span', { class: 'needed' }, ` ${t('field.needed')}`) : null);
  return h('div', { class: `field${o.needed ? ' is-needed' : ''}` }, labelEl,
    o.hint ? h('small', { id: `${id}-hint` }, o.hint) : null,
    h('div', { class: 'num-row' }, sign, input),
    h('p', { class: 'inline-error field-error', id: `${id}-error`, role: 'alert', hidden: true }));
}

/** Show `message` under the field with input id `id`, and put the cursor there. */
function fieldError(id, message) {
  const slot = byId(`${id}-error`);
  const input = byId(id);
  if (!slot || !input) return false;
  input.setAttribute('aria-invalid', 'true');
  showError(slot, message, input);
  return true;
}

/** Radio buttons drawn as a row of segments. */
function segmented(legend, options, get, set, opts) {
  const o = opts || {};
  const name = o.name || nextId('seg');
  const fs = h('fieldset', { class: `segmented${o.class ? ` ${o.class}` : ''}`, id: o.id || null }, h('legend', null, legend));
  const row = h('div', { class: 'segments' });
  options.forEach(([value, text]) => {
    const id = `${name}-${String(value).replace(/\W/g, '_')}`;
    const input = h('input', { type: 'radio', name, id, value: String(value), checked: get() === value,
      on: { change: () => { if (input.checked) set(value); } } });
    row.appendChild(h('label', { class: 'segment', for: id }, input, h('span', null, text)));
  });
  fs.appendChild(row);
  return fs;
}

/** The minus toggle's visible words: what it does, and a tick when it is on (never a bare "+"). */
function signWords(negative) { return `${negative ? '\u2713 ' : ''}${t('num.minusShort')}`; }

/** A whole number from a text entry: '' gives `empty`, junk gives NaN. */
function parseWhole(text, empty) {
  const s = String(text === undefined || text === null ? '' : text).replace(/[\s\u00a0\u202f.,]/g, '').replace('\u2212', '-');
  if (s === '' || s === '-') return empty;
  return /^-?\d+$/.test(s) ? Number(s) : NaN;
}

export { stepper, checkbox, numberField, fieldError, segmented, parseWhole };
