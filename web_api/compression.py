"""Compressed answers: gzip, and brotli when the ``brotli`` package is installed.

:func:`compress` runs after every other ``after_request`` hook (see the ``init_app`` order in
:func:`web_api.create_app`), on every answer of the app -- the JSON API, problems, CSV, the
OpenAPI document, the page's files. It compresses an answer when

* its media type is text: ``text/*`` (HTML, CSS, CSV, plain text, JavaScript), JSON
  (``application/json``, ``application/problem+json``, any ``+json``), YAML, JavaScript,
  SVG and XML (:func:`compressible`); images, archives and anything else already compressed
  are left alone;
* its body is over :data:`MIN_SIZE` (1 KiB): below that the gain is a few hundred bytes at
  best, less than the cost of the extra header and the CPU;
* it is not encoded already (a ``Content-Encoding``, e.g. the page's own gzip files), is not
  a 1xx/204/206/304, is not streamed, and does not say ``Cache-Control: no-transform``;
* and the client accepts the coding (``Accept-Encoding``; brotli is preferred when both are
  acceptable at the same quality, ``q=0`` refuses a coding).

Every answer that could be compressed carries ``Vary: Accept-Encoding``, compressed or not,
so a shared cache keeps the plain and the compressed forms apart; a ``Vary`` set before
(``Origin``, ``Accept-Language``) is kept. ``Content-Length`` is the compressed length, and
a strong ``ETag`` becomes weak, since the bytes are no longer those the tag was made for.

Levels. The answers :mod:`web_api.caching` tags (variants, sources, the matrix, the OpenAPI
document) are the same bytes every time: each is compressed once per worker at a high level
(gzip 9, brotli 10) and remembered by its hash (:data:`CACHE_ENTRIES` bodies at most). Every
other answer (rulings, scores, comparisons) is new each time and the service is CPU-bound,
so those use fast levels: gzip 3 and brotli 3. On a 37 KB comparison gzip 3 takes about
75 µs (37 KB to 5.6 KB) where gzip 6 takes 230 µs for 4.8 KB; brotli 3 about 100 µs (5.3 KB).
"""

from __future__ import annotations

import gzip
import threading
from collections import OrderedDict

from flask import Flask, Response, request

try:  # optional: without it only gzip is offered
    import brotli
except ImportError:  # pragma: no cover -- depends on the installation
    brotli = None

MIN_SIZE = 1024  # bytes; answers of this size or smaller are sent as they are
MAX_PASSTHROUGH = 4 * 1024 * 1024  # a file response (send_file) larger than this is sent as it is
FAST_LEVEL = {"gzip": 3, "br": 3}  # answers that are new every time
HIGH_LEVEL = {"gzip": 9, "br": 10}  # answers tagged by web_api.caching, compressed once and remembered
CACHE_ENTRIES = 128
CACHE_BYTES = 16 * 1024 * 1024

_TEXT_TYPES = frozenset({"application/json", "application/yaml", "application/x-yaml", "application/javascript",
                         "application/xml", "image/svg+xml", "application/manifest+json"})
_DIGEST_KEY = "canasta.body_digest"


def compressible(mimetype: str | None) -> bool:
    """Whether answers of this media type are worth compressing (text, JSON, YAML, SVG, XML)."""
    if not mimetype:
        return False
    mimetype = mimetype.lower()
    return mimetype.startswith("text/") or mimetype in _TEXT_TYPES or mimetype.endswith(("+json", "+xml"))


def codings() -> tuple[str, ...]:
    """The codings this installation can produce, preferred first."""
    return ("br", "gzip") if brotli is not None else ("gzip",)


def choose_coding(accept) -> str | None:
    """The coding to use for a request's ``Accept-Encoding`` (werkzeug ``Accept``), or ``None``."""
    best, best_q = None, 0.0
    for coding in codings():  # preferred first: a later one must be strictly better
        q = accept.quality(coding)
        if q > best_q:
            best, best_q = coding, q
    return best


def encode(data: bytes, coding: str, level: int) -> bytes:
    if coding == "br":
        return brotli.compress(data, quality=level)
    return gzip.compress(data, compresslevel=level, mtime=0)


class _Remembered:
    """A small LRU of compressed bodies keyed by (body hash, coding); shared by the threads of a worker."""

    def __init__(self, entries: int, size: int):
        self._items: OrderedDict[tuple[str, str], bytes] = OrderedDict()
        self._entries, self._size, self._bytes = entries, size, 0
        self._lock = threading.Lock()

    def get(self, key: tuple[str, str]) -> bytes | None:
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def put(self, key: tuple[str, str], value: bytes) -> None:
        with self._lock:
            if key in self._items or len(value) > self._size:
                return
            self._items[key] = value
            self._bytes += len(value)
            while len(self._items) > self._entries or self._bytes > self._size:
                _, old = self._items.popitem(last=False)
                self._bytes -= len(old)


_REMEMBERED = _Remembered(CACHE_ENTRIES, CACHE_BYTES)


def remember_digest(tag: str, data: bytes) -> None:
    """Note that this request's body is ``data`` with hash ``tag`` (called by :mod:`web_api.caching`)."""
    request.environ[_DIGEST_KEY] = (tag, len(data))


def add_vary(response: Response, length: int) -> None:
    """``Vary: Accept-Encoding`` on an answer that would be compressed for a client that accepts it."""
    if length > MIN_SIZE and compressible(response.mimetype) and "Content-Encoding" not in response.headers:
        response.vary.add("Accept-Encoding")


def remembered(tag: str, data: bytes, coding: str, level: int) -> bytes:
    """``data`` (whose hash is ``tag``) compressed at ``level``, once per worker while it stays remembered."""
    key = (tag, coding)
    body = _REMEMBERED.get(key)
    if body is None:
        body = encode(data, coding, level)
        _REMEMBERED.put(key, body)
    return body


def _compressed(data: bytes, coding: str) -> bytes:
    known = request.environ.get(_DIGEST_KEY)
    if known is None or known[1] != len(data):
        return encode(data, coding, FAST_LEVEL[coding])
    return remembered(known[0], data, coding, HIGH_LEVEL[coding])


def compress(response: Response) -> Response:
    """``after_request``: compress the answer when it is worth it and the client accepts it (see above)."""
    status = response.status_code
    if status < 200 or status in (204, 206, 304) or "Content-Encoding" in response.headers:
        return response
    if not compressible(response.mimetype) or "no-transform" in response.headers.get("Cache-Control", ""):
        return response
    if response.direct_passthrough:  # send_file: read the file, unless it is large
        length = response.content_length
        if length is None or length > MAX_PASSTHROUGH:
            return response
        response.direct_passthrough = False
    elif response.is_streamed:
        return response
    data = response.get_data()
    if len(data) <= MIN_SIZE:
        return response
    response.vary.add("Accept-Encoding")
    if "Accept-Encoding" not in request.headers:  # most integrations: nothing to choose from
        return response
    coding = choose_coding(request.accept_encodings)
    if coding is None:
        return response
    body = _compressed(data, coding)
    if len(body) >= len(data):
        return response
    response.set_data(body)  # sets Content-Length
    response.headers["Content-Encoding"] = coding
    tag, weak = response.get_etag()
    if tag and not weak:
        response.set_etag(tag, weak=True)
    return response


def init_app(app: Flask) -> None:
    app.after_request(compress)
