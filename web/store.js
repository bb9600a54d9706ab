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
 */
const bus = new EventTarget();

export const net = { reachable: true, engine: 'absent' };

export function emit(name, detail) { bus.dispatchEvent(new CustomEvent(name, { detail })); }

export function on(name, listener) { bus.addEventListener(name, (event) => listener(event.detail)); }
