/* The tap was taken: the asking button is busy, and a note stands where the answer will appear, saying the
 * referee is asked (or, without signal, woken on the phone) until the answer takes its place. */
import { clear, h, motion } from './dom.js';
import { engine } from './engine.js';
import { t } from './i18n.js';
import { on } from './store.js';

const shown = new Map(); // note -> the words said while the service is asked

const words = (asking) => t(engine.waking() ? 'busy.waking' : asking);

on('engine-awake', () => shown.forEach((asking, note) => { note.textContent = words(asking); }));

/** Mark `button` busy and say so in `slot`, where the answer will appear (`asking`: the words while the
 *  service is asked), until the returned function is called. */
export function busy(button, slot, asking) {
  const note = h('p', { class: 'busy busy-note', role: 'status', dataset: { busyNote: '' } }, words(asking));
  clear(slot).appendChild(note);
  shown.set(note, asking);
  if (engine.waking()) note.scrollIntoView({ block: 'nearest', behavior: motion() }); // a wait of seconds: in view
  if (button) {
    button.setAttribute('aria-busy', 'true');
    button.classList.add('is-busy');
  }
  return () => {
    if (button) {
      button.removeAttribute('aria-busy');
      button.classList.remove('is-busy');
    }
    shown.delete(note);
    note.remove();
  };
}
