"""Answers written as they are made: a JSON document whose long lists are made one item at a time.

A page of options can be hundreds of options, each with its ruling: built whole, its Python objects
take ten times the bytes of its JSON (a 17 MB answer held a worker at 300 MB). :func:`respond`
writes such a document in pieces instead: a :class:`Lazy` in the document is a JSON array whose
items are made (by the serializer) only as the writer reaches them, encoded at once and let go, so
a worker holds one option and one piece (:data:`PIECE` bytes) at a time. Between items the engine's
checkpoint runs (:mod:`adjudicator.turns`), so the worker's other connections take their turns while
a long answer is made. A client that stops reading is dropped by the worker's write deadline
(:mod:`web_api.workers`), and the items not yet made are never made.

A streamed answer is compressed as it goes (gzip or brotli, as :mod:`web_api.compression` would
choose for a whole one, each piece flushed) and has no ``Content-Length`` (chunked). A small answer
-- the common one -- is made whole and answered as every other (compressed with its length).
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Iterable, Iterator
from contextlib import closing
from typing import Any

from flask import Response, jsonify, request

from adjudicator import turns

from . import compression, jsonio
from .budgets import new_turns

PIECE = 64 * 1024  # bytes of JSON gathered before they are written


class Lazy:
    """A JSON array in a document, its items made one by one as the answer is written (or listed, for a whole one)."""

    __slots__ = ("items",)

    def __init__(self, items: Iterable[Any]):
        self.items = items


def whole(value: Any) -> Any:
    """``value`` with every :class:`Lazy` in it made into a list (an answer made whole), in one walk: a part
    with no Lazy in it is the very object given (the read-only parts the serializer shares stay shared). The
    engine's checkpoint runs between the items made, as when they are written (:func:`_parts`)."""
    if isinstance(value, Lazy):
        made = []
        for item in value.items:
            made.append(whole(item))
            turns.checkpoint()
        return made
    if isinstance(value, dict):
        changed: dict | None = None
        for key, item in value.items():
            made = whole(item)
            if made is not item:
                if changed is None:
                    changed = dict(value)
                changed[key] = made
        return value if changed is None else changed
    if isinstance(value, list):
        items: list | None = None
        for i, item in enumerate(value):
            made = whole(item)
            if made is not item:
                if items is None:
                    items = list(value)
                items[i] = made
        return value if items is None else items
    return value


class Maker:
    """:func:`lazily` for one answer, remembering whether it made a :class:`Lazy`: an answer with none is
    answered as any other (nothing to make whole or to stream)."""

    __slots__ = ("made",)

    def __init__(self) -> None:
        self.made = False

    def __call__(self, make: Callable[[Any], Any], items: Iterable[Any]) -> Lazy:
        self.made = True
        return lazily(make, items)


def _holds_lazy(value: Any) -> bool:
    if isinstance(value, Lazy):
        return True
    if isinstance(value, dict):
        return any(_holds_lazy(v) for v in value.values())
    if isinstance(value, list):
        return any(_holds_lazy(v) for v in value)
    return False


def _parts(value: Any) -> Iterator[bytes]:
    """The JSON of ``value`` in parts: a value without :class:`Lazy` in it in one, a Lazy item by item."""
    if isinstance(value, Lazy):
        yield b"["
        first = True
        for item in value.items:
            if not first:
                yield b","
            first = False
            yield from _parts(item)
            turns.checkpoint()
        yield b"]"
    elif isinstance(value, dict) and _holds_lazy(value):
        yield b"{"
        for i, (key, item) in enumerate(value.items()):
            yield (b"," if i else b"") + jsonio.dumps(key) + b":"
            yield from _parts(item)
        yield b"}"
    elif isinstance(value, list) and _holds_lazy(value):
        yield b"["
        for i, item in enumerate(value):
            if i:
                yield b","
            yield from _parts(item)
        yield b"]"
    else:
        yield jsonio.dumps(value)


class _Coder:
    """Compresses the pieces of one answer as they go (each flushed, so the client can read it at once)."""

    def __init__(self, coding: str | None):
        self.coding = coding
        if coding == "br":
            self._c = compression.brotli.Compressor(quality=compression.FAST_LEVEL["br"])
        elif coding == "gzip":
            self._c = zlib.compressobj(compression.FAST_LEVEL["gzip"], zlib.DEFLATED, 16 + zlib.MAX_WBITS)

    def piece(self, data: bytes) -> bytes:
        if self.coding is None:
            return data
        if self.coding == "br":
            return self._c.process(data) + self._c.flush()
        return self._c.compress(data) + self._c.flush(zlib.Z_SYNC_FLUSH)

    def end(self) -> bytes:
        if self.coding is None:
            return b""
        if self.coding == "br":
            return self._c.finish()
        return self._c.flush(zlib.Z_FINISH)


def pieces(parts: Iterable[bytes], stopped: Callable[[], None]) -> Iterator[bytes]:
    """``parts`` joined into pieces of about :data:`PIECE` bytes (the last one what is left), made under the
    answer's own turns: it is made after the request's hooks, and the engine's checkpoints between its parts
    let the worker's other connections run. ``stopped()`` is called when the server closes the generator (the
    client has gone, or does not read): the parts not reached are then never made."""
    token = turns.set_hook(new_turns())
    gathered: list[bytes] = []
    size = 0
    try:
        for part in parts:
            gathered.append(part)
            size += len(part)
            if size >= PIECE:
                yield b"".join(gathered)
                gathered, size = [], 0
        yield b"".join(gathered)
    except GeneratorExit:
        stopped()
        raise
    finally:
        try:
            turns.reset_hook(token)
        except ValueError:
            pass


def _written(document: Any, coder: _Coder, logger) -> Iterator[bytes]:
    """The answer's bytes in compressed pieces, the engine's turns taken as it is made."""
    def stopped() -> None:
        logger.warning("a streamed answer stopped: the client is gone or does not read")

    with closing(pieces(_parts(document), stopped)) as made:  # closed with this generator, at once
        for piece in made:
            out = coder.piece(piece)
            if out:
                yield out
    end = coder.end()
    if end:
        yield end


def respond(document: Any, stream: bool, logger) -> Response:
    """The answer: made whole (the common case), or written as it is made when ``stream``."""
    if not stream:
        return jsonify(whole(document))
    accept = request.environ.get("HTTP_ACCEPT_ENCODING")
    coding = compression.coding_for(accept) if accept else None
    response = Response(_written(document, _Coder(coding), logger), mimetype="application/json")
    if coding is not None:
        response.headers["Content-Encoding"] = coding
    response.headers["Vary"] = "Accept-Encoding"
    return response


def lazily(make: Callable[[Any], Any], items: Iterable[Any]) -> Lazy:
    """A :class:`Lazy` of ``make(item)`` for each item, made as it is written."""
    return Lazy(make(item) for item in items)
