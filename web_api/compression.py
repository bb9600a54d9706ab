"""Compressed answers: gzip, and brotli when the ``brotli`` package is installed.

:func:`compress` runs last in the app's one ``after_request`` hook (:mod:`web_api.security`),
on every answer of the app -- the JSON API, problems, CSV, the
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

from flask import Response, request
from werkzeug.http import parse_accept_header

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
    known = _COMPRESSIBLE.get(mimetype)
    if known is None:
        lower = mimetype.lower()
        known = lower.startswith("text/") or lower in _TEXT_TYPES or lower.endswith(("+json", "+xml"))
        if len(_COMPRESSIBLE) < 256:  # the app answers a handful of media types
            _COMPRESSIBLE[mimetype] = known
    return known


_COMPRESSIBLE: dict[str, bool] = {}


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


def coding_for(header: str) -> str | None:
    """:func:`choose_coding` for an ``Accept-Encoding`` header, worked out once per form of the header."""
    try:
        return _CHOSEN[header]
    except KeyError:
        pass
    coding = choose_coding(parse_accept_header(header))
    if len(_CHOSEN) >= 1024:
        _CHOSEN.clear()
    _CHOSEN[header] = coding
    return coding


_CHOSEN: dict[str, str | None] = {}


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


def varies(response: Response, mimetype: str, length: int) -> bool:
    """Whether an answer would be compressed for a client that accepts it (so it says ``Vary: Accept-Encoding``)."""
    return length > MIN_SIZE and compressible(mimetype) and "Content-Encoding" not in response.headers


def remembered(tag: str, data: bytes, coding: str, level: int) -> bytes:
    """``data`` (whose hash is ``tag``) compressed at ``level``, once per worker while it stays remembered."""
    key = (tag, coding)
    body = _REMEMBERED.get(key)
    if body is None:
        body = encode(data, coding, level)
        _REMEMBERED.put(key, body)
    return body


def _compressed(data: bytes, coding: str, environ: dict) -> bytes:
    known = environ.get(_DIGEST_KEY)
    if known is None or known[1] != len(data):
        return encode(data, coding, FAST_LEVEL[coding])
    return remembered(known[0], data, coding, HIGH_LEVEL[coding])


def compress(response: Response, environ: dict, mimetype: str, vary: list[str], present: dict) -> None:
    """Compress the answer when it is worth it and the client accepts it (see above); ``Accept-Encoding`` is
    added to ``vary`` where the answer depends on it. Called last by :mod:`web_api.security`'s hook, with
    the headers the view set (``present``, lower-case names)."""
    status = response.status_code
    if status < 200 or status in (204, 206, 304) or not compressible(mimetype):
        return
    if "content-encoding" in present or "no-transform" in present.get("cache-control", ""):
        return
    if response.direct_passthrough:  # send_file: read the file, unless it is large
        length = response.content_length
        if length is None or length > MAX_PASSTHROUGH:
            return
        response.direct_passthrough = False
    elif response.is_streamed:
        return
    data = response.get_data()
    if len(data) <= MIN_SIZE:
        return
    vary.append("Accept-Encoding")
    accept = environ.get("HTTP_ACCEPT_ENCODING")
    if not accept:  # most integrations: nothing to choose from
        return
    coding = coding_for(accept)
    if coding is None:
        return
    body = _compressed(data, coding, environ)
    if len(body) >= len(data):
        return
    response.set_data(body)  # sets Content-Length
    response.headers["Content-Encoding"] = coding
    tag, weak = response.get_etag()
    if tag and not weak:
        response.set_etag(tag, weak=True)
