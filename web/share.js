/* "Send": a question or a game written as a link (docs/links.md: `#cr1.` and the document as JSON, raw
 * DEFLATE by the browser's CompressionStream, base64url), shown with its QR code full screen for the phone
 * across the table; and the game written as a file.
 *
 * Loaded only when asked (web/sending.js imports it by the versioned address index.html names), and kept by
 * the service worker from then on; so is the QR encoder it draws with (web/vendor/uqr, a library pinned in
 * scripts/web-vendor, MIT). It imports nothing of the page: the page hands it the document (checked by
 * web/link.js, the reader) and the words, already in the reader's language.
 */

const VERSION = 1;
const MAX_LINK = 8192;

async function deflate(bytes) {
  const stream = new CompressionStream('deflate-raw');
  const writer = stream.writable.getWriter();
  writer.write(bytes).catch(() => {});
  writer.close().catch(() => {});
  return new Uint8Array(await new Response(stream.readable).arrayBuffer());
}

/** The fragment (without '#') that carries a checked document. */
async function encode(doc) {
  const bytes = await deflate(new TextEncoder().encode(JSON.stringify(doc)));
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
  const data = btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  if (data.length > MAX_LINK) throw new Error('too-large');
  return `cr${VERSION}.${data}`;
}

/** A document as a file the person keeps (indented JSON, the same document a link carries). */
function download(doc, name) {
  const a = el('a', { href: URL.createObjectURL(new Blob([JSON.stringify(doc, null, 2)], { type: 'application/json' })), download: name });
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
}
const QUIET = 4; // modules of white around the code, as the standard asks

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  Object.entries(attrs || {}).forEach(([k, v]) => {
    if (k === 'text') node.textContent = v;
    else if (k === 'on') node.addEventListener('click', v);
    else node.setAttribute(k, v);
  });
  children.forEach((c) => c && node.appendChild(c));
  return node;
}

/** The QR code of `text` on a canvas: a whole number of the screen's pixels to a module (every module the
 *  same size, read easily), as large as `width` (the room it has, in CSS pixels) allows. */
function drawQr(encode, text, label, width) {
  const qr = encode(text, { ecc: 'M', border: QUIET });
  const ratio = window.devicePixelRatio || 1;
  const unit = Math.max(1, Math.floor(((width || 0) * ratio) / qr.size) || Math.round(4 * ratio));
  const canvas = document.createElement('canvas');
  canvas.width = qr.size * unit;
  canvas.height = qr.size * unit;
  canvas.style.width = `${(qr.size * unit) / ratio}px`; // CSSOM, not a style attribute: allowed by the page's CSP
  canvas.style.height = canvas.style.width;
  const pen = canvas.getContext('2d');
  pen.fillStyle = '#fff';
  pen.fillRect(0, 0, canvas.width, canvas.height);
  pen.fillStyle = '#000';
  qr.data.forEach((row, y) => row.forEach((dark, x) => { if (dark) pen.fillRect(x * unit, y * unit, unit, unit); }));
  canvas.setAttribute('role', 'img');
  canvas.setAttribute('aria-label', label);
  canvas.className = 'qr';
  canvas.dataset.version = String(qr.version);
  canvas.dataset.modules = String(qr.size - 2 * QUIET);
  return canvas;
}

/**
 * Open the send sheet. `o`: {document (checked), title, what (a line saying what is sent), words: {close, copy,
 * copied, selectCopy, share, qr, linkLabel, noQr}, qrModule (the encoder's address), opener (focus returns there)}.
 */
async function open(o) {
  const w = o.words;
  o.link = `${location.origin}/#${await encode(o.document)}`;
  const status = el('p', { class: 'muted send-status', role: 'status' });
  const field = el('input', { type: 'text', readonly: '', id: 'send-link', class: 'text', 'aria-label': w.linkLabel });
  field.value = o.link;
  const qrBox = el('div', { class: 'qr-box', id: 'send-qr' });
  const close = el('button', { type: 'button', class: 'secondary', id: 'send-close', text: w.close });
  const copy = el('button', { type: 'button', class: 'primary', id: 'send-copy', text: w.copy, on: async () => {
    try { await navigator.clipboard.writeText(o.link); status.textContent = w.copied; } catch (e) { field.select(); status.textContent = w.selectCopy; }
  } });
  const share = navigator.share ? el('button', { type: 'button', class: 'secondary', id: 'send-share', text: w.share, on: () => {
    navigator.share({ title: o.title, url: o.link }).catch(() => {});
  } }) : null;
  const dialog = el('dialog', { class: 'send-sheet', id: 'send-sheet', 'aria-labelledby': 'send-title' },
    el('h2', { id: 'send-title', text: o.title }), o.what ? el('p', { class: 'muted', text: o.what }) : null,
    qrBox, field, el('div', { class: 'row' }, copy, share, close), status);
  close.addEventListener('click', () => dialog.close());
  dialog.addEventListener('close', () => { dialog.remove(); if (o.opener) o.opener.focus(); });
  document.body.appendChild(dialog);
  dialog.showModal();
  try {
    const { encode } = await import(o.qrModule);
    qrBox.appendChild(drawQr(encode, o.link, w.qr, qrBox.clientWidth));
  } catch (e) {
    qrBox.appendChild(el('p', { class: 'muted', text: w.noQr })); // offline before the encoder was ever kept
  }
  return dialog;
}

export { open, encode, download, drawQr };
