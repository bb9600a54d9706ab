/* "Send" under every answer, and the way anything is sent: a question or a game as a link and its QR code,
 * or a game as a file. What writes them (web/share.js) and the QR encoder load only when asked; the
 * service worker keeps them from then on.
 */
import { cache } from './api.js';
import { h } from './dom.js';
import { i18n, t } from './i18n.js';
import { links } from './link.js';
import { on } from './store.js';

const lazy = (name) => { const meta = document.querySelector(`meta[name="module:${name}"]`); return meta && meta.content; };

/** Which rules version of each variant the question is asked under (GET /v1/variants): the other phone compares. */
function rulesOf(ids) {
  const out = {};
  ids.forEach((id) => { const v = cache.byId[id]; if (v && v.rules_version) out[id] = v.rules_version; });
  return Object.keys(out).length ? out : undefined;
}

/** The question document of an answer the page gave: the request it sent, its language and rules. */
function questionOf(kind, body, form) {
  const d = { kind: 'question', ask: kind, lang: i18n.lang };
  if (kind !== 'compare') d.variant = body.variant;
  d.situation = body.situation;
  if (kind !== 'options') d.action = body.action;
  if (body.house_rules && Object.keys(body.house_rules).length) d.house_rules = body.house_rules;
  if (form) d.form = form;
  d.rules = rulesOf(kind === 'compare' ? cache.variants.map((v) => v.id) : [body.variant]);
  return d;
}

/** The writer (web/share.js), or null: never loaded and no connection (the button then says so). */
async function writer(button) {
  try { return await import(lazy('share')); } catch (e) {
    if (button) button.after(h('p', { class: 'muted', role: 'status' }, t('send.offline')));
    return null;
  }
}

/** Open the send sheet for `document` (the opener gets the focus back). */
async function send(document, title, what, opener) {
  const words = { close: t('close'), copy: t('send.copy'), copied: t('share.copied'), selectCopy: t('share.selectCopy'),
    share: t('send.share'), qr: t('send.qr'), linkLabel: t('send.link'), noQr: t('send.noQr') };
  const sheet = await writer(opener);
  if (sheet) await sheet.open({ document: links.check(document), title, what, words, qrModule: lazy('qr'), opener });
}

function sendButton(id, label, onClick) {
  const button = h('button', { type: 'button', class: 'secondary send', id, on: { click: () => onClick(button) } }, label);
  return button;
}

/** An answer was shown (ruling.js): it gets its Send, which sends the question it answered. */
function answered(a) {
  const document = questionOf(a.kind, a.body, a.ctx.form);
  const button = sendButton(`send-${a.kind}`, t('send.button'), (b) => send(document, t(`send.title.${a.kind}`), t(`q.${a.ctx.question}`), b));
  const bar = a.box.querySelector('.actionbar.inline');
  if (bar) bar.appendChild(button);
  else {
    const head = a.box.querySelector('.compare-head');
    if (head) head.after(h('div', { class: 'actionbar inline' }, button));
  }
}

on('answered', answered);

export const sending = { send, writer, questionOf, rulesOf };
