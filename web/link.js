/* Links that carry a question or a game to another phone: the page's reader of the format (docs/links.md),
 * part of the first visit, so a phone opens a link without signal. Its writer is in web/share.js, loaded
 * when a Send is tapped. The library (adjudicator/link.py) reads and writes the same bytes.
 *
 * A link is the page's address and a fragment `#cr1.<data>`: the document as UTF-8 JSON, compressed with
 * raw DEFLATE (the browser's CompressionStream('deflate-raw'); Python's zlib with wbits -15) and written in
 * base64url without padding. A fragment never reaches the server. What is checked here is the envelope
 * (version, kind, the members' types); the referee checks the play when the question is ruled.
 */

const VERSION = 1;
const MAX_LINK = 8192; // characters of data
const MAX_DOCUMENT = 256 * 1024; // bytes once inflated
const LANGS = ['en', 'sv', 'nb', 'da'];
const ASKS = ['ruling', 'compare', 'options'];

/** A link this page cannot read: `code` is not-a-link | malformed | truncated | too-large | future-version. */
class LinkError extends Error {
  constructor(code) { super(code); this.code = code; }
}

const fragmentOf = (text) => String(text || '').trim().replace(/^[^#]*#/, '');

/** Whether a fragment is one of these links (of any version), well formed or not. */
function isLink(text) { return /^cr\d/.test(fragmentOf(text)); }

function fromBase64url(text) {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new LinkError('malformed');
  if (text.length % 4 === 1) throw new LinkError('truncated');
  const bin = atob(text.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((text.length + 3) % 4));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

/** The bytes through a decompression stream; at most `most` bytes out. */
async function through(stream, bytes, most) {
  const writer = stream.writable.getWriter();
  writer.write(bytes).catch(() => {});
  writer.close().catch(() => {});
  const reader = stream.readable.getReader();
  const parts = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > most) { reader.cancel().catch(() => {}); throw new LinkError('too-large'); }
    parts.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  parts.forEach((p) => { out.set(p, at); at += p.length; });
  return out;
}

const isObject = (x) => x !== null && typeof x === 'object' && !Array.isArray(x);
const isText = (x, most) => typeof x === 'string' && x.length <= most;
const isWhole = (x, least, most) => Number.isInteger(x) && x >= least && x <= most;

function checkQuestion(d) {
  if (!ASKS.includes(d.ask)) return false;
  if (d.ask === 'compare' ? d.variant !== undefined && !isText(d.variant, 100) : !isText(d.variant, 100)) return false;
  if (!isObject(d.situation)) return false;
  if (d.ask === 'options' ? 'action' in d : !isObject(d.action)) return false;
  return d.house_rules === undefined || isObject(d.house_rules);
}

function checkGame(g) {
  if (!isObject(g) || !isText(g.variant, 100) || !isWhole(g.players, 1, 12)) return false;
  const names = (x) => x === undefined || (Array.isArray(x) && x.length <= 12 && x.every((n) => isText(n, 80)));
  if (!names(g.teams) || !names(g.seats)) return false;
  if (g.first_dealer !== undefined && !isWhole(g.first_dealer, 0, 11)) return false;
  if (g.house_rules !== undefined && !isObject(g.house_rules)) return false;
  const rounds = g.rounds === undefined ? [] : g.rounds;
  if (!Array.isArray(rounds) || rounds.length > 500) return false;
  if (!rounds.every((r) => isObject(r) && Array.isArray(r.teams) && r.teams.length && r.teams.length <= 12 && r.teams.every(isObject))) return false;
  const disputes = g.disputes === undefined ? [] : g.disputes;
  return Array.isArray(disputes) && disputes.length <= 200
    && disputes.every((x) => isObject(x) && isText(x.at, 40) && isObject(x.question) && checkQuestion(x.question));
}

/** The document if this version reads it (with `v` set), else a LinkError. */
function check(document) {
  if (!isObject(document)) throw new LinkError('malformed');
  const d = Object.assign({ v: VERSION }, document);
  if (!Number.isInteger(d.v)) throw new LinkError('malformed');
  if (d.v > VERSION) throw new LinkError('future-version');
  if (d.v !== VERSION || !['question', 'game'].includes(d.kind)) throw new LinkError('malformed');
  if (d.lang !== undefined && !LANGS.includes(d.lang)) throw new LinkError('malformed');
  if (d.rules !== undefined && !(isObject(d.rules) && Object.values(d.rules).every((x) => isText(x, 64)))) throw new LinkError('malformed');
  if (!(d.kind === 'question' ? checkQuestion(d) : checkGame(d.game))) throw new LinkError('malformed');
  return d;
}

/** The document a link (or its fragment) carries, checked. Rejects with a LinkError. */
async function decode(text) {
  const found = /^cr(\d{1,6})\.([A-Za-z0-9_-]*)$/.exec(fragmentOf(text));
  if (!found) throw new LinkError(isLink(text) ? 'malformed' : 'not-a-link');
  const version = Number(found[1]);
  const data = found[2];
  if (version > VERSION) throw new LinkError('future-version');
  if (version < 1) throw new LinkError('malformed');
  if (data.length > MAX_LINK) throw new LinkError('too-large');
  if (!data) throw new LinkError('truncated');
  const bytes = fromBase64url(data);
  let json;
  try {
    json = await through(new DecompressionStream('deflate-raw'), bytes, MAX_DOCUMENT);
  } catch (e) {
    if (e instanceof LinkError) throw e;
    throw new LinkError(/truncat/i.test(e.message || '') ? 'truncated' : 'malformed'); // "Compressed input was truncated."
  }
  let document;
  try { document = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(json)); } catch (e) { throw new LinkError('malformed'); }
  if (isObject(document) && document.v !== version) throw new LinkError('malformed');
  return check(document);
}

export const links = { LinkError, isLink, check, decode };
