/* The card picker: one tap per card, one more for "how many of those".
 *
 * A CardField holds a list of cards. Only one field of a form is open at a time; the open one
 * shows the kinds (ace to four, two, red three, black three, joker). A tap adds one card of
 * that kind; the row "×2 ×3 …" under it then sets how many of that kind the field holds, so
 * three kings are two taps and a canasta of kings too. Kinds the deck has no copy left of are
 * disabled. Tapping a chosen group removes one card of it. Focus stays where the finger was.
 */
import { JOKER, KINDS, countCards, freeCards, groups, kindCopies, kindName, kindOf, kindShort, kindUsed, kindWords } from './cards.js';
import { clear, h, keepFocus, motion, nextId } from './dom.js';
import { t } from './i18n.js';

const MAX_COUNT = 8; // two decks hold eight of a rank

class CardForm {
  constructor(onChange) {
    this.fields = [];
    this.active = null;
    this.onChange = onChange;
    this.limits = { decks: 2, jokers: 4 };
    this.extraCards = () => [];
  }

  add(field) { field.form = this; this.fields.push(field); return field; }

  counts() {
    const all = [];
    this.fields.forEach((f) => { if (f.attached()) all.push(...f.cards()); });
    all.push(...this.extraCards());
    return countCards(all);
  }

  /** Copies in use outside `field` (a single-card field replaces its card). */
  countsExcept(field) {
    const all = [];
    this.fields.forEach((f) => { if (f !== field && f.attached()) all.push(...f.cards()); });
    all.push(...this.extraCards());
    return countCards(all);
  }

  open(field) {
    this.active = field;
    this.fields.forEach((f) => { if (f !== field) f.lastKind = null; });
    this.render();
    const first = field.el.querySelector('.kinds button:not([disabled])');
    if (first) first.focus({ preventScroll: true });
  }

  close() { this.active = null; this.render(); }

  /** Move to the next field after `field` that takes cards (after a single-card field is filled). */
  advance(field) {
    const list = this.fields.filter((f) => f.attached());
    const next = list.slice(list.indexOf(field) + 1).find((f) => f.cards().length < f.max);
    this.active = next || null;
  }

  changed() { keepFocus(() => this.render()); if (this.onChange) this.onChange(); }
  render() { this.fields.forEach((f) => { if (f.attached()) f.render(); }); }
}

class CardField {
  /** get/set read and write the list of cards in the model; opts: label, hint, max (default 40), addLabel, id. */
  constructor(get, set, opts) {
    this.get = get;
    this.set = set;
    this.max = opts.max || 40;
    this.label = opts.label;
    this.hint = opts.hint;
    this.addLabel = opts.addLabel;
    this.lastKind = null;
    this.id = opts.id || nextId('cards');
    this.el = h('div', { class: 'cardfield', id: this.id, role: 'group', 'aria-labelledby': `${this.id}-label` });
    this.form = null;
  }

  attached() { return this.el.isConnected; }
  cards() { return this.get() || []; }

  render() {
    const cards = this.cards();
    const open = this.form.active === this && (cards.length < this.max || this.lastKind);
    clear(this.el);
    this.el.classList.toggle('open', Boolean(open));
    this.el.appendChild(h('div', { class: 'cf-label', id: `${this.id}-label` }, this.label));
    if (this.hint) this.el.appendChild(h('div', { class: 'cf-hint' }, this.hint));
    const chips = h('div', { class: 'chips' });
    groups(cards).forEach((g) => {
      const n = g.cards.length;
      chips.appendChild(h('button', {
        type: 'button', class: `chip${g.kind === 'R3' ? ' red' : ''}${g.kind === JOKER ? ' joker' : ''}`,
        'aria-label': t('chip.remove', { cards: kindWords(g.kind, n) }), dataset: { focus: `${this.id}-chip-${g.kind}` },
        on: { click: () => this.removeOne(g.kind) },
      }, h('span', { 'aria-hidden': 'true' }, `${kindShort(g.kind)}${n > 1 ? ` \u00d7${n}` : ''}`),
      h('span', { class: 'x', 'aria-hidden': 'true' }, '\u2212')));
    });
    if (!open && cards.length < this.max) {
      chips.appendChild(h('button', { type: 'button', class: 'chip add', dataset: { focus: `${this.id}-add` }, on: { click: () => this.form.open(this) } },
        `+ ${cards.length ? t(this.max === 1 ? 'picker.change' : 'picker.more') : (this.addLabel || t(this.max === 1 ? 'picker.choose' : 'picker.add'))}`));
    }
    this.el.appendChild(chips);
    if (open) this.el.appendChild(this.picker());
  }

  picker() {
    const counts = this.form.counts();
    const limits = this.form.limits;
    const mine = countCards(this.cards());
    const box = h('div', { class: 'picker' });
    const kinds = h('div', { class: 'kinds', role: 'group', 'aria-label': t('picker.kinds') });
    KINDS.forEach((k) => {
      const left = kindUsed(k, counts) < kindCopies(k, limits);
      const cls = `kind${k === 'R3' ? ' red' : ''}${k === JOKER ? ' joker' : ''}${this.lastKind === k ? ' chosen' : ''}`;
      kinds.appendChild(h('button', {
        type: 'button', class: cls, disabled: !left || this.cards().length >= this.max,
        'aria-label': left ? kindName(k) : t('picker.noneLeft', { kind: kindName(k) }),
        dataset: { focus: `${this.id}-k-${k}`, kind: k }, on: { click: () => this.choose(k) },
      }, kindShort(k)));
    });
    box.appendChild(kinds);
    if (this.lastKind && this.max > 1) {
      const k = this.lastKind;
      const have = kindUsed(k, mine);
      const free = kindCopies(k, limits) - kindUsed(k, counts);
      const top = Math.min(MAX_COUNT, have + free, this.max - this.cards().length + have);
      const row = h('div', { class: 'counts', role: 'group', 'aria-label': t('picker.howMany', { kind: kindName(k) }) },
        h('span', { class: 'counts-label', 'aria-hidden': 'true' }, kindShort(k)));
      for (let n = 1; n <= Math.max(top, have); n++) {
        row.appendChild(h('button', { type: 'button', class: `count${n === have ? ' chosen' : ''}`, 'aria-pressed': n === have ? 'true' : 'false',
          'aria-label': kindWords(k, n), dataset: { focus: `${this.id}-n-${n}` }, on: { click: () => this.setCount(k, n) } }, `\u00d7${n}`));
      }
      box.appendChild(row);
    }
    box.appendChild(h('div', { class: 'picker-foot' },
      h('p', { class: 'picker-help' }, t(this.max === 1 ? 'picker.help1' : 'picker.help')),
      h('button', { type: 'button', class: 'secondary small done', dataset: { focus: `${this.id}-done` }, on: { click: () => { this.lastKind = null; this.form.close(); } } }, t('picker.done'))));
    return box;
  }

  choose(kind) {
    const counts = this.form.counts();
    if (this.max === 1) {
      const got = freeCards(kind, 1, this.form.countsExcept(this), this.form.limits);
      if (!got) return;
      this.set(got);
      this.lastKind = null;
      this.form.advance(this);
      this.form.changed();
      if (this.attached() && this.form.active && this.form.active !== this) {
        this.form.active.el.scrollIntoView({ block: 'nearest', behavior: motion() });
        const first = this.form.active.el.querySelector('.kinds button:not([disabled])');
        if (first) first.focus({ preventScroll: true });
      }
      return;
    }
    const got = freeCards(kind, 1, counts, this.form.limits);
    if (!got) return;
    this.set(this.cards().concat(got));
    this.lastKind = kind;
    this.form.changed();
  }

  /** Make this field hold exactly n cards of `kind`. */
  setCount(kind, n) {
    const cards = this.cards().slice();
    const have = cards.filter((c) => kindOf(c) === kind).length;
    if (n > have) {
      const got = freeCards(kind, n - have, this.form.counts(), this.form.limits);
      if (!got) return;
      this.set(cards.concat(got));
    } else {
      for (let i = have - n; i > 0; i--) cards.splice(cards.map(kindOf).lastIndexOf(kind), 1);
      this.set(cards);
    }
    this.form.changed();
  }

  removeOne(kind) {
    const cards = this.cards().slice();
    const at = cards.map(kindOf).lastIndexOf(kind);
    if (at < 0) return;
    cards.splice(at, 1);
    this.set(cards);
    this.form.active = this;
    this.lastKind = cards.some((c) => kindOf(c) === kind) ? kind : null;
    this.form.changed();
  }
}

export { CardForm, CardField };
