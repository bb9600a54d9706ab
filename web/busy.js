/* The tap was taken: the asking button is busy and a note in its action bar, where the finger is,
 * says the referee is asked (or, without signal, woken on the phone) until the answer is in. */
import { h } from './dom.js';
import { engine } from './engine.js';
import { t } from './i18n.js';
import { net, on } from './store.js';

const shown = new Set();

function words() {
  return net.engine === 'ready' && !engine.isAwake() && (!navigator.onLine || !net.reachable)
    ? t('busy.waking') : t('busy.asking');
}

on('engine-awake', () => shown.forEach((note) => { note.textContent = words(); }));

/** Mark `button` busy until the returned function is called. */
export function busy(button) {
  if (!button) return () => {};
  button.setAttribute('aria-busy', 'true');
  button.classList.add('is-busy');
  const bar = button.closest('.actionbar') || button.parentElement;
  const note = h('p', { class: 'busy-note', role: 'status', dataset: { busyNote: '' } }, words());
  bar.prepend(note);
  shown.add(note);
  return () => {
    button.removeAttribute('aria-busy');
    button.classList.remove('is-busy');
    shown.delete(note);
    note.remove();
  };
}
