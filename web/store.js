/* The page's shared state, in one small store: what the connection and the offline engine are
 * doing, and news between the parts of the page (a module that must tell another one something
 * emits an event here instead of importing it: the imports run one way, from the views down).
 *
 *   net.reachable   the service answered the last time the page asked (api.js)
 *   net.engine      the offline engine: absent | waiting | ask | keeping | ready | failed (engine.js)
 *
 *   'reach'          the service was reached (detail true) or not (false)
 *   'engine'         the engine's state changed (detail: the new state)
 *   'data-changed'   rule data (the matrix) arrived: views that use it redraw
 *   'connection-back'  the service answers again: rounds waiting to be checked are sent
 *   'score-render'   the round form changed shape: the score view redraws
 *
 * and the views' own state: settleFacts (the Settle tab's, as typed), scoreView (the Score tab's but the game).
 */
import { recall } from './dom.js';

const bus = new EventTarget();

export const net = { reachable: true, engine: 'absent' };

export function emit(name, detail) { bus.dispatchEvent(new CustomEvent(name, { detail })); }

export function on(name, listener) { bus.addEventListener(name, (event) => listener(event.detail)); }

// ---- the Settle tab --------------------------------------------------------------------------

export const SETTLE_KEY = 'cr.settle';

export function blankFacts() {
  // Nothing starts said (#42): a choice left untouched is not sent; `said`: what was told the referee under a ruling.
  return {
    question: 'take_pile', players: null, score: '', house: {},
    take: { top: [], wild: false, red3: false, black3: false, with: [], melds: [[]], table: [[]], said: {} },
    meld: { melds: [[]], add: [], addTo: '', table: [[]], said: {}, left: null },
    open: { melds: [[]], left: null, said: {} },
    out: { melds: [[]], add: [], addTo: '', discard: [], table: [[]], said: {}, concealed: false },
    discard: { card: [], left: null, said: {} },
    // "What may I do?": its own short form -- my hand, what the table shows, where I am in the turn.
    options: { hand: [], top: [], wild: false, red3: false, black3: false, table: [[]], said: {}, stock: '', turn: null },
  };
}

const kept = recall(SETTLE_KEY, {});
// Kept by a page before #42, whose choices started with a value: which were tapped cannot be told, so none is kept.
if (kept.take && !kept.take.said) {
  delete kept.players;
  ['meld', 'open', 'discard'].forEach((k) => { if (kept[k]) delete kept[k].left; });
  if (kept.options) delete kept.options.turn;
}
// Facts kept by an older page may lack a newer form's part: each part starts blank and takes what was kept.
export const settleFacts = Object.assign(blankFacts(), kept, { variant: null });
Object.entries(blankFacts()).forEach(([k, v]) => {
  if (v && typeof v === 'object' && !Array.isArray(v)) settleFacts[k] = Object.assign(v, kept[k] || {});
});

// ---- the Score tab ---------------------------------------------------------------------------

export const scoreView = {
  setup: { variant: null, players: 4, teams: ['', '', ''], seats: ['', '', '', '', '', ''], firstDealer: 0, house: {} },
  expanded: null, // the round whose lines are shown
  confirming: null, // 'new' | 'undo' | {delete: r}
  notice: null, // what the last action did
  roundProblem: null, // why the round just saved went back into the form
  sharing: false,
};
