/* A link opened on this phone (web/link.js): a question is filled in and ruled here, a game is offered to
 * continue. Online the service rules it, offline the phone's own engine; without either yet the page says
 * so and rules it as soon as one is there. A link that cannot be read changes nothing and says why.
 */
import { cache, isOffline, variantName } from './api.js';
import { byId, clear, h, recall } from './dom.js';
import { engine } from './engine.js';
import { i18n, t } from './i18n.js';
import { gameLink } from './game-link.js';
import { links } from './link.js';
import { ruling } from './ruling.js';
import { score as S } from './score-model.js';
import { emit, on, settleFacts } from './store.js';
import { view as settle } from './settle.js';

let pending = null; // a question that waits for a connection or the engine

/** A box of this module's own, at the top of a view (made once, emptied for each link). */
function slot(id, viewId, before) {
  let box = byId(id);
  if (!box) {
    box = h('div', { id, class: 'note-box received', 'aria-live': 'polite' });
    const view = byId(viewId);
    view.insertBefore(box, before ? byId(before) : view.querySelector('.lead').nextSibling);
  }
  box.hidden = false;
  return clear(box);
}

const dismiss = (box) => h('button', { type: 'button', class: 'link', on: { click: () => { box.hidden = true; } } }, t('close'));

/** Why a link cannot be opened; nothing on the phone was touched. */
function refuse(code) {
  location.hash = '#settle';
  const box = slot('link-problem', 'view-settle');
  box.className = 'problem link-problem';
  box.setAttribute('role', 'alert');
  box.append(h('p', { class: 'problem-title' }, t('link.bad.title')), h('p', null, t(`link.bad.${code}`)),
    h('p', { class: 'muted' }, t('link.bad.nothing')), dismiss(box));
  box.scrollIntoView({ block: 'start' });
}

/** Variants whose rules here are another version than the sender's. */
function otherRules(d) {
  return Object.entries(d.rules || {}).filter(([id, v]) => cache.byId[id] && cache.byId[id].rules_version && cache.byId[id].rules_version !== v)
    .map(([id]) => id);
}

function rulesNotes(d) {
  return otherRules(d).map((id) => h('p', { class: 'rules-differ', dataset: { variant: id } }, t('received.rules', { name: variantName(id) })));
}

/** Rule a question: on the form when the form asks exactly it, else as it was sent. */
function rule(d) {
  const box = byId('received');
  const asSent = box && box.querySelector('.as-sent');
  if (asSent) asSent.remove();
  if (settle.askSent(d)) return;
  if (box) box.appendChild(h('p', { class: 'as-sent' }, t('received.asSent')));
  const body = { situation: d.situation };
  if (d.action) body.action = d.action;
  if (d.house_rules) body.house_rules = d.house_rules;
  const ctx = { question: (d.action && d.action.type) || 'options', fields: {}, facts: JSON.stringify(settleFacts) };
  if (d.ask === 'options') ruling.options(Object.assign({ variant: d.variant }, body), {}, ctx);
  else ruling.ask(d.ask === 'compare' ? 'all' : d.variant, body, {}, ctx);
}

/** A question: shown as sent to this phone, filled in and ruled. `kept`: one of the game's disputes, opened again. */
function question(d, kept) {
  location.hash = '#settle';
  const box = slot('received', 'view-settle');
  box.append(h('p', null, h('strong', null, t(kept ? 'received.kept' : 'received.title'))), ...rulesNotes(d));
  pending = d;
  waitingNote();
  rule(d);
}

/**
 * The note under a question that waits: there while it waits without a connection and without the engine, said
 * when that changes -- not only when the link is read (a phone that seems online finds the service gone only when
 * the question is asked; the signal goes while the link is open).
 */
function waitingNote() {
  const box = byId('received');
  if (!box) return;
  const note = box.querySelector('.waiting');
  const waits = pending !== null && isOffline() && !engine.ready();
  if (waits && !note) {
    box.insertBefore(h('p', { class: 'waiting' }, t('received.waiting')), box.querySelector('.as-sent'));
  } else if (!waits && note) note.remove();
}

/** A game: offered to continue here -- never in place of the game in progress without asking. */
function offerGame(d) {
  const game = gameLink.gameOf(d);
  if (!game) { refuse('malformed'); return; }
  location.hash = '#score';
  const box = slot('game-offer', 'view-score', 'score-root');
  const names = game.teams.map((tm, i) => tm.name || t(`team.default.${i}`)).join(' \u00b7 ');
  box.append(h('h3', null, t('offer.title')),
    h('p', null, h('strong', { dataset: { server: '' } }, variantName(game.variant)), ` \u00b7 ${names} \u00b7 ${t('offer.rounds', { n: game.rounds.length })}`),
    ...rulesNotes(d));
  const take = () => { S.adopt(game); box.hidden = true; emit('score-render'); emit('connection-back'); };
  const button = (id, cls, key, click) => h('button', { type: 'button', class: cls, id, on: { click } }, t(key));
  if (S.game) {
    box.append(h('p', null, t('offer.replace', { n: S.game.rounds.length })), h('div', { class: 'row' },
      button('offer-save-here', 'secondary', 'offer.saveHere', (e) => gameLink.download(S.game, e.target)),
      button('offer-replace', 'danger', 'offer.replaceYes', take),
      button('offer-keep', 'secondary', 'offer.keep', () => { box.hidden = true; })));
  } else {
    box.append(h('div', { class: 'row' }, button('offer-continue', 'primary', 'offer.continue', take),
      button('offer-keep', 'secondary', 'offer.notNow', () => { box.hidden = true; })));
  }
  box.scrollIntoView({ block: 'start' });
}

/** What a link carried: {document} or {problem}. Read before the page's words, so it can choose them. */
async function read(text) {
  try {
    return { document: await links.decode(text) };
  } catch (e) {
    if (!(e instanceof links.LinkError)) throw e;
    return { problem: e.code };
  }
}

/** The sender's language, unless the reader chose one on this phone. */
function language(sent) {
  const d = sent && sent.document;
  if (d && d.lang && !recall('cr.lang', null)) i18n.setLang(d.lang, false);
}

/** Act on what a link carried (the views are up). The address loses the link: a reload does not open it again. */
function act(sent) {
  history.replaceState(null, '', location.pathname + location.search);
  if (sent.problem) { refuse(sent.problem); return; }
  const d = sent.document;
  const named = d.kind === 'game' ? [d.game.variant] : d.ask === 'compare' ? [] : [d.variant];
  if (named.some((id) => !cache.byId[id])) { refuse('unknown-variant'); return; }
  if (d.kind === 'game') offerGame(d); else question(d, false);
}

/** A link opened while the page is open (only the address's fragment changed). */
async function opened(text) {
  const sent = await read(text);
  language(sent);
  act(sent);
}

function retry() {
  if (!pending) return;
  waitingNote();
  rule(pending);
}

on('answered', () => { pending = null; waitingNote(); });
on('reach', (ok) => { if (ok) retry(); else waitingNote(); });
on('engine', (state) => { if (state === 'ready' && isOffline()) retry(); else waitingNote(); });
window.addEventListener('offline', waitingNote);
on('ask-sent', (d) => question(d, true));
on('link-read', act); // a saved game (or question) opened from a file (web/game-link.js)

export const received = { isLink: links.isLink, read, language, act, opened };
