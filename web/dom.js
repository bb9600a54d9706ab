/* Small DOM helpers shared by every view (an ES module: each view imports what it uses).
 *
 * Plain JavaScript modules (served joined by web_api/page.py), no other host: no inline scripts or styles, no eval,
 * so the page runs under a `default-src 'self'` Content-Security-Policy.
 */

/** h('p', {class: 'x', text: 'hi', on: {click: f}}, child, ...) */
function h(tag, attrs) {
  const el = document.createElement(tag);
  const props = attrs || {};
  for (const key of Object.keys(props)) {
    const value = props[key];
    if (value === undefined || value === null || value === false) continue;
    if (key === 'text') el.textContent = value;
    else if (key === 'on') for (const ev of Object.keys(value)) el.addEventListener(ev, value[ev]);
    else if (key === 'class') el.className = value;
    else if (key === 'dataset') Object.assign(el.dataset, value);
    else if (key === 'value') el.value = value;
    else if (key === 'checked' || key === 'disabled' || key === 'hidden' || key === 'selected') el[key] = Boolean(value);
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  for (let i = 2; i < arguments.length; i++) append(el, arguments[i]);
  return el;
}

function append(el, child) {
  if (child === undefined || child === null || child === false) return;
  if (Array.isArray(child)) { child.forEach((c) => append(el, c)); return; }
  el.appendChild(typeof child === 'string' || typeof child === 'number' ? document.createTextNode(String(child)) : child);
}

function clear(el) { while (el.firstChild) el.removeChild(el.firstChild); return el; }
function byId(id) { return document.getElementById(id); }

/** 'smooth' scrolling unless the reader asked for less motion. */
function motion() {
  return window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth';
}

let uid = 0;
function nextId(prefix) { uid += 1; return `${prefix}-${uid}`; }

/**
 * Re-render without losing the reader's place: the focused element is found again after
 * `render()` by its data-focus key (buttons of the picker, steppers...) and focused.
 */
function keepFocus(render) {
  const active = document.activeElement;
  const key = active && active.dataset ? active.dataset.focus : null;
  render();
  if (!key) return;
  const again = document.querySelector(`[data-focus="${CSS.escape(key)}"]`);
  if (again && !again.disabled) again.focus({ preventScroll: true });
  else if (again) {
    // A button that just became disabled (the last copy used): stay in its group.
    const group = again.closest('[role=group]');
    const next = group && group.querySelector('button:not([disabled])');
    if (next) next.focus({ preventScroll: true });
  }
}

/** Show an error next to what caused it, and take the reader there. */
function showError(slot, message, focusTarget) {
  slot.textContent = message;
  slot.hidden = false;
  const target = focusTarget || slot;
  if (target === slot && !slot.hasAttribute('tabindex')) slot.setAttribute('tabindex', '-1');
  slot.scrollIntoView({ block: 'center', behavior: motion() });
  target.focus({ preventScroll: true });
}

function store(key, value) {
  try { localStorage.setItem(key, JSON.stringify(value)); } catch (e) { /* private mode or full: keep going */ }
}
function recall(key, fallback) {
  try {
    const raw = localStorage.getItem(key);
    return raw === null ? fallback : JSON.parse(raw);
  } catch (e) { return fallback; }
}
function copy(x) { return JSON.parse(JSON.stringify(x)); }

export { h, append, clear, byId, motion, nextId, keepFocus, showError, store, recall, copy };
